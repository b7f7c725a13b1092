/**
 * Which chunks of a very long answer are rendered. An answer of up to `LONG_ANSWER_CHARS` is
 * rendered whole. Past it, only its end is (between `TAIL_CHARS` and `TAIL_CHARS + STEP_CHARS`
 * of it), with a button above that reveals the `STEP_CHARS` before it, click by click: a
 * 2,000,000-character answer rendered whole froze the page for seconds when it opened (parse,
 * React elements and layout of ~50,000 nodes in one task) and made every streamed frame reconcile
 * thousands of chunks. The boundary moves in whole steps as the answer grows, so while it
 * streams the part above folds away once per step, not on every frame; it depends on the text
 * only, so a reopened answer shows the same part. Copying the answer copies all of it.
 */
import type { MarkdownChunk } from './markdown-split';

/** Answers longer than this show their end only, with the rest a click away. */
export const LONG_ANSWER_CHARS = 131_072;
/** The least of a long answer's end that is shown. */
export const TAIL_CHARS = 16_384;
/** What one click reveals, and the steps in which the boundary moves. */
export const STEP_CHARS = 16_384;

/** The first chunk shown and how many characters lie before it. */
export interface MarkdownWindow {
  start: number;
  hiddenChars: number;
}

/**
 * The window over `chunks`: `revealTo` is the character offset the user revealed down to
 * (null: nothing revealed). The offsets are those of the chunks' texts laid end to end.
 */
export function markdownWindow(
  chunks: readonly MarkdownChunk[],
  revealTo: number | null,
): MarkdownWindow {
  let total = 0;
  for (const chunk of chunks) total += chunk.text.length;
  if (total <= LONG_ANSWER_CHARS) return { start: 0, hiddenChars: 0 };
  const automatic = Math.floor((total - TAIL_CHARS) / STEP_CHARS) * STEP_CHARS;
  const boundary = Math.min(automatic, revealTo ?? automatic);
  // From the chunk holding the boundary, so at least TAIL_CHARS show.
  let offset = 0;
  for (let index = 0; index < chunks.length; index += 1) {
    const end = offset + (chunks[index] as MarkdownChunk).text.length;
    if (end > boundary) return { start: index, hiddenChars: offset };
    offset = end;
  }
  return { start: 0, hiddenChars: 0 };
}

/** The `revealTo` after one more click on "show the earlier part". */
export function revealStep(window: MarkdownWindow): number {
  return Math.max(0, window.hiddenChars - STEP_CHARS);
}
