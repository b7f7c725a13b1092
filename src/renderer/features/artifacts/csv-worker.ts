/**
 * Parses a CSV/TSV file off the main thread (`csv-read.ts`, papaparse) and keeps its rows here: the
 * table asks for blocks of ROW_BLOCK rows as it scrolls, so the page never holds or copies the
 * whole file (a 100,000 × 50 table is five million cells; cloning them to the page would freeze
 * it). Past the reader's bounds it answers `too-large`.
 */
import { readCsv } from './csv-read';
import { failureAnswer, rowsAnswer } from './table-rows';
import { BodyTooLargeError, readRequestBody, tableWorkerScope } from './table-worker-scope';

const scope = tableWorkerScope();
let rows: string[] = [];

scope.onmessage = (event) => {
  const request = event.data;
  if (request.type === 'rows') {
    scope.postMessage(rowsAnswer(0, request.block, (index) => rows[index], rows.length));
    return;
  }
  if (request.type !== 'parse') return;
  readRequestBody(request).then(
    (bytes) => parse(bytes, request.format === 'tsv'),
    (error: unknown) =>
      scope.postMessage(
        error instanceof BodyTooLargeError ? { type: 'too-large' } : failureAnswer(error),
      ),
  );
};

function parse(bytes: Uint8Array, tab: boolean): void {
  try {
    const table = readCsv(new TextDecoder().decode(bytes), tab);
    rows = table.rows;
    scope.postMessage({
      type: 'parsed',
      sheets: [''],
      sheet: 0,
      header: table.header,
      rowCount: table.rows.length,
      columnCount: table.columnCount,
      error: table.error,
      rowsCut: 0,
    });
  } catch (error) {
    rows = [];
    scope.postMessage(failureAnswer(error));
  }
}
