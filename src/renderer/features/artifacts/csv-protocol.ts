/** The messages between the CSV viewer and its worker (`csv-worker.ts`). */

/** Most columns the table shows (the rest are counted, not drawn). */
export const MAX_SHOWN_COLUMNS = 200;
/** Longest cell text sent to the table (a cell is one line; longer text is cut with "…"). */
export const MAX_CELL_CHARS = 300;
/** Rows asked for at once. */
export const ROW_BLOCK = 200;

/**
 * Cells of a row travel joined by this (the unit separator; a cell's own are made spaces): one
 * string per row costs the page far less to receive than 50.
 */
export const CELL_SEPARATOR = '\u001f';

export type CsvRequest =
  { type: 'parse'; bytes: ArrayBuffer; tab: boolean } | { type: 'rows'; block: number };

export type CsvResponse =
  | {
      type: 'parsed';
      header: string[];
      rowCount: number;
      columnCount: number;
      /** The first parse error (1-based data row) when the file is not clean CSV. */
      error: { row: number; message: string } | null;
    }
  | { type: 'rows'; block: number; rows: string[] }
  | { type: 'failed'; message: string };
