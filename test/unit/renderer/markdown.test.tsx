import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { highlightCode, loadGrammar } from '../../../src/renderer/components/code-highlighter';
import { Markdown, imageHost } from '../../../src/renderer/components/markdown';
import {
  isSafeLink,
  parseMarkdownChunk,
  TABLE_PREVIEW_ROWS,
} from '../../../src/renderer/components/markdown-pipeline';

const html = (text: string): string => renderToStaticMarkup(<Markdown text={text} />);

describe('renderer: the Markdown pipeline (markdown-it → React)', () => {
  it('renders GFM tables with alignment, nested lists, strikethrough and task lists', () => {
    const out = html(
      '| a | b |\n|:--|--:|\n| 1 | **2** |\n\n- one\n  - nested\n    - deeper\n- two\n\n~~gone~~\n\n- [x] done\n- [ ] todo',
    );
    expect(out).toContain('<table><thead><tr><th style="text-align:left">a</th>');
    expect(out).toContain('<td style="text-align:right"><strong>2</strong></td>');
    expect(out).toMatch(/<ul><li>.*one.*<ul><li>.*nested.*<ul><li>.*deeper/s);
    expect(out).toContain('<s>gone</s>');
    expect(out).toMatch(
      /<li class="task-list-item">[^]*?<input type="checkbox"[^>]*checked=""[^>]*> done/,
    );
    expect(out).toMatch(
      /<input type="checkbox" class="task-list-item-checkbox" disabled=""[^>]*\/> todo/,
    );
    expect(out).toContain('todo');
    expect(out).not.toContain('[x]');
  });

  it('maps # to h3 under the app headings and keeps ordered list starts', () => {
    const out = html('# Title\n\n### Small\n\n3. three\n4. four');
    expect(out).toContain('<h3>Title</h3>');
    expect(out).toContain('<h5>Small</h5>');
    expect(out).toContain('<ol start="3">');
  });

  it('inline and display math become formulas (TeX source shown until KaTeX loads)', () => {
    const out = html('Energy $E=mc^2$ here.\n\n$$\n\\int_0^1 x\\,dx\n$$');
    expect(out).toContain(
      '<span class="math math-inline" data-testid="math"><code class="math-source">E=mc^2</code>',
    );
    expect(out).toContain('<div class="math math-display" data-testid="math">');
    expect(out).not.toContain('$E');
    // A lone dollar, or prices, stay text.
    expect(html('It costs $5 and $ 6.')).toContain('It costs $5 and $ 6.');
  });

  it('an unfinished $$ block or mermaid fence (still streaming) shows as text', () => {
    expect(html('$$\n\\frac{1}{')).toContain('<pre class="math-pending">$$\n\\frac{1}{</pre>');
    const open = html('```mermaid\ngraph TD\n  A-->B');
    expect(open).toContain('data-language="mermaid"');
    expect(open).not.toContain('mermaid-pending');
    // Closed: the diagram component (its code shows until mermaid has drawn it).
    expect(html('```mermaid\ngraph TD\n  A-->B\n```')).toContain('class="mermaid-pending"');
  });

  it('raw HTML stays literal text', () => {
    const out = html(
      'Hi <img src=x onerror=alert(1)> <script>alert(2)</script>\n\n<div>\nblock\n</div>',
    );
    expect(out).not.toMatch(/<img|<script|<div>/i);
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it('only http(s) and mailto destinations become links', () => {
    const out = html(
      '[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html,x) [d](file:///etc/passwd) ' +
        '[e](vbscript:x) [ok](https://example.com) <mailto:me@example.com> see https://example.org/x.',
    );
    expect(out).not.toMatch(/href="(?!https:|mailto:)/i);
    expect(out).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow" title="https://example.com">ok</a>',
    );
    expect(out).toContain('href="mailto:me@example.com"');
    expect(out).toContain('href="https://example.org/x"');
    for (const href of ['javascript:alert(1)', 'data:text/html,x', '//evil.example', 'file:///x']) {
      expect(isSafeLink(href), href).toBe(false);
    }
  });

  it('images are click-to-load placeholders naming the host; non-https images are blocked', () => {
    const out = html(
      '![secret](https://evil.example/p.png?d=SECRET) ![plain](http://evil.example/p.png) ![local](file:///etc/passwd)',
    );
    expect(out).not.toMatch(/<img/i);
    expect(out).toContain('Load image from evil.example');
    expect(out).toContain('Image not loaded');
    expect(imageHost('https://a.example:8443/x.png')).toBe('a.example:8443');
    expect(imageHost('data:image/png;base64,AAAA')).toBeNull();
  });

  it('code blocks keep HTML as text; the lazily loaded highlighter gives hljs spans', async () => {
    const code = 'const a = "<img src=x onerror=alert(1)>"; // hi';
    const out = html('```js\n' + code + '\n```');
    expect(out).toContain('data-language="js"');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('data-testid="code-copy"');
    expect(out).not.toMatch(/<img/);
    // Grammars load one by one, by name or alias: none is there before it is asked for.
    expect(highlightCode(code, 'js')).toBeNull();
    expect(await loadGrammar('js')).toBe(true);
    const highlighted = renderToStaticMarkup(<>{highlightCode(code, 'js')}</>);
    expect(highlighted).toContain('<span class="hljs-keyword">const</span>');
    expect(highlighted).toContain(
      '<span class="hljs-string">&quot;&lt;img src=x onerror=alert(1)&gt;&quot;</span>',
    );
    expect(highlighted).toContain('<span class="hljs-comment">// hi</span>');
    expect(highlightCode(code, 'no-such-language')).toBeNull();
    expect(await loadGrammar('no-such-language')).toBe(false);
    expect(highlightCode('x = 1', 'Python')).toBeNull();
    expect(await loadGrammar('py')).toBe(true);
    expect(highlightCode('x = 1', 'Python')).not.toBeNull();
  });

  it('pathological input renders without throwing (deep nesting, unclosed markers)', () => {
    expect(html('>'.repeat(50) + ' deep')).toContain('deep');
    // Past markdown-it's nesting guard (100 levels) the structure is cut, never the app.
    expect(html('>'.repeat(20_000) + ' deeper')).toContain('<blockquote><blockquote>');
    expect(html('- '.repeat(5_000) + 'x')).toContain('<ul><li><ul><li>');
    expect(html('*a_ '.repeat(20_000))).toContain('*a_');
    expect(html('**' + 'unclosed bold '.repeat(5_000))).toContain('**unclosed');
  });

  it('a table of more than 500 rows shows its first 500 and offers the rest; shorter ones, mixed chunks and allRows are whole', () => {
    const table = (rows: number): string =>
      `| n | v |\n|--|--:|\n${Array.from({ length: rows }, (_, row) => `| r${row} | **${row}** |`).join('\n')}`;
    const rowCount = (text: string, allRows = false): number =>
      parseMarkdownChunk(text, allRows).tokens.filter((token) => token.type === 'tr_open').length;
    expect(rowCount(table(TABLE_PREVIEW_ROWS))).toBe(TABLE_PREVIEW_ROWS + 1);
    expect(parseMarkdownChunk(table(TABLE_PREVIEW_ROWS)).hiddenRows).toBe(0);
    const long = table(TABLE_PREVIEW_ROWS + 250);
    expect(rowCount(long)).toBe(TABLE_PREVIEW_ROWS + 1);
    expect(parseMarkdownChunk(long).hiddenRows).toBe(250);
    expect(rowCount(long, true)).toBe(TABLE_PREVIEW_ROWS + 251);
    expect(parseMarkdownChunk(long, true).hiddenRows).toBe(0);
    // Not one table: parsed whole.
    expect(parseMarkdownChunk(`${long}\nno pipe here`).hiddenRows).toBe(0);
    expect(parseMarkdownChunk(`Intro\n${long}`).hiddenRows).toBe(0);
    const out = html(long);
    expect(out).toContain('data-testid="table-show-all"');
    expect(out).toContain('250');
    expect(out).not.toContain('r600');
    expect(out).toContain('r499');
  });
});
