/**
 * What both table workers share: a row cut to what the table shows, and the answer to the page's
 * requests for blocks of rows (pure: unit-tested through the readers; the workers' scope is in
 * `table-worker-scope.ts`).
 */
import { readerLimitOf } from './reader-limits';
import type { TableResponse } from './table-protocol';
import { CELL_SEPARATOR, MAX_CELL_CHARS, MAX_SHOWN_COLUMNS, ROW_BLOCK } from './table-protocol';

/** One cell as one bounded line. */
export function shownCell(cell: string): string {
  const plain = !cell.includes(CELL_SEPARATOR) && !cell.includes('\n') && !cell.includes('\r');
  if (plain && cell.length <= MAX_CELL_CHARS) return cell;
  const line = cell.replaceAll(CELL_SEPARATOR, ' ').replace(/[\r\n]+/g, ' ');
  return line.length > MAX_CELL_CHARS ? `${line.slice(0, MAX_CELL_CHARS)}…` : line;
}

/** A row cut to the shown columns, each cell to one bounded line. */
export function shownRow(row: readonly string[]): string[] {
  return row.slice(0, MAX_SHOWN_COLUMNS).map(shownCell);
}

/** The answer to a `rows` request over a sheet's rows (each row already one joined string). */
export function rowsAnswer(
  sheet: number,
  block: number,
  row: (index: number) => string | undefined,
  rowCount: number,
): TableResponse {
  const start = block * ROW_BLOCK;
  const rows: string[] = [];
  for (let index = start; index < Math.min(rowCount, start + ROW_BLOCK); index++) {
    rows.push(row(index) ?? '');
  }
  return { type: 'rows', sheet, block, rows };
}

/** A row of cells as the one string that travels. */
export function joinRow(row: readonly string[]): string {
  return shownRow(row).join(CELL_SEPARATOR);
}

/** What a worker answers for an error: too large past a work bound, else failed. */
export function failureAnswer(error: unknown): TableResponse {
  const limit = readerLimitOf(error);
  return limit !== null
    ? { type: 'too-large', limit }
    : { type: 'failed', message: errorMessage(error) };
}

/** An error's message. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
