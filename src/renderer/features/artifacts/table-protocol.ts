/**
 * The messages between the table viewer (`csv-viewer.tsx`) and its workers: `csv-worker.ts` (CSV
 * and TSV, papaparse) and `xlsx-worker.ts` (XLSX sheets, `xlsx-read.ts`). Both keep a sheet's rows
 * and answer blocks of them (`table-rows.ts`), so the page never holds the whole table.
 */

import type { ReaderLimit } from './reader-limits';

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

export type TableRequest =
  /**
   * The file's body, transferred: the worker reads it (at most `limit` bytes), so the page never
   * holds or copies the file (reading 15 MB on the page cost it tasks of up to half a second).
   */
  | {
      type: 'parse';
      body: ReadableStream<Uint8Array>;
      limit: number;
      format: 'csv' | 'tsv' | 'xlsx';
    }
  /** Another sheet of the workbook (XLSX only): answered by a new `parsed`. */
  | { type: 'sheet'; sheet: number }
  | { type: 'rows'; sheet: number; block: number };

export type TableResponse =
  | {
      type: 'parsed';
      /** The workbook's sheet names (one, empty, for CSV) and the one parsed. */
      sheets: string[];
      sheet: number;
      header: string[];
      rowCount: number;
      columnCount: number;
      /** The first parse error (1-based data row) when the file is not clean CSV. */
      error: { row: number; message: string } | null;
      /** Rows past the reader's cap: counted, not kept (0 when all are shown). */
      rowsCut: number;
    }
  | { type: 'rows'; sheet: number; block: number; rows: string[] }
  /**
   * The body went past the request's `limit` (no `limit` here), or reading it went past one of
   * the reader's work bounds (`reader-limits.ts`).
   */
  | { type: 'too-large'; limit?: ReaderLimit }
  | { type: 'failed'; message: string };
