import { describe, expect, it } from 'vitest';
import {
  boundedLine,
  flatLine,
  hasInvisibleCharacters,
  keepingLines,
  oneLine,
  quotedValue,
  revealInvisibleCharacters,
  stripInvisibleCharacters,
} from '../../../src/shared/untrusted-text';

/** One of each kind of hidden character the sanitiser must know. */
const HIDDEN_SAMPLES = [
  '\u0000', // NUL
  '\u001b', // ESC (terminal escapes)
  '\u007f', // DEL
  '\u0085', // C1 next line
  '\u00ad', // soft hyphen
  '\u061c', // Arabic letter mark
  '\u200b', // zero-width space
  '\u200c', // zero-width non-joiner (mcp-roots' old list lacked U+200B–200D)
  '\u200d', // zero-width joiner
  '\u200e', // left-to-right mark
  '\u202e', // right-to-left override
  '\u2028', // line separator
  '\u2066', // left-to-right isolate
  '\u2069', // pop directional isolate
  '\ufeff', // BOM
  '\u3164', // Hangul filler
];

describe('untrusted text: one list of hidden characters, named policies', () => {
  it('knows every kind of hidden character, in every policy', () => {
    for (const hidden of HIDDEN_SAMPLES) {
      const text = `a${hidden}b`;
      const code = hidden.codePointAt(0)?.toString(16);
      expect(hasInvisibleCharacters(text), code).toBe(true);
      expect(hasInvisibleCharacters(stripInvisibleCharacters(text)), code).toBe(false);
      expect(hasInvisibleCharacters(oneLine(text)), code).toBe(false);
      expect(hasInvisibleCharacters(keepingLines(text)), code).toBe(false);
      expect(revealInvisibleCharacters(text), code).toMatch(/^a\\u\{[0-9a-f]{4}\}b$/);
    }
    expect(hasInvisibleCharacters('plain text, ünïcödé, 中文 and 👍')).toBe(false);
  });

  it('names: hidden characters removed, nothing else', () => {
    expect(stripInvisibleCharacters('invoice\u202efdp.exe')).toBe('invoicefdp.exe');
    expect(stripInvisibleCharacters('a b\nc')).toBe('a bc');
  });

  it('one line: each run of hidden characters and whitespace one space, bounded', () => {
    expect(oneLine('a\nb\tc\u0000d')).toBe('a b c d');
    expect(oneLine('a\u200e\u200fb  c')).toBe('a b c');
    expect(oneLine('  x\u2028y\r\n ')).toBe('x y');
    expect(oneLine('x'.repeat(300), 10)).toBe(`${'x'.repeat(9)}…`);
    // Cut by code points: an emoji is never split into a lone surrogate.
    expect(oneLine('😀'.repeat(5), 3)).toBe('😀😀…');
    expect(flatLine(`${'y'.repeat(500)}\n`)).toBe('y'.repeat(500));
    expect(boundedLine('Gets the weather for a city', 10)).toBe('Gets the w… (+17 characters)');
    expect(boundedLine('short', 10)).toBe('short');
  });

  it('keeping lines: CRLF → LF, newlines (and tabs when asked) kept, the rest a space', () => {
    expect(keepingLines('one\r\ntwo\rthree\u0007four\u200bfive')).toBe('one\ntwo\nthree four five');
    expect(keepingLines('a\tb')).toBe('a b');
    expect(keepingLines('a\tb', { tabs: true })).toBe('a\tb');
    expect(keepingLines('a\u2029b')).toBe('a b');
  });

  it('quoted values are visible and bounded', () => {
    expect(quotedValue('java\u0000script:')).toBe('"javascript:"');
    expect(quotedValue('z'.repeat(100))).toBe(`"${'z'.repeat(80)}…" (100 characters)`);
  });
});
