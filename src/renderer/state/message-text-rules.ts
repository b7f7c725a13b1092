/**
 * Pure rules of the composer's text against the host's limit (MAX_MESSAGE_CHARS, the contract's
 * own constant): where inserted text goes, whether it fits, what fits of it, and the name of a
 * text turned into a file. The text box never holds more than the limit: text that would not fit
 * is kept aside (`OversizedText`, its start only: the whole goes to a Blob) for the user to
 * attach as a file or cut.
 */
import { MAX_MESSAGE_CHARS } from '../../shared/ipc/limits';

/** A range of the composer's text (UTF-16 offsets, like the text box's selection). */
export interface TextRange {
  start: number;
  end: number;
}

/** Text that would not fit the message, with where it was to go. */
export interface OversizedText {
  /** The pasted or inserted text's start: as much as any message could hold of it. */
  head: string;
  /** Characters of the whole text. */
  length: number;
  /** The part of the composer's text it was to replace (the selection, or the end). */
  range: TextRange;
  /** Put before it (an inserted prompt's paragraph break); '' for a paste. */
  separator: string;
  /** Characters the message would have had with it. */
  total: number;
}

/** The composer's text after an insertion, and where the caret goes. */
export interface Insertion {
  text: string;
  caret: number;
}

/** Cuts `text` to at most `length` UTF-16 units without splitting a surrogate pair. */
export function cutText(text: string, length: number): string {
  if (text.length <= length) return text;
  if (length <= 0) return '';
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/** `range` within a text of `length` characters (the text may have changed since). */
function clampRange(range: TextRange, length: number): TextRange {
  const start = Math.min(Math.max(0, range.start), length);
  return { start, end: Math.min(Math.max(start, range.end), length) };
}

/** Characters the message would have with `inserted` (after `separator`) replacing `range`. */
export function lengthWith(
  current: string,
  range: TextRange,
  inserted: string,
  separator = '',
): number {
  const { start, end } = clampRange(range, current.length);
  return current.length - (end - start) + separator.length + inserted.length;
}

/** How many characters of inserted text still fit (never below 0). */
export function roomFor(
  current: string,
  range: TextRange,
  separator = '',
  max = MAX_MESSAGE_CHARS,
): number {
  return Math.max(0, max - lengthWith(current, range, '', separator));
}

/**
 * `inserted` put in place of `range` (after `separator`): the new text and caret, or an
 * `OversizedText` when the message would then be longer than `max`.
 */
export function insertText(
  current: string,
  range: TextRange,
  inserted: string,
  separator = '',
  max = MAX_MESSAGE_CHARS,
): Insertion | OversizedText {
  const total = lengthWith(current, range, inserted, separator);
  // Only the start is kept: megabytes of text stay with the caller (as a file), not in state.
  if (total > max) {
    return { head: cutText(inserted, max), length: inserted.length, range, separator, total };
  }
  const before = current.slice(0, range.start) + separator + inserted;
  return { text: before + current.slice(range.end), caret: before.length };
}

/** True for the result of `insertText` that did not fit. */
export function isOversized(result: Insertion | OversizedText): result is OversizedText {
  return 'total' in result;
}

/** The start of the oversized text that fits, inserted where it was to go. */
export function insertWhatFits(
  current: string,
  oversized: OversizedText,
  max = MAX_MESSAGE_CHARS,
): Insertion {
  const { separator } = oversized;
  const range = clampRange(oversized.range, current.length);
  const part = cutText(oversized.head, roomFor(current, range, separator, max));
  const before = current.slice(0, range.start) + (part === '' ? '' : separator) + part;
  return { text: before + current.slice(range.end), caret: before.length };
}

/**
 * Where `insertIntoComposer` puts a prompt: replacing blank text, else after the text's trailing
 * white space is dropped, on its own paragraph.
 */
export function appendRange(current: string): { range: TextRange; separator: string } {
  if (current.trim() === '') return { range: { start: 0, end: current.length }, separator: '' };
  const kept = current.replace(/\s+$/, '').length;
  return { range: { start: kept, end: current.length }, separator: '\n\n' };
}

/** `text` cut to the limit (a restored or programmatic value never exceeds it either). */
export function withinLimit(text: string, max = MAX_MESSAGE_CHARS): string {
  return cutText(text, max);
}

/**
 * Where to cut `text` into pieces of at most `size` UTF-16 units, never between the halves of a
 * surrogate pair: the ends of the pieces (the last is `text.length`).
 */
export function pieceEnds(text: string, size: number): number[] {
  const ends: number[] = [];
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && end - start > 1 && last >= 0xd800 && last <= 0xdbff) end -= 1;
    ends.push(end);
    start = end;
  }
  return ends;
}

/** The base name of pasted text turned into a file. */
export const PASTED_TEXT_NAME = 'pasted-text';

/** `pasted-text.txt`, or `pasted-text-2.txt`, … when that name is already attached. */
export function pastedFileName(taken: readonly string[]): string {
  const names = new Set(taken);
  for (let number = 1; ; number += 1) {
    const name = `${PASTED_TEXT_NAME}${number === 1 ? '' : `-${number}`}.txt`;
    if (!names.has(name)) return name;
  }
}
