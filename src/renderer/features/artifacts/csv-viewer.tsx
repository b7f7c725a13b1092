/**
 * A CSV, TSV or XLSX file as a table: its body handed (transferred, unread) to a Web Worker that
 * reads it bounded and parses it (papaparse in `csv-worker.ts`; an XLSX workbook in
 * `xlsx-worker.ts`, with a tab per sheet), drawn virtualised (`grid-window.ts`; offsets set
 * through the CSSOM, which the CSP allows): only the rows and columns on screen exist, the rows
 * fetched from the worker in blocks as the table scrolls (one string per row, split here only when
 * drawn), so 100,000 rows × 50 columns scroll without freezing the page. Rows and columns have
 * fixed sizes. The first row is the header (sticky); columns past MAX_SHOWN_COLUMNS are counted,
 * not drawn.
 */
import type { ReactNode } from 'react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { fileExtension } from '../../../shared/openable-files';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { ViewedFile } from './artifact-state';
import { VIEWER_LIMITS } from './artifact-kind';
import type { TableRequest, TableResponse } from './table-protocol';
import { CELL_SEPARATOR, MAX_SHOWN_COLUMNS, ROW_BLOCK } from './table-protocol';
import { useGridWindow } from './grid-window';
import type { ReadPending, ViewerReadContext } from './read-file';
import { openDataFile, useViewerRead } from './read-file';
import { ReadProblem, ViewerNote } from './viewer-notes';

/** A row's height, a column's and the row numbers' width in px (as in artifacts.css). */
const ROW_PX = 28;
const COLUMN_PX = 150;
const NUMBER_PX = 64;
/** Blocks of rows the page keeps (the worker holds them all). */
const MAX_KEPT_BLOCKS = 24;

type Table = Omit<Extract<TableResponse, { type: 'parsed' }>, 'type'>;

/** The table formats: which worker reads the file. */
export type TableFormat = 'csv' | 'tsv' | 'xlsx';

/** The format of a table file by its name (`.xlsx`/`.xlsm` are workbooks, `.tsv` tab-separated). */
export function tableFormat(name: string): TableFormat {
  const extension = fileExtension(name);
  if (extension === '.xlsx' || extension === '.xlsm') return 'xlsx';
  return extension === '.tsv' ? 'tsv' : 'csv';
}

type TableRead = ReadPending | { state: 'ready'; table: Table; worker: Worker };

/** One table file. */
export function CsvViewer(props: { file: ViewedFile }): ReactNode {
  const format = tableFormat(props.file.name);
  const kind = format === 'xlsx' ? 'xlsx' : 'csv';
  const read = useParsedTable(props.file, format);
  if (read.state !== 'ready') return <ReadProblem read={read} file={props.file} kind={kind} />;
  return (
    <CsvTable
      key={`${props.file.path}:${read.table.sheet}`}
      file={props.file}
      table={read.table}
      worker={read.worker}
    />
  );
}

