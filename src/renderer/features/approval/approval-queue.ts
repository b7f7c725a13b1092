/**
 * The approval requests a window shows, oldest first: a request joins on `approval.request` and
 * leaves when it is answered here or settled elsewhere (another window, the turn canceled, the
 * wait timed out). Pure.
 */
import type { EventPayload } from '../../../shared/ipc-contract';

/** One request as the host sent it. */
export type ApprovalRequestView = EventPayload<'approval.request'>;

/** The queue after a request arrived (a repeated id is ignored). */
export function enqueue(
  queue: readonly ApprovalRequestView[],
  request: ApprovalRequestView,
): ApprovalRequestView[] {
  if (queue.some((item) => item.approvalId === request.approvalId)) return [...queue];
  return [...queue, request];
}

/** The queue without `approvalId`. */
export function settle(
  queue: readonly ApprovalRequestView[],
  approvalId: string,
): ApprovalRequestView[] {
  return queue.filter((item) => item.approvalId !== approvalId);
}

/** The exact arguments, as the card shows them. */
export function argumentsText(request: ApprovalRequestView): string {
  return escapeInvisible(JSON.stringify(request.arguments, null, 2));
}

/**
 * Characters that change how text reads without being seen: C1 controls, bidi embeddings,
 * overrides and isolates (U+202E would show `txt.exe` as `exe.txt`), zero-width characters, the
 * BOM, soft hyphens and the like. JSON.stringify escapes C0 controls itself; these become `\uXXXX`
 * too, which keeps the text valid JSON with the same meaning.
 */
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x80, 0x9f],
  [0xad, 0xad],
  [0x61c, 0x61c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
];

function isInvisible(code: number): boolean {
  return INVISIBLE_RANGES.some(([low, high]) => code >= low && code <= high);
}

function escapeInvisible(text: string): string {
  return text.replace(/[^ -~\t\n\r]/g, (character) => {
    const code = character.charCodeAt(0);
    return isInvisible(code) ? `\\u${code.toString(16).padStart(4, '0')}` : character;
  });
}

/** A string argument worth a second look: long, or padded with a long run of blanks. */
export interface ArgumentNote {
  /** Where it is, e.g. `path` or `files[2].name`. */
  path: string;
  length: number;
  /** The longest run of spaces, tabs or line breaks in it. */
  longestBlankRun: number;
}

/** Strings longer than this get their length shown under the arguments. */
const LONG_STRING = 200;
/** A run of blanks at least this long is called out: it can push text out of sight. */
export const LONG_BLANK_RUN = 16;
const MAX_NOTES = 20;

/** The string arguments whose length (or padding) the card states under the arguments. */
export function argumentNotes(request: ApprovalRequestView): ArgumentNote[] {
  const notes: ArgumentNote[] = [];
  const visit = (value: unknown, path: string, depth: number): void => {
    if (notes.length >= MAX_NOTES || depth > 20) return;
    if (typeof value === 'string') {
      const longestBlankRun = Math.max(0, ...(value.match(/\s+/g) ?? []).map((run) => run.length));
      if (value.length > LONG_STRING || longestBlankRun >= LONG_BLANK_RUN)
        notes.push({ path: path || '(value)', length: value.length, longestBlankRun });
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, `${path}[${index}]`, depth + 1));
      return;
    }
    if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value))
        visit(
          item,
          path === '' ? escapeInvisible(key) : `${path}.${escapeInvisible(key)}`,
          depth + 1,
        );
    }
  };
  visit(request.arguments, '', 0);
  return notes;
}
