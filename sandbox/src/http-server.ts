/**
 * The sidecar's HTTP API on node:http: Bearer auth on every route, JSON errors for every
 * failure, bounded bodies, and no way for bad input or a vanished client to crash the process.
 * Routes and their shapes are in `http/route-schemas.ts` (ROUTE_SCHEMAS).
 */
import { STATUS_CODES, createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { SandboxService } from './sandbox-service';
import { createBearerCheck } from './http/bearer-auth';
import { HttpError, toHttpError } from './http/http-error';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS } from './http/request-body';
import { applyCommonHeaders, COMMON_HEADERS, isResponseGone, sendError } from './http/responses';
import { ROUTE_HANDLERS } from './http/route-handlers';
import { isHttpMethod, matchPath } from './http/route-table';
import { SILENT_LOGGER, describeError } from './http/server-logger';
import type { SandboxServerLogger } from './http/server-logger';

export { ROUTE_SCHEMAS } from './http/route-schemas';
export type { RouteKey, RouteSchema } from './http/route-schemas';
export type { SandboxServerLogger } from './http/server-logger';
export type { ErrorBody, HttpErrorCode } from './http/http-error';

export interface SandboxServerOptions {
  service: SandboxService;
  /** The Bearer key; null turns auth off (the entry point allows that on loopback only). */
  apiKey: string | null;
  /** SANDBOX_MAX_UPLOAD_BYTES: the largest upload accepted. */
  maxUploadBytes: number;
  logger?: SandboxServerLogger;
  /** How long a request body may stall before 408; default 60 s. */
  bodyIdleTimeoutMs?: number;
}

/**
 * Headers must arrive within a minute. There is deliberately no overall request timeout: an
 * exec may run for the full 600 s cap, and the service enforces its own timeouts.
 */
const HEADERS_TIMEOUT_MS = 60_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

const UNAUTHORIZED = new HttpError(
  401,
  'unauthorized',
  'A valid "Authorization: Bearer <SANDBOX_API_KEY>" header is required.',
);

/** Answers a request the HTTP parser rejected, straight on the socket, then closes it. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 431
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 408
        : 400;
  const code = status === 408 ? 'request-timeout' : 'bad-request';
  const body = JSON.stringify({ error: { code, message: 'Malformed HTTP request.' } });
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(COMMON_HEADERS).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * Creates (does not start) the sidecar's HTTP server. Every route requires the Bearer key when
 * `apiKey` is set, and an unauthenticated request learns nothing else (not even whether the
 * route exists). Errors are JSON `{"error":{"code","message"}}`; unexpected ones become a
 * generic 500 and are logged.
 */
export function createSandboxServer(options: SandboxServerOptions): Server {
  const logger = options.logger ?? SILENT_LOGGER;
  const isAuthorized = createBearerCheck(options.apiKey);
  const bodyIdleTimeoutMs = options.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    applyCommonHeaders(response);
    if (!isAuthorized(request.headers.authorization)) {
      logger.warn('rejected a request without a valid API key', {
        remoteAddress: request.socket.remoteAddress,
      });
      throw UNAUTHORIZED;
    }
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://sandbox.invalid');
    } catch {
      throw new HttpError(400, 'bad-request', 'The request target is not a valid URL.');
    }
    const match = matchPath(url.pathname);
    if (match === null) throw new HttpError(404, 'not-found', 'No such route.');
    const route = isHttpMethod(request.method) ? match.routes[request.method] : undefined;
    if (route === undefined) {
      const allow = Object.keys(match.routes).join(', ');
      throw new HttpError(405, 'method-not-allowed', `Use ${allow}.`, { Allow: allow });
    }
    await ROUTE_HANDLERS[route]({
      request,
      response,
      url,
      sessionId: match.sessionId,
      service: options.service,
      maxUploadBytes: options.maxUploadBytes,
      bodyIdleTimeoutMs,
      logger,
    });
  }

  function fail(request: IncomingMessage, response: ServerResponse, error: unknown): void {
    const { httpError, unexpected } = toHttpError(error);
    const fields = { method: request.method, path: request.url?.split('?')[0] };
    if (isResponseGone(response)) {
      // The client left (e.g. it was killed mid-exec); nobody is waiting for this outcome.
      logger.info('request ended after the client left', { ...fields, ...describeError(error) });
      return;
    }
    if (unexpected) logger.error('request failed', { ...fields, ...describeError(error) });
    sendError(request, response, httpError);
  }

  const server = createServer(
    { requestTimeout: 0, headersTimeout: HEADERS_TIMEOUT_MS },
    (request, response) => {
      // Stream errors (a reset connection) are handled where the body is read; these listeners
      // only make sure an error event can never become an uncaught exception.
      request.on('error', () => {});
      response.on('error', (error) => logger.warn('response stream failed', describeError(error)));
      handle(request, response).catch((error: unknown) => {
        try {
          fail(request, response, error);
        } catch (sendFailure) {
          logger.error('could not send an error response', describeError(sendFailure));
          response.destroy();
        }
      });
    },
  );
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code !== 'ECONNRESET') logger.warn('malformed HTTP request', { code: error.code });
    answerClientError(error, socket);
  });
  return server;
}
