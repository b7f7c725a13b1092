/**
 * The whole-text Markdown chunk split as it was before the split became incremental and bounded
 * (`src/renderer/components/markdown-split.ts`): the reference its tests compare with on texts
 * under the piece bound.
 */

/** One chunk of source and whether its last fence or math block is still unclosed. */
export interface ReferenceChunk {
  text: string;
  open: boolean;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const MATH_OPEN = /^ {0,3}\$\$/;
/** A list item's marker at the margin: `-`, `+`, `*` or 1–9 digits and `.` / `)`, then a space or the end. */
const LIST_ITEM = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;

/** The chunks of `source`, in order; empty chunks are dropped. */
export function referenceSplit(source: string): ReferenceChunk[] {
  const chunks: ReferenceChunk[] = [];
  let current: string[] = [];
  /** The open fence's marker (``` / ~~~ run) or `$$`; null outside. */
  let block: string | null = null;
  let afterBlank = false;
  /** Whether the last block that started at the margin is a list (its items may follow). */
  let inList = false;
  const close = (): void => {
    if (current.some((line) => line.trim() !== '')) {
      chunks.push({ text: current.join('\n'), open: block !== null });
    }
    current = [];
  };
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    if (block !== null) {
      current.push(line);
      if (closesBlock(line, block)) block = null;
      continue;
    }
    if (line.trim() === '') {
      afterBlank = true;
      current.push(line);
      continue;
    }
    if (!/^[ \t]/.test(line)) {
      const listItem = LIST_ITEM.test(line);
      if (afterBlank && !(inList && listItem)) close();
      // A margin line right after text (no blank) is a lazy continuation unless it starts a list.
      if (listItem) inList = true;
      else if (afterBlank) inList = false;
    }
    afterBlank = false;
    current.push(line);
    block = opensBlock(line);
  }
  close();
  return chunks;
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
