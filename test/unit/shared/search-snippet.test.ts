import { describe, expect, it } from 'vitest';
import { SNIPPET_MARK, snippetPieces, snippetText } from '../../../src/shared/search-snippet';

const { start: S, end: E } = SNIPPET_MARK;

describe('search snippets', () => {
  it('splits the matches from the text around them', () => {
    expect(snippetPieces(`…the ${S}histogram${E} of ${S}sales${E}…`)).toEqual([
      { text: '…the ', match: false },
      { text: 'histogram', match: true },
      { text: ' of ', match: false },
      { text: 'sales', match: true },
      { text: '…', match: false },
    ]);
  });

  it('keeps a « or » the user wrote as text, not as a match', () => {
    expect(snippetPieces(`follows «Little»'s ${S}law${E}`)).toEqual([
      { text: "follows «Little»'s ", match: false },
      { text: 'law', match: true },
    ]);
  });

  it('shows Markdown as the text a reader sees', () => {
    const source = `# Plan\n**bold** and \`code\` with $\\lambda W$ | a | b |\n|:--|--:|\n> ${S}quoted${E}`;
    expect(snippetText(source)).toBe('Plan bold and code with \\lambda W a b quoted');
    expect(snippetText(`see [the docs](https://example.test/x) and ![chart](a.png)`)).toBe(
      'see the docs and chart',
    );
  });

  it('survives unbalanced or stray marks', () => {
    expect(snippetPieces(`a ${S}open`)).toEqual([
      { text: 'a ', match: false },
      { text: 'open', match: true },
    ]);
    expect(snippetText(`x${E}y ${S}${S}z${E}`)).toBe('xy z');
    expect(snippetPieces('')).toEqual([]);
  });
});