/** Reads the file and has a new worker parse it; the worker ends with the viewer. */
function useParsedTable(file: ViewedFile, format: TableFormat): TableRead {
  const bridge = useApp((state) => state.bridge);
  const start = ({ bridge: ready, signal, done, fail }: ViewerReadContext<TableRead>) => {
    const worker =
      format === 'xlsx'
        ? new Worker(new URL('./xlsx-worker.ts', import.meta.url), { type: 'module' })
        : new Worker(new URL('./csv-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<TableResponse>) => {
      const message = event.data;
      if (message.type === 'parsed') {
        const { sheets, sheet, header, rowCount, columnCount, error, rowsCut } = message;
        const table = { sheets, sheet, header, rowCount, columnCount, error, rowsCut };
        done({ state: 'ready', table, worker });
      } else if (message.type === 'failed' || message.type === 'too-large') {
        // The worker's memory goes back at once, not when the viewer closes.
        worker.terminate();
        done(
          message.type === 'failed'
            ? { state: 'failed', reason: message.message }
            : {
                state: 'too-large',
                ...(message.limit === undefined ? {} : { limit: message.limit }),
              },
        );
      }
    };
    worker.onerror = () => done({ state: 'failed', reason: 'the table reader stopped' });
    const limit = VIEWER_LIMITS[format === 'xlsx' ? 'xlsx' : 'csv'];
    openDataFile(ready, file.path, limit, signal).then((body) => {
      const request: TableRequest = { type: 'parse', body, limit, format };
      worker.postMessage(request, [body]);
    }, fail);
    return () => worker.terminate();
  };
  return useViewerRead<TableRead>(bridge, file.path, start, format);
}

/** The virtualised table over the worker's rows. */
function CsvTable(props: { file: ViewedFile; table: Table; worker: Worker }): ReactNode {
  const t = useT();
  const { table, worker } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const [blocks, setBlocks] = useState<ReadonlyMap<number, string[]>>(new Map());
  const asked = useRef(new Set<number>());
  const shownColumns = Math.min(table.columnCount, MAX_SHOWN_COLUMNS);

  useEffect(() => {
    const onMessage = (event: MessageEvent<TableResponse>): void => {
      const message = event.data;
      if (message.type !== 'rows' || message.sheet !== table.sheet) return;
      setBlocks((current) => {
        const next = new Map(current).set(message.block, message.rows);
        // Keep the page's copy small: the oldest blocks go (asked for again if scrolled back).
        for (const block of next.keys()) {
          if (next.size <= MAX_KEPT_BLOCKS) break;
          next.delete(block);
          asked.current.delete(block);
        }
        return next;
      });
    };
    worker.addEventListener('message', onMessage);
    return () => worker.removeEventListener('message', onMessage);
  }, [worker, table.sheet]);

  const view = useGridWindow(scroller, {
    rows: table.rowCount,
    columns: shownColumns,
    rowPx: ROW_PX,
    columnPx: COLUMN_PX,
    top: ROW_PX,
    left: NUMBER_PX,
    overscanRows: 8,
    overscanColumns: 2,
  });
  const range = (first: number, last: number): number[] =>
    Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
  const items = range(view.firstRow, view.lastRow);
  const columns = range(view.firstColumn, view.lastColumn);
  const first = view.firstRow;
  const last = Math.max(view.firstRow, view.lastRow);
  const top = view.firstRow * ROW_PX;
  const left = view.firstColumn * COLUMN_PX;

  // Sizes and offsets are custom properties set through the CSSOM (no inline style attribute):
  // the grid's full size, where the rows on screen start and the columns on screen begin.
  useLayoutEffect(() => {
    const element = grid.current;
    if (element === null) return;
    element.style.setProperty('--csv-width', `${NUMBER_PX + shownColumns * COLUMN_PX}px`);
    element.style.setProperty('--csv-height', `${table.rowCount * ROW_PX}px`);
    element.style.setProperty('--csv-top', `${top}px`);
    element.style.setProperty('--csv-left', `${left}px`);
  }, [shownColumns, table.rowCount, top, left]);

  // Ask the worker for the blocks on screen that are not here yet.
  useEffect(() => {
    if (table.rowCount === 0) return;
    for (
      let block = Math.floor(first / ROW_BLOCK);
      block <= Math.floor(last / ROW_BLOCK);
      block++
    ) {
      if (asked.current.has(block)) continue;
      asked.current.add(block);
      const request: TableRequest = { type: 'rows', sheet: table.sheet, block };
      worker.postMessage(request);
    }
  }, [first, last, table.rowCount, table.sheet, worker]);

  return (
    <div className="csv-view">
      {table.sheets.length > 1 && (
        <SheetTabs sheets={table.sheets} sheet={table.sheet} worker={worker} />
      )}
      <ViewerNote>
        {t('artifact.rows', {
          rows: table.rowCount.toLocaleString(),
          columns: table.columnCount.toLocaleString(),
        })}
        {table.columnCount > MAX_SHOWN_COLUMNS &&
          ` ${t('artifact.rowsCut', { shown: MAX_SHOWN_COLUMNS, columns: table.columnCount })}`}
        {table.rowsCut > 0 &&
          ` ${t('artifact.rowsNotShown', { rows: table.rowsCut.toLocaleString() })}`}
        {table.error !== null &&
          ` ${t('artifact.csvError', { row: table.error.row, message: table.error.message })}`}
      </ViewerNote>
      <div
        ref={scroller}
        className="csv-scroller"
        data-testid="csv-scroller"
        tabIndex={0}
        role="table"
        aria-label={t('artifact.table', { name: props.file.name })}
        aria-rowcount={table.rowCount + 1}
        aria-colcount={shownColumns}
      >
        <div ref={grid} className="csv-grid">
          <div className="csv-row csv-header" role="row" aria-rowindex={1}>
            <span className="csv-cell csv-number" aria-hidden="true" />
            <span className="csv-spacer" aria-hidden="true" />
            {columns.map((column) => (
              <span
                key={column}
                className="csv-cell"
                role="columnheader"
                aria-colindex={column + 1}
              >
                {table.header[column] ?? ''}
              </span>
            ))}
          </div>
          <div className="csv-rows" data-testid="csv-rows">
            <div className="csv-window">
              {items.map((index) => {
                const line = blocks.get(Math.floor(index / ROW_BLOCK))?.[index % ROW_BLOCK];
                const row = line === undefined ? [] : line.split(CELL_SEPARATOR);
                return (
                  <div
                    key={index}
                    className="csv-row"
                    role="row"
                    aria-rowindex={index + 2}
                    data-testid="csv-row"
                  >
                    <span className="csv-cell csv-number" aria-hidden="true">
                      {index + 1}
                    </span>
                    <span className="csv-spacer" aria-hidden="true" />
                    {columns.map((column) => (
                      <span
                        key={column}
                        className="csv-cell"
                        role="cell"
                        aria-colindex={column + 1}
                      >
                        {row[column] ?? ''}
                      </span>
                    ))}
                  </div>
                );
              })}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}

/** A workbook's sheets; choosing one has the worker read it (the table follows its answer). */
function SheetTabs(props: { sheets: string[]; sheet: number; worker: Worker }): ReactNode {
  const t = useT();
  return (
    <div
      className="sheet-tabs"
      role="tablist"
      aria-label={t('artifact.sheets')}
      data-testid="sheet-tabs"
    >
      {props.sheets.map((name, index) => (
        <button
          // Sheet names are unique in a workbook; the index keeps a damaged one's duplicates apart.
          key={`${index}:${name}`}
          type="button"
          role="tab"
          className="sheet-tab"
          aria-selected={index === props.sheet}
          data-testid="sheet-tab"
          onClick={() => {
            if (index === props.sheet) return;
            const request: TableRequest = { type: 'sheet', sheet: index };
            props.worker.postMessage(request);
          }}
        >
          {name}
        </button>
      ))}
    </div>
  );
}
