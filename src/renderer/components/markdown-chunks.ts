/**
 * Splits Markdown source into independent chunks, so a streaming answer only re-parses and
 * re-renders its last chunk per frame instead of the whole (possibly 80 KB) text; finished
 * chunks are memoised by `markdown.tsx`. A chunk ends at a blank line outside fenced code and
 * `$$` math when the next line starts at the margin (an indented line continues a list item,
 * a nested list or indented code, so it stays with its chunk) — except a list item at the margin
 * after a list: a loose list (items separated by blank lines) is one list, so it stays one chunk
 * (split, each item would be a list of its own, renumbered). One pass over the lines: linear.
 * Past `PIECE_CHARS` a chunk is cut at its next line (`markdown-split.ts`, which also resumes
 * the split of a growing text instead of starting over).
 *
 * A chunk is `open` when the text ends inside a fence or a `$$` block: that block is unfinished
 * (still streaming), so it is shown as text until it closes (no half diagram or formula).
 */
import type { MarkdownChunk } from './markdown-split';
import { advanceMarkdownSplit } from './markdown-split';

export type { MarkdownChunk, MarkdownSplit } from './markdown-split';
export { advanceMarkdownSplit, PIECE_CHARS } from './markdown-split';

/** The chunks of `source`, in order; empty chunks are dropped. */
export function splitMarkdownChunks(source: string): MarkdownChunk[] {
  return [...advanceMarkdownSplit(null, source).chunks];
}
