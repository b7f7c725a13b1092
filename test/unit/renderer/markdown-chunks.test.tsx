import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../../src/renderer/components/markdown';
import { splitMarkdownChunks } from '../../../src/renderer/components/markdown-chunks';
import { parseMarkdownTokens } from '../../../src/renderer/components/markdown-pipeline';
import { renderMarkdownTokens } from '../../../src/renderer/components/markdown-render';

const DOCUMENTS = [
  'One paragraph\nstill the same one.\n\nAnother with **bold** and `code`.',
  '# Title\n\n- a\n- b\n\n1. one\n2. two\n\n> quoted\n> more\n\n---\n\nend',
  '- a\n  - nested\n\n    still in nested\n- b\n\nafter',
  '```python\nprint(1)\n\n\nprint(2)\n```\n\nafter the fence',
  '~~~\nblank lines\n\ninside a tilde fence\n~~~\ntext right after\n\nlast',
  '$$\nx^2\n\ny\n$$\n\nafter the math',
  '| a | b |\n|---|--:|\n| 1 | 2 |\n\nunder the table',
  '1. one\n\n2. two\n\n3. three',
  '- a\n\n- b\n\n  more of b\n\n- c\n\nafter the list\n\n- a new list',
  'intro\n* x\n\n* y\n\n1) a\n\n2) b\n\n---\n\n- - -',
  'crlf line\r\n\r\nsecond\r\nthird',
  '\n\n\nleading and trailing blank lines\n\n\n',
  '',
];

const whole = (text: string): string =>
  renderToStaticMarkup(<>{renderMarkdownTokens(parseMarkdownTokens(text), false)}</>);

describe('Markdown chunks (memoised per chunk while streaming)', () => {
  it('rendering the chunks one by one gives exactly the HTML of the whole text', () => {
    for (const document of DOCUMENTS) {
      expect(renderToStaticMarkup(<Markdown text={document} />), JSON.stringify(document)).toBe(
        `<div class="markdown">${whole(document.replace(/\r\n?/g, '\n'))}</div>`,
      );
    }
  });

  it('splits at blank lines outside fences and math, keeping indented continuations', () => {
    const texts = (source: string): string[] =>
      splitMarkdownChunks(source).map((chunk) => chunk.text);
    expect(texts('a\n\nb\nc\n\n\nd')).toEqual(['a\n', 'b\nc\n\n', 'd']);
    expect(texts('```\nx\n\ny\n```\n\nz')).toEqual(['```\nx\n\ny\n```\n', 'z']);
    expect(texts('- a\n\n  more of a\n\nnext')).toEqual(['- a\n\n  more of a\n', 'next']);
  });

  it('keeps a loose list (items apart by blank lines) one list: one chunk, numbered on', () => {
    const texts = (source: string): string[] =>
      splitMarkdownChunks(source).map((chunk) => chunk.text);
    expect(texts('1. one\n\n2. two\n\n3. three\n\nafter')).toEqual([
      '1. one\n\n2. two\n\n3. three\n',
      'after',
    ]);
    expect(texts('text\n\n- a\n\n- b')).toEqual(['text\n', '- a\n\n- b']);
    const html = renderToStaticMarkup(<Markdown text={'1. one\n\n2. two\n\n3. three'} />);
    expect(html).toBe(
      '<div class="markdown"><ol><li><p>one</p></li><li><p>two</p></li><li><p>three</p></li></ol></div>',
    );
  });

  it('marks a chunk that ends inside a fence or a $$ block as open', () => {
    expect(splitMarkdownChunks('text\n\n```js\nlet a')).toEqual([
      { text: 'text\n', open: false },
      { text: '```js\nlet a', open: true },
    ]);
    expect(splitMarkdownChunks('$$\nx^2').at(-1)?.open).toBe(true);
    expect(splitMarkdownChunks('$$\nx^2\n$$').at(-1)?.open).toBe(false);
    expect(splitMarkdownChunks('$$x^2$$').at(-1)?.open).toBe(false);
    expect(splitMarkdownChunks('````\n```\nstill open').at(-1)?.open).toBe(true);
  });

  it('a growing text keeps its earlier chunks unchanged (only the tail re-renders)', () => {
    const text = 'first paragraph\n\nsecond paragraph\n\nthird par';
    const before = splitMarkdownChunks(text);
    const after = splitMarkdownChunks(`${text}agraph grows`);
    expect(after.slice(0, -1)).toEqual(before.slice(0, -1));
    expect(after.at(-1)?.text).toBe('third paragraph grows');
  });
});
