import { describe, expect, it } from 'vitest';
import { splitMarkdownChunks } from '../../../src/renderer/components/markdown-chunks';
import { parseMarkdown } from '../../../src/renderer/components/markdown-parse';

const DOCUMENTS = [
  'One paragraph\nstill the same one.\n\nAnother with **bold** and `code`.',
  '# Title\n\n- a\n- b\n\n1. one\n2. two\n\n> quoted\n> more\n\n---\n\nend',
  '```python\nprint(1)\n\n\nprint(2)\n```\n\nafter the fence',
  '~~~\nblank lines\n\ninside a tilde fence\n~~~\ntext right after\n\nlast',
  'text\n```js\nconst open = "never closed";\n\nstill code',
  'crlf line\r\n\r\nsecond\r\nthird',
  '\n\n\nleading and trailing blank lines\n\n\n',
  '',
];

describe('Markdown chunks (memoised per chunk while streaming)', () => {
  it('parsing the chunks one by one gives exactly the blocks of the whole text', () => {
    for (const document of DOCUMENTS) {
      const chunked = splitMarkdownChunks(document).flatMap((chunk) => parseMarkdown(chunk));
      expect(chunked, JSON.stringify(document)).toEqual(parseMarkdown(document));
    }
  });

  it('splits at blank lines outside fences only', () => {
    expect(splitMarkdownChunks('a\n\nb\nc\n\n\nd')).toEqual(['a', 'b\nc', 'd']);
    expect(splitMarkdownChunks('```\nx\n\ny\n```\n\nz')).toEqual(['```\nx\n\ny\n```', 'z']);
  });

  it('a growing text keeps its earlier chunks unchanged (only the tail re-renders)', () => {
    const text = 'first paragraph\n\nsecond paragraph\n\nthird par';
    const before = splitMarkdownChunks(text);
    const after = splitMarkdownChunks(`${text}agraph grows`);
    expect(after.slice(0, -1)).toEqual(before.slice(0, -1));
    expect(after.at(-1)).toBe('third paragraph grows');
  });
});
