/**
 * Parses a CSV/TSV file off the main thread (papaparse) and keeps its rows here: the table asks for
 * blocks of ROW_BLOCK rows as it scrolls, so the page never holds or copies the whole file (a
 * 100,000 × 50 table is five million strings; cloning them to the page would freeze it).
 */
import Papa from 'papaparse';
import type { CsvRequest, CsvResponse } from './csv-protocol';
import { CELL_SEPARATOR, MAX_CELL_CHARS, MAX_SHOWN_COLUMNS, ROW_BLOCK } from './csv-protocol';

/** The worker's global scope, typed by what is used (the renderer's lib is the DOM's). */
const scope = self as unknown as {
  postMessage(message: CsvResponse): void;
  onmessage: ((event: MessageEvent<CsvRequest>) => void) | null;
};

let rows: string[][] = [];

const post = (message: CsvResponse): void => scope.postMessage(message);

/** A row cut to the shown columns, each cell to one bounded line. */
function shownRow(row: readonly string[]): string[] {
  return row.slice(0, MAX_SHOWN_COLUMNS).map((cell) => {
    const line = cell.replaceAll(CELL_SEPARATOR, ' ').replace(/[\r\n]+/g, ' ');
    return line.length > MAX_CELL_CHARS ? `${line.slice(0, MAX_CELL_CHARS)}…` : line;
  });
}

scope.onmessage = (event) => {
  const request = event.data;
  if (request.type === 'rows') {
    const start = request.block * ROW_BLOCK;
    post({
      type: 'rows',
      block: request.block,
      rows: rows.slice(start, start + ROW_BLOCK).map((row) => shownRow(row).join(CELL_SEPARATOR)),
    });
    return;
  }
  try {
    const text = new TextDecoder().decode(request.bytes);
    const result = Papa.parse<string[]>(text, {
      skipEmptyLines: 'greedy',
      ...(request.tab ? { delimiter: '\t' } : {}),
    });
    const [header = [], ...body] = result.data;
    rows = body;
    let columnCount = header.length;
    for (const row of body) if (row.length > columnCount) columnCount = row.length;
    const first = result.errors[0];
    post({
      type: 'parsed',
      header: shownRow(header),
      rowCount: body.length,
      columnCount,
      error: first ? { row: (first.row ?? 0) + 1, message: first.message } : null,
    });
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
};
