/**
 * Reads an XLSX workbook off the main thread (`xlsx-read.ts`) and keeps the open sheet's rows here,
 * answering the table's requests for blocks of them as `csv-worker.ts` does (the same protocol,
 * `table-protocol.ts`). Another sheet is read when its tab is chosen.
 */
import { errorMessage, failureAnswer, rowsAnswer } from './table-rows';
import { BodyTooLargeError, readRequestBody, tableWorkerScope } from './table-worker-scope';
import type { XlsxSheet } from './xlsx-read';
import { XlsxWorkbook } from './xlsx-read';

const scope = tableWorkerScope();
let workbook: XlsxWorkbook | null = null;
let open: { index: number; sheet: XlsxSheet } | null = null;

function openSheet(index: number): void {
  if (workbook === null) return;
  open = null;
  const sheet = workbook.readSheet(index);
  open = { index, sheet };
  scope.postMessage({
    type: 'parsed',
    sheets: workbook.sheets.map((entry) => entry.name),
    sheet: index,
    header: sheet.header,
    rowCount: sheet.rows.length,
    columnCount: sheet.columnCount,
    error: null,
    rowsCut: sheet.rowsCut,
  });
}

scope.onmessage = (event) => {
  const request = event.data;
  if (request.type === 'parse') {
    readRequestBody(request).then(
      (bytes) => {
        try {
          workbook = new XlsxWorkbook(bytes);
          openSheet(0);
        } catch (error) {
          workbook = null;
          scope.postMessage(failureAnswer(error));
        }
      },
      (error: unknown) =>
        scope.postMessage(
          error instanceof BodyTooLargeError
            ? { type: 'too-large' }
            : { type: 'failed', message: errorMessage(error) },
        ),
    );
    return;
  }
  try {
    if (request.type === 'rows') {
      if (open === null || open.index !== request.sheet) return;
      const rows = open.sheet.rows;
      scope.postMessage(rowsAnswer(request.sheet, request.block, (i) => rows[i], rows.length));
    } else {
      openSheet(request.sheet);
    }
  } catch (error) {
    scope.postMessage(failureAnswer(error));
  }
};
