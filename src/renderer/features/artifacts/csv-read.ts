/**
 * Reads CSV/TSV text into the rows the table keeps (papaparse, row by row; pure, so unit-tested
 * under Node as in `csv-worker.ts`). Each row is kept as the one joined string the table receives,
 * never as an array of cells, and the work is bounded: past CSV_LIMITS' cells or characters the
 * read stops and the file is too large to show (a 100 MB file of one-character cells is 50 million
 * cells, gigabytes as string arrays in a worker that shares the page's process).
 */
import Papa from 'papaparse';
import { WorkBudget } from './reader-limits';
import { joinRow, shownRow } from './table-rows';

export interface CsvLimits {
  /** Cells read (the header's too). */
  maxCells: number;
  /** Characters of the rows kept (each cell already cut to one line of MAX_CELL_CHARS). */
  maxTextChars: number;
}

export const CSV_LIMITS: CsvLimits = {
  // Five times the 100,000 × 50 table the bench scrolls.
  maxCells: 25_000_000,
  // As XLSX_LIMITS.maxTextChars: 96–192 MB of strings at most in the worker.
  maxTextChars: 96 * 1024 * 1024,
};

export interface CsvTable {
  header: string[];
  /** Each body row's shown cells joined by CELL_SEPARATOR. */
  rows: string[];
  columnCount: number;
  /** The first parse error (1-based line of the file's rows, header counted). */
  error: { row: number; message: string } | null;
}

/** The table in `text` (tab-separated when `tab`); ReaderLimitError past a bound. */
export function readCsv(text: string, tab: boolean, limits: CsvLimits = CSV_LIMITS): CsvTable {
  const cells = new WorkBudget('cells', limits.maxCells);
  const chars = new WorkBudget('text', limits.maxTextChars);
  let header: string[] | null = null;
  const rows: string[] = [];
  let columnCount = 0;
  let error: CsvTable['error'] = null;
  let stopped: unknown = null;
  let index = 0;
  Papa.parse<string[]>(text, {
    skipEmptyLines: 'greedy',
    ...(tab ? { delimiter: '\t' } : {}),
    step: (result, parser) => {
      try {
        const row = result.data;
        cells.spend(row.length);
        if (row.length > columnCount) columnCount = row.length;
        if (header === null) header = shownRow(row);
        else {
          const joined = joinRow(row);
          chars.spend(joined.length + 1);
          rows.push(joined);
        }
        const first = result.errors[0];
        if (error === null && first !== undefined)
          error = { row: index + 1, message: first.message };
        index++;
      } catch (limit) {
        stopped = limit;
        parser.abort();
      }
    },
  });
  if (stopped !== null) throw stopped;
  return { header: header ?? [], rows, columnCount, error };
}
