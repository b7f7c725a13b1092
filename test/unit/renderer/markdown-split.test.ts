import { describe, expect, it } from 'vitest';
import type { MarkdownSplit } from '../../../src/renderer/components/markdown-split';
import { advanceMarkdownSplit, PIECE_CHARS } from '../../../src/renderer/components/markdown-split';
import { referenceSplit } from '../../support/markdown-split-reference';

/** Lines that exercise every rule: fences, math, lists, indents, tables, blanks, CR/LF. */
const LINES = [
  '',
  '',
  '   ',
  'plain text',
  'more **bold** text',
  '- item',
  '* star',
  '1. one',
  '2) two',
  '  indented',
  '    code',
  '```',
  '```js',
  '````',
  '~~~',
  '$$',
  '$$x$$',
  '$$ a',
  'b $$',
  '| a | b |',
  '|---|--:|',
  '> quote',
  '# heading',
  '---',
];
const BREAKS = ['\n', '\n', '\n', '\r\n', '\r'];

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

function randomText(next: () => number, lines: number): string {
  let text = '';
  for (let index = 0; index < lines; index += 1) text += pick(next, LINES) + pick(next, BREAKS);
  // Often end mid-line, as a stream does.
  return next() < 0.5 ? text.slice(0, Math.floor(next() * text.length)) : text;
}

/** The split reached by feeding `text` in random pieces, as deltas arrive. */
function streamed(next: () => number, text: string, pieces: number): MarkdownSplit {
  let split: MarkdownSplit | null = null;
  let length = 0;
  for (let index = 0; index < pieces && length < text.length; index += 1) {
    length = Math.min(text.length, length + 1 + Math.floor(next() * (text.length / pieces) * 2));
    split = advanceMarkdownSplit(split, text.slice(0, length));
  }
  return advanceMarkdownSplit(split, text);
}

describe('incremental, bounded Markdown split', () => {
  it('splits every text under the bound exactly as the whole-text split', () => {
    for (let seed = 1; seed <= 3000; seed += 1) {
      const text = randomText(random(seed), 1 + (seed % 40));
      expect(advanceMarkdownSplit(null, text).chunks, `seed ${seed}`).toEqual(referenceSplit(text));
    }
  });

  it('resumed delta by delta, gives the split of the whole text', () => {
    for (let seed = 1; seed <= 1500; seed += 1) {
      const next = random(seed);
      const text = randomText(next, 1 + (seed % 60));
      const whole = advanceMarkdownSplit(null, text).chunks;
      expect(streamed(next, text, 1 + (seed % 25)).chunks, `seed ${seed}`).toEqual(whole);
    }
  });

  it('starts over when the text is not a continuation (an edit, another answer)', () => {
    const first = advanceMarkdownSplit(null, 'a\n\nb\n\nc');
    expect(advanceMarkdownSplit(first, 'x\n\ny').chunks).toEqual(referenceSplit('x\n\ny'));
  });

  const giant: [string, string][] = [
    ['one paragraph of lines', 'word '.repeat(12).concat('\n').repeat(40_000)],
    ['one line without breaks', 'word '.repeat(400_000)],
    ['one line without spaces', 'x'.repeat(2_000_000)],
    ['one fenced code block', '```python\n' + 'print(1)\n'.repeat(200_000)],
    ['a tight list', '- item of the list\n'.repeat(100_000)],
  ];
  for (const [name, text] of giant) {
    it(`bounds the chunks of ${name} and keeps its text`, () => {
      const whole = advanceMarkdownSplit(null, text).chunks;
      expect(whole.length).toBeGreaterThan(text.length / (2 * PIECE_CHARS));
      for (const chunk of whole) expect(chunk.text.length).toBeLessThan(2 * PIECE_CHARS + 20);
      // Without the fences put around cut pieces, the chunks are the text itself.
      const kept = whole
        .map((chunk, index) =>
          name.includes('fenced')
            ? chunk.text.replace(index === 0 ? /\n```$/ : /^```python\n|\n```$/g, '')
            : chunk.text,
        )
        .join(
          name.includes('lines') || name.includes('fenced') || name.includes('list') ? '\n' : '',
        );
      // A text's final line break may go with an empty last piece.
      expect([text, text.replace(/\n$/, '')]).toContain(kept);
      const next = random(text.length);
      expect(streamed(next, text, 300).chunks).toEqual(whole);
    });
  }

  it('cuts a fence into closed fences, the last one open while it streams', () => {
    const chunks = advanceMarkdownSplit(null, '```js\n' + 'let a = 1;\n'.repeat(8000)).chunks;
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.slice(0, -1).every((chunk) => !chunk.open && chunk.text.endsWith('\n```'))).toBe(
      true,
    );
    expect(chunks.slice(1).every((chunk) => chunk.text.startsWith('```js\n'))).toBe(true);
    expect(chunks.at(-1)?.open).toBe(true);
  });

  it('never cuts a table (its long tail waits for a click instead)', () => {
    const table = '| a | b |\n|---|---|\n' + '| 1 | 2 |\n'.repeat(20_000);
    expect(advanceMarkdownSplit(null, table).chunks).toEqual(referenceSplit(table));
  });
});
