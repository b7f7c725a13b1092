import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown, MarkdownText } from '../../../src/renderer/components/markdown';
import { advanceMarkdownSplit } from '../../../src/renderer/components/markdown-split';
import {
  LONG_ANSWER_CHARS,
  markdownWindow,
  revealStep,
  STEP_CHARS,
  TAIL_CHARS,
} from '../../../src/renderer/components/markdown-window';
import { longAnswerText } from '../../support/long-answer';

const chunksOf = (text: string) => advanceMarkdownSplit(null, text).chunks;
const length = (chunks: readonly { text: string }[]): number =>
  chunks.reduce((sum, chunk) => sum + chunk.text.length, 0);

describe('the shown part of a very long answer', () => {
  it('shows an answer up to the bound whole, as Markdown always did', () => {
    const text = longAnswerText('markdown', LONG_ANSWER_CHARS - 1000);
    expect(markdownWindow(chunksOf(text), null)).toEqual({ start: 0, hiddenChars: 0 });
    expect(renderToStaticMarkup(<Markdown text={text} endOnly />)).toBe(
      renderToStaticMarkup(<Markdown text={text} />),
    );
  });

  it('past it, shows its end: at least TAIL_CHARS and at most one step more', () => {
    for (const kind of ['markdown', 'paragraph', 'line', 'fence'] as const) {
      const chunks = chunksOf(longAnswerText(kind, 2_000_000));
      const part = markdownWindow(chunks, null);
      expect(part.hiddenChars, kind).toBe(length(chunks.slice(0, part.start)));
      const shown = length(chunks.slice(part.start));
      expect(shown, kind).toBeGreaterThanOrEqual(TAIL_CHARS);
      // A chunk may overshoot the step (they are cut at 32 KB, a line past that).
      expect(shown, kind).toBeLessThan(TAIL_CHARS + STEP_CHARS + 2 * 32_768 + 20);
    }
  });

  it('moves in whole steps while the answer grows, never backwards', () => {
    const text = longAnswerText('markdown', 400_000);
    let last = 0;
    const starts = new Set<number>();
    for (let end = LONG_ANSWER_CHARS + 1; end <= text.length; end += 3000) {
      const part = markdownWindow(chunksOf(text.slice(0, end)), null);
      expect(part.hiddenChars).toBeGreaterThanOrEqual(last);
      last = part.hiddenChars;
      starts.add(part.hiddenChars);
    }
    // About one boundary per step of growth, not one per delta.
    expect(starts.size).toBeLessThan((400_000 - LONG_ANSWER_CHARS) / STEP_CHARS + 3);
  });

  it('reveals one step more per click, down to the whole answer', () => {
    const chunks = chunksOf(longAnswerText('markdown', 300_000));
    let part = markdownWindow(chunks, null);
    let clicks = 0;
    while (part.hiddenChars > 0) {
      const next = markdownWindow(chunks, revealStep(part));
      expect(next.hiddenChars).toBeLessThan(part.hiddenChars);
      expect(part.hiddenChars - next.hiddenChars).toBeLessThan(STEP_CHARS + 1000);
      part = next;
      clicks += 1;
    }
    expect(part.start).toBe(0);
    expect(clicks).toBeGreaterThan(10);
  });

  it('renders the button and the end only, the same end as the whole rendering', () => {
    const text = longAnswerText('markdown', 1_000_000);
    const html = renderToStaticMarkup(<MarkdownText text={text} endOnly />);
    expect(html).toMatch(
      /^<button [^>]*data-testid="markdown-earlier"[^>]*>Show more of this answer \([\d.,]+ [KM]B above not shown\)<\/button><div class="markdown" data-partial="">/,
    );
    expect(html.length).toBeLessThan(200_000);
    // Opened, a long answer is first rendered empty, then in React's background pass.
    expect(renderToStaticMarkup(<Markdown text={text} endOnly />)).toBe(
      '<div class="markdown"></div>',
    );
    const whole = renderToStaticMarkup(<MarkdownText text={text} endOnly={false} />);
    const shown = html.slice(html.indexOf('<div class="markdown"'));
    const inner = shown.slice(shown.indexOf('>') + 1);
    expect(whole.endsWith(inner)).toBe(true);
  });
});
