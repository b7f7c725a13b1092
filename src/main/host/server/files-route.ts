/**
 * `GET /files?path=…&token=…[&download=1]` of `aivory serve`: hands out a file of the data
 * directory's artifacts/ or uploads/ folders (see `../files/data-files.ts` for the confinement and
 * the headers). The token is the per-start token of the WebSocket; the Host must be the loopback
 * address the server listens on, and a cross-site fetch is refused.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dataFileHeaders, resolveDataFile } from '../files/data-files';
import { tokenMatches } from './access-token';

/** The path of the route. */
export const FILES_ROUTE = '/files';

/** What the route checks against. */
export interface FilesRouteOptions {
  token: string;
  /** Host header values allowed, e.g. `127.0.0.1:5217`. */
  allowedHosts: readonly string[];
  /** The folders whose files may be served. */
  roots: readonly string[];
}

/** True for a request of the route (any query); false for other paths and unreadable URLs. */
export function isFilesRequest(url: string | undefined): boolean {
  try {
    return new URL(url ?? '/', 'http://host').pathname === FILES_ROUTE;
  } catch {
    return false;
  }
}

/** Answers one `/files` request. */
export async function serveDataFile(
  request: IncomingMessage,
  response: ServerResponse,
  options: FilesRouteOptions,
): Promise<void> {
  const refusal = refusalStatus(request, options);
  if (refusal !== null) {
    response.writeHead(refusal, { 'Content-Type': 'text/plain; charset=utf-8' }).end();
    return;
  }
  const url = new URL(request.url ?? '/', 'http://host');
  const file = await resolveDataFile(options.roots, url.searchParams.get('path') ?? '');
  if (file === null) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
    return;
  }
  const { size } = await stat(file);
  const { headers } = await dataFileHeaders(file, size, url.searchParams.get('download') === '1');
  response.writeHead(200, headers);
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(file)
    .on('error', () => response.destroy())
    .pipe(response);
}

/** The HTTP status refusing the request, or null when it may be served. */
function refusalStatus(request: IncomingMessage, options: FilesRouteOptions): number | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return 405;
  if (!options.allowedHosts.includes(request.headers.host ?? '')) return 403;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return 403;
  const token = new URL(request.url ?? '/', 'http://host').searchParams.get('token');
  if (!tokenMatches(options.token, token)) return 401;
  return null;
}
