/**
 * e2e: a streamed answer full of Markdown in the browser host (`aivory serve` + the scripted
 * model): a GFM table, a nested list, a task list, inline and display math (KaTeX), a mermaid
 * diagram (an SVG image, strict mode) and highlighted code all render under the app's CSP; raw
 * HTML stays text and a `javascript:` link is no link; a loose list is one list; only the Python
 * grammar is fetched for Python code.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedResponse } from '../support/scripted-llm-server';
import { turnState } from './helpers/chat-script';
import { screenshot } from './helpers/browser';
import { useAppFixture } from './helpers/app-fixture';

const ANSWER = [
  '## Results',
  '',
  '| Language | Stars |',
  '|:--|--:|',
  '| Python | 3 |',
  '| TypeScript | 5 |',
  '',
  '- fruit',
  '  - apple',
  '  - ~~pear~~',
  '- [x] checked',
  '',
  'Steps:',
  '',
  '1. first step',
  '',
  '2. second step',
  '',
  '3. third step',
  '',
  'Einstein: $E=mc^2$, and <b>not bold</b> [bad](javascript:alert(1)).',
  '',
  '$$',
  '\\int_0^1 x^2\\,dx = \\frac{1}{3}',
  '$$',
  '',
  '```mermaid',
  'graph TD',
  '  A[Ask] --> B{Tools?}',
  '  B -->|yes| C[Call]',
  '  B -->|no| D[Answer]',
  '```',
  '',
  '```python',
  'def area(r):',
  '    # the circle',
  '    return 3.14 * r ** 2',
  '```',
].join('\n');

/** 620 rows: more than the 500 an answer shows before "Show the other … rows". */
const LONG_TABLE = `| n | square |\n|--:|--:|\n${Array.from(
  { length: 620 },
  (_, row) => `| ${row} | ${row * row} |`,
).join('\n')}`;

function script(request: RecordedRequest): ScriptedResponse {
  if (turnState(request).text.includes('long table'))
    return { content: LONG_TABLE, chunkSize: 400 };
  return { content: ANSWER, chunkSize: 24, delayMs: 15 };
}

describe('e2e: Markdown in the browser host', () => {
  const app = useAppFixture(script);

  it('tables, nested lists, math, a mermaid diagram and highlighted code render', async () => {
    const { page } = app().browser;
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const scripts: string[] = [];
    page.on('request', (request) => {
      const name = /\/assets\/([^/?]+)\.js/.exec(request.url())?.[1];
      if (name !== undefined) scripts.push(name.replace(/-[\w-]{8}$/, ''));
    });
    await page.goto(app().serve.url);
    await page.getByTestId('composer-input').fill('Show me some Markdown');
    await page.getByTestId('composer-input').press('Enter');

    const answer = page.getByTestId('message-assistant').last();
    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 20_000 })
      .toBe('complete');
    const markdown = answer.locator('.markdown');

    expect(await markdown.locator('table th').allTextContents()).toEqual(['Language', 'Stars']);
    expect(await markdown.locator('table tbody tr').count()).toBe(2);
    expect(await markdown.locator('ul ul li').allTextContents()).toEqual(['apple', 'pear']);
    expect(await markdown.locator('ul ul s').textContent()).toBe('pear');
    expect(await markdown.locator('input[type="checkbox"]').isChecked()).toBe(true);
    // A loose list (blank lines between items) is one list, numbered on, with paragraphs.
    const steps = markdown.locator('ol');
    expect(await steps.count()).toBe(1);
    expect(await steps.locator('> li > p').allTextContents()).toEqual([
      'first step',
      'second step',
      'third step',
    ]);
    expect(await steps.evaluate((list: HTMLOListElement) => list.start)).toBe(1);

    // KaTeX: inline and display, typeset (its CSS and fonts come from the app itself).
    await markdown.locator('.math-inline .katex').waitFor();
    await markdown.locator('.math-display .katex-display').waitFor();
    expect(await markdown.locator('.katex').count()).toBe(2);
    expect(await markdown.locator('.math-source').count()).toBe(0);

    // Mermaid: an SVG image document (no script, nothing loaded), drawn and decoded.
    const diagram = markdown.getByTestId('mermaid-diagram');
    await diagram.waitFor({ timeout: 20_000 });
    const src = (await diagram.getAttribute('src')) ?? '';
    expect(src.startsWith('data:image/svg+xml')).toBe(true);
    const svg = decodeURIComponent(src.slice(src.indexOf(',') + 1));
    expect(svg).toMatch(/^<svg[^>]*securityLevel|^<svg/);
    expect(svg).toContain('Tools?');
    expect(svg).not.toContain('foreignObject');
    await expect
      .poll(() => diagram.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);

    // Highlighted code (lowlight, loaded lazily).
    const code = markdown.locator('.code-block[data-language="python"]');
    expect(await code.locator('.hljs-comment').textContent()).toBe('# the circle');
    expect(await code.locator('.hljs-keyword').first().textContent()).toBe('def');
    // One grammar chunk per language: the Python answer fetched Python's, no other.
    expect(scripts).toContain('python');
    for (const other of ['javascript', 'typescript', 'cpp', 'bash', 'xml', 'css'])
      expect(scripts).not.toContain(other);

    // Safety: raw HTML is text, a javascript: link is no link.
    expect(await markdown.locator('b').count()).toBe(0);
    expect(await markdown.textContent()).toContain('<b>not bold</b>');
    expect(await markdown.locator('a').count()).toBe(0);
    expect(pageErrors).toEqual([]);

    await answer.scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-markdown');
  }, 60_000);

  it('a table of 620 rows shows 500 and the rest on request', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill('Give me a long table');
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').last();
    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 20_000 })
      .toBe('complete');
    const rows = answer.locator('.markdown table tbody tr');
    await expect.poll(() => rows.count()).toBe(500);
    const more = answer.getByTestId('table-show-all');
    expect(await more.textContent()).toContain('120');
    await more.click();
    await expect.poll(() => rows.count()).toBe(620);
    expect(await rows.last().textContent()).toContain('383161');
    expect(await answer.getByTestId('table-show-all').count()).toBe(0);
  }, 60_000);
});
