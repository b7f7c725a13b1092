/** The table workers' global scope (worker-only: the page and Node never load this). */
import type { TableRequest, TableResponse } from './table-protocol';

/** A worker's global scope, typed by what is used (the renderer's lib is the DOM's). */
export interface TableWorkerScope {
  postMessage(message: TableResponse): void;
  onmessage: ((event: MessageEvent<TableRequest>) => void) | null;
}

/** The worker's scope. */
export function tableWorkerScope(): TableWorkerScope {
  return self as unknown as TableWorkerScope;
}
