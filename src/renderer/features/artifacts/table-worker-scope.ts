/** The table workers' global scope (worker-only: the page and Node never load this). */
import { readBoundedBody } from '../../../shared/bounded-body';
import type { TableRequest, TableResponse } from './table-protocol';

/** A body past the request's limit. */
export class BodyTooLargeError extends Error {}

/** The bytes of a `parse` request's body, at most its limit (else BodyTooLargeError). */
export function readRequestBody(
  request: Extract<TableRequest, { type: 'parse' }>,
): Promise<Uint8Array<ArrayBuffer>> {
  return readBoundedBody(request.body, request.limit, () => new BodyTooLargeError());
}

/** A worker's global scope, typed by what is used (the renderer's lib is the DOM's). */
export interface TableWorkerScope {
  postMessage(message: TableResponse): void;
  onmessage: ((event: MessageEvent<TableRequest>) => void) | null;
}

/** The worker's scope. */
export function tableWorkerScope(): TableWorkerScope {
  return self as unknown as TableWorkerScope;
}
