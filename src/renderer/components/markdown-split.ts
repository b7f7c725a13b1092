/**
 * The incremental form of `splitMarkdownChunks` (rules in `markdown-chunks.ts`). A streaming
 * answer only grows, so the split of the previous text is resumed where its last complete line
 * ended instead of scanning the whole text again on every delta: the work per delta is the new
 * text (plus copying the last chunk), not the answer (a 2,000,000-character answer rescanned 20
 * times a second kept the page busy). Resuming from a checkpoint gives exactly the split of the
 * whole text (`test/unit/renderer/markdown-split.test.ts` checks it on random texts cut anywhere).
 *
 * Chunks are bounded for rendering: a chunk that has reached `PIECE_CHARS` is closed at the next
 * line (a giant paragraph, list or fence would otherwise be re-parsed and re-laid out whole on
 * every delta). Inside a fence or `$$` block the cut closes the block and the next chunk opens it
 * again with the same opening line, so each piece is a block of its own. A line longer than
 * `PIECE_CHARS` is cut too, after its last space before the bound (or at the bound). A chunk that
 * is a GFM table is never cut (its rows past 500 wait for a click: `parseMarkdownChunk`). Below
 * the bound (every normal answer) the chunks are those of the plain rule.
 */

/** One chunk of source and whether its last fence or math block is still unclosed. */
export interface MarkdownChunk {
  text: string;
  open: boolean;
}

/** The size at which a chunk is closed at its next line, and the longest piece of a long line. */
export const PIECE_CHARS = 32_768;

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const MATH_OPEN = /^ {0,3}\$\$/;
/** A list item's marker at the margin: `-`, `+`, `*` or 1–9 digits and `.` / `)`, then a space or the end. */
const LIST_ITEM = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
/** A GFM table's delimiter row: `|:--|--:|---|` and the like. */
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const LINE_BREAK = /[\r\n]/g;

/** The scanner's state between two lines. */
interface ScanState {
  /** Raw offset of the next segment, and whether it continues a line cut at `PIECE_CHARS`. */
  position: number;
  continuation: boolean;
  /** The open fence's marker (``` / ~~~ run) or `$$`; null outside. */
  block: string | null;
  /** The line that opened `block` (a cut block is opened again with it). */
  opener: string;
  afterBlank: boolean;
  /** Whether the last block that started at the margin is a list (its items may follow). */
  inList: boolean;
  /** The current chunk: raw start, text put before it, end of its last segment, segments. */
  chunkStart: number;
  prefix: string;
  lastEnd: number;
  segments: number;
  hasContent: boolean;
  firstHasPipe: boolean;
  table: boolean;
  closed: MarkdownChunk[];
}

/** A split: its source, the state at its last complete line, and its chunks. */
export interface MarkdownSplit {
  readonly source: string;
  readonly chunks: readonly MarkdownChunk[];
  readonly state: Readonly<ScanState>;
}

/** One line, or one piece of a long line, of the raw source. */
interface Segment {
  start: number;
  end: number;
  /** Where the next segment starts; null for the last line of the source. */
  next: number | null;
  /** The next segment continues this line (cut at `PIECE_CHARS`). */
  cut: boolean;
  /** Whether this segment and its end are final (later text cannot change them). */
  final: boolean;
}

/**
 * The split of `source`, resumed from `previous` when `source` extends its text (a streaming
 * answer), else computed from the start.
 */
export function advanceMarkdownSplit(
  previous: MarkdownSplit | null,
  source: string,
): MarkdownSplit {
  if (previous !== null && previous.source === source) return previous;
  const resumable = previous !== null && source.startsWith(previous.source);
  const state = resumable ? copyState(previous.state) : initialState();
  let work = state;
  for (;;) {
    const segment = nextSegment(source, work.position);
    if (work === state && !segment.final) work = copyState(state);
    feed(work, source, segment);
    if (segment.next === null) break;
    work.position = segment.next;
    work.continuation = segment.cut;
  }
  close(work, source, source.length, '');
  return { source, chunks: work.closed, state };
}

function initialState(): ScanState {
  return {
    position: 0,
    continuation: false,
    block: null,
    opener: '',
    afterBlank: false,
    inList: false,
    chunkStart: 0,
    prefix: '',
    lastEnd: 0,
    segments: 0,
    hasContent: false,
    firstHasPipe: false,
    table: false,
    closed: [],
  };
}

function copyState(state: Readonly<ScanState>): ScanState {
  return { ...state, closed: state.closed.slice() };
}

