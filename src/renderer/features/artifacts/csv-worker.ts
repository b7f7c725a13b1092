/**
 * Parses a CSV/TSV file off the main thread (papaparse) and keeps its rows here: the table asks for
 * blocks of ROW_BLOCK rows as it scrolls, so the page never holds or copies the whole file (a
 * 100,000 × 50 table is five million strings; cloning them to the page would freeze it).
 */
import Papa from 'papaparse';
import { errorMessage, joinRow, rowsAnswer, shownRow } from './table-rows';
import { BodyTooLargeError, readRequestBody, tableWorkerScope } from './table-worker-scope';

const scope = tableWorkerScope();
let rows: string[][] = [];

scope.onmessage = (event) => {
  const request = event.data;
  if (request.type === 'rows') {
    const row = (index: number): string | undefined => {
      const cells = rows[index];
      return cells === undefined ? undefined : joinRow(cells);
    };
    scope.postMessage(rowsAnswer(0, request.block, row, rows.length));
    return;
  }
  if (request.type !== 'parse') return;
  readRequestBody(request).then(
    (bytes) => parse(bytes, request.format === 'tsv'),
    (error: unknown) =>
      scope.postMessage(
        error instanceof BodyTooLargeError
          ? { type: 'too-large' }
          : { type: 'failed', message: errorMessage(error) },
      ),
  );
};

function parse(bytes: Uint8Array, tab: boolean): void {
  try {
    const text = new TextDecoder().decode(bytes);
    const result = Papa.parse<string[]>(text, {
      skipEmptyLines: 'greedy',
      ...(tab ? { delimiter: '\t' } : {}),
    });
    const [header = [], ...body] = result.data;
    rows = body;
    let columnCount = header.length;
    for (const row of body) if (row.length > columnCount) columnCount = row.length;
    const first = result.errors[0];
    scope.postMessage({
      type: 'parsed',
      sheets: [''],
      sheet: 0,
      header: shownRow(header),
      rowCount: body.length,
      columnCount,
      error: first ? { row: (first.row ?? 0) + 1, message: first.message } : null,
      rowsCut: 0,
    });
  } catch (error) {
    scope.postMessage({ type: 'failed', message: errorMessage(error) });
  }
}
