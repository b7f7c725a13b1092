/**
 * Writing responses: JSON bodies, empty bodies and errors, with the headers every response
 * carries. Writers are no-ops once the client is gone, so a late service result cannot throw.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from './http-error';
import type { HttpError } from './http-error';

/** Sent on every response: nothing here is cacheable, and nothing should be content-sniffed. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

export function applyCommonHeaders(response: ServerResponse): void {
  for (const [name, value] of Object.entries(COMMON_HEADERS)) response.setHeader(name, value);
}

/** True once nothing more can be sent: the response was ended or the socket went away. */
export function isResponseGone(response: ServerResponse): boolean {
  return response.writableEnded || response.destroyed;
}

/**
 * True when the client declared a body that has not been read to its end. Answering such a
 * request early (401, 413, a route without a body) must close the connection, otherwise the
 * rest of the body would be parsed as the next request.
 */
export function hasUnreadBody(request: IncomingMessage): boolean {
  if (request.complete) return false;
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  );
}

/**
 * Marks the connection to close after this response and discards what the client still sends
 * until then, so the kernel is not left holding unread bytes (which would turn the close into a
 * reset that can destroy the response before the client reads it).
 */
function closeAfterResponse(request: IncomingMessage, response: ServerResponse): void {
  response.setHeader('Connection', 'close');
  request.unpipe();
  request.resume();
}

function send(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  body: string | null,
): void {
  if (isResponseGone(response)) return;
  if (response.headersSent) {
    // A stream was already under way: the only honest signal left is a cut connection.
    response.destroy();
    return;
  }
  if (hasUnreadBody(request)) closeAfterResponse(request, response);
  response.writeHead(status, headers);
  response.end(body ?? undefined);
}

export function sendJson(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(value);
  send(
    request,
    response,
    status,
    {
      ...headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
    },
    body,
  );
}

export function sendEmpty(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
): void {
  send(request, response, status, {}, null);
}

export function sendError(
  request: IncomingMessage,
  response: ServerResponse,
  error: HttpError,
): void {
  sendJson(request, response, error.status, errorBody(error), { ...error.headers });
}