function nextSegment(source: string, start: number): Segment {
  LINE_BREAK.lastIndex = start;
  const found = LINE_BREAK.exec(source);
  const lineEnd = found === null ? source.length : found.index;
  if (lineEnd - start > PIECE_CHARS) {
    // Searched within the piece only: a text without spaces stays linear.
    const space = source.slice(start, start + PIECE_CHARS).lastIndexOf(' ');
    let cut = space > 0 ? start + space + 1 : start + PIECE_CHARS;
    // Never between the two halves of a surrogate pair.
    const before = source.charCodeAt(cut - 1);
    if (before >= 0xd800 && before <= 0xdbff) cut -= 1;
    return { start, end: cut, next: cut, cut: true, final: true };
  }
  if (found === null) return { start, end: lineEnd, next: null, cut: false, final: false };
  const crlf = source[lineEnd] === '\r' && source[lineEnd + 1] === '\n';
  // A `\r` at the very end may yet become `\r\n`: not final.
  const final = source[lineEnd] === '\n' || lineEnd + 1 < source.length;
  return { start, end: lineEnd, next: lineEnd + (crlf ? 2 : 1), cut: false, final };
}

function feed(work: ScanState, source: string, segment: Segment): void {
  const line = source.slice(segment.start, segment.end);
  if (work.segments > 0 && !work.table && segment.start - work.chunkStart >= PIECE_CHARS) {
    cutChunk(work, source, segment.start);
  }
  if (work.continuation) {
    if (line.trim() !== '') work.afterBlank = false;
    add(work, segment, line);
    return;
  }
  if (work.block !== null) {
    add(work, segment, line);
    if (closesBlock(line, work.block)) work.block = null;
    return;
  }
  if (line.trim() === '') {
    work.afterBlank = true;
    add(work, segment, line);
    return;
  }
  if (!/^[ \t]/.test(line)) {
    const listItem = LIST_ITEM.test(line);
    if (work.afterBlank && !(work.inList && listItem)) close(work, source, segment.start, '');
    // A margin line right after text (no blank) is a lazy continuation unless it starts a list.
    if (listItem) work.inList = true;
    else if (work.afterBlank) work.inList = false;
  }
  work.afterBlank = false;
  add(work, segment, line);
  work.block = opensBlock(line);
  if (work.block !== null) work.opener = line;
}

function add(work: ScanState, segment: Segment, line: string): void {
  work.segments += 1;
  work.lastEnd = segment.end;
  if (line.trim() !== '') work.hasContent = true;
  if (work.segments === 1) work.firstHasPipe = line.includes('|');
  else if (work.segments === 2) work.table = work.firstHasPipe && TABLE_DELIMITER.test(line);
}

/** Closes the current chunk (kept when it has content); the next one starts at `next`. */
function close(work: ScanState, source: string, next: number, suffix: string): void {
  if (work.hasContent) {
    const text = work.prefix + normalise(source.slice(work.chunkStart, work.lastEnd)) + suffix;
    work.closed.push({ text, open: suffix === '' && work.block !== null });
  }
  work.chunkStart = next;
  work.lastEnd = next;
  work.prefix = '';
  work.segments = 0;
  work.hasContent = false;
  work.firstHasPipe = false;
  work.table = false;
}

/** Closes a chunk grown past `PIECE_CHARS`; an open block is closed and opened again. */
function cutChunk(work: ScanState, source: string, next: number): void {
  const block = work.block;
  close(work, source, next, block === null ? '' : `\n${block}`);
  if (block !== null) {
    work.prefix = `${work.opener}\n`;
    work.hasContent = true;
  }
}

function normalise(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** The marker a line opens (a fence run or `$$`), or null. */
function opensBlock(line: string): string | null {
  const fence = FENCE_OPEN.exec(line);
  if (fence) return fence[1] ?? null;
  if (MATH_OPEN.test(line)) {
    const rest = line.trim().slice(2);
    // `$$x$$` on one line is a whole block.
    return rest.trimEnd().endsWith('$$') ? null : '$$';
  }
  return null;
}

/** Whether `line` closes the block opened by `marker`. */
function closesBlock(line: string, marker: string): boolean {
  const trimmed = line.trim();
  if (marker === '$$') return trimmed.endsWith('$$');
  const run = /^ {0,3}(`+|~+)\s*$/.exec(line)?.[1];
  return run !== undefined && run[0] === marker[0] && run.length >= marker.length;
}
