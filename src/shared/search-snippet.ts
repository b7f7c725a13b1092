/**
 * A full-text search snippet, between the store (FTS5's `snippet()`) and the places that show it.
 * Matches are wrapped in private-use characters, which message text never needs, so a « or » the
 * user wrote is not taken for a match. The snippet is a cut of Markdown source: `snippetPieces`
 * gives the text to show, with Markdown's markers (emphasis, code ticks, headings, quotes, table
 * pipes, math dollars) and the marks themselves taken out, split into plain and matched pieces.
 */

/** The marks around matched words, and where the snippet cut the text. */
export const SNIPPET_MARK = { start: '\uE000', end: '\uE001', ellipsis: '…' } as const;

export interface SnippetPiece {
  text: string;
  match: boolean;
}

/** Markdown's markers in a fragment, as the text a reader sees. */
function plainText(fragment: string): string {
  return (
    fragment
      // Images and links: their text.
      .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
      // Headings, quotes and list bullets at a line's start.
      .replace(/(^|\n)\s*(?:#{1,6}\s+|>\s*|[-*+]\s+(?:\[[ xX]\]\s+)?)/g, '$1')
      // Emphasis, strike-through, code ticks, math dollars, table pipes and rules.
      .replace(/\*{1,3}|_{2,3}|~~|`+|\$+/g, '')
      .replace(/\s*\|\s*(?::?-{2,}:?\s*\|?\s*)*/g, ' ')
      .replace(/\s+/g, ' ')
  );
}

/** The snippet as pieces to show, the matches marked; empty pieces dropped. */
export function snippetPieces(snippet: string): SnippetPiece[] {
  const pieces: SnippetPiece[] = [];
  let rest = snippet;
  let first = true;
  while (rest.length > 0) {
    const start = rest.indexOf(SNIPPET_MARK.start);
    const before = start === -1 ? rest : rest.slice(0, start);
    push(pieces, plainText(before), false, first);
    first = false;
    if (start === -1) break;
    const afterStart = rest.slice(start + SNIPPET_MARK.start.length);
    const end = afterStart.indexOf(SNIPPET_MARK.end);
    const matched = end === -1 ? afterStart : afterStart.slice(0, end);
    push(pieces, plainText(matched.replaceAll(SNIPPET_MARK.start, '')), true, false);
    rest = end === -1 ? '' : afterStart.slice(end + SNIPPET_MARK.end.length);
  }
  const last = pieces.at(-1);
  if (last && !last.match) last.text = last.text.trimEnd();
  return pieces.filter((piece) => piece.text !== '');
}

function push(pieces: SnippetPiece[], text: string, match: boolean, first: boolean): void {
  const clean = (first ? text.trimStart() : text).replaceAll(SNIPPET_MARK.end, '');
  const previous = pieces.at(-1);
  if (previous && previous.match === match) previous.text += clean;
  else pieces.push({ text: clean, match });
}

/** The snippet as one line of plain text (for a CLI or a screen reader). */
export function snippetText(snippet: string): string {
  return snippetPieces(snippet)
    .map((piece) => piece.text)
    .join('');
}
