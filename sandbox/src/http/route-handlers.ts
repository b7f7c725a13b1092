/**
 * One handler per route. Each validates its input, calls the service and writes the response;
 * thrown errors are turned into JSON error responses by the server's dispatcher.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { SandboxService } from '../sandbox-service';
import { HttpError } from './http-error';
import {
  checkUploadDirectory,
  checkUploadName,
  checkWorkspacePath,
  isSessionId,
  unknownSession,
} from './input-checks';
import { isResponseGone, sendEmpty, sendJson } from './responses';
import {
  BodyGuard,
  checkDeclaredLength,
  declaredLength,
  pipeBodyInto,
  readJsonObject,
  JSON_BODY_LIMIT_BYTES,
} from './request-body';
import {
  CODE_MAX_BYTES,
  createSessionRequestSchema,
  execRequestSchema,
  parseRequestBody,
  resetDamagedRequestSchema,
} from './route-schemas';
import type { RouteKey } from './route-schemas';
import { describeError } from './server-logger';
import type { SandboxServerLogger } from './server-logger';

export interface RouteContext {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  /** The checked `{id}` path segment; null on routes without one. */
  sessionId: string | null;
  service: SandboxService;
  maxUploadBytes: number;
  bodyIdleTimeoutMs: number;
  logger: SandboxServerLogger;
}

type RouteHandler = (context: RouteContext) => Promise<void>;

function pathSessionId(context: RouteContext): string {
  // The route table only matches session routes with a valid id; this is a safety net.
  if (context.sessionId === null) throw unknownSession();
  return context.sessionId;
}

function readBody(context: RouteContext): Promise<Record<string, unknown>> {
  return readJsonObject(context.request, JSON_BODY_LIMIT_BYTES, context.bodyIdleTimeoutMs);
}

async function health(context: RouteContext): Promise<void> {
  const report = await context.service.health();
  sendJson(context.request, context.response, 200, report);
}

async function createSession(context: RouteContext): Promise<void> {
  const body = parseRequestBody(createSessionRequestSchema, await readBody(context));
  const session = await context.service.createSession(body.conversation_id);
  sendJson(context.request, context.response, session.created ? 201 : 200, session);
}

/**
 * Runs code. The signal aborts when the client disconnects before the response is written:
 * killing the HTTP client is how a caller stops code it no longer waits for.
 */
async function exec(context: RouteContext): Promise<void> {
  const { request, response } = context;
  const body = parseRequestBody(execRequestSchema, await readBody(context));
  if (!isSessionId(body.session_id)) throw unknownSession();
  if (Buffer.byteLength(body.code, 'utf8') > CODE_MAX_BYTES) {
    throw new HttpError(400, 'bad-request', `code must be at most ${CODE_MAX_BYTES} bytes.`);
  }
  const controller = new AbortController();
  const onClose = (): void => {
    if (!response.writableEnded) {
      controller.abort(new Error('The HTTP client disconnected before the result was sent.'));
    }
  };
  response.once('close', onClose);
  try {
    const result = await context.service.exec(body, controller.signal);
    sendJson(request, response, 200, result);
  } finally {
    response.off('close', onClose);
  }
}

/**
 * Streams the raw body into the service. The declared length is checked before reading; the
 * guard counts what actually arrives (a chunked body declares nothing) and cuts it at the limit.
 */
async function upload(context: RouteContext): Promise<void> {
  const { request, response, maxUploadBytes } = context;
  const sessionId = pathSessionId(context);
  const name = checkUploadName(context.url.searchParams.get('name'));
  const directory = checkUploadDirectory(context.url.searchParams.get('dir'));
  checkDeclaredLength(request, maxUploadBytes);
  const guard = new BodyGuard(maxUploadBytes, context.bodyIdleTimeoutMs);
  pipeBodyInto(request, guard);
  try {
    const size = declaredLength(request) ?? maxUploadBytes;
    const file = await context.service.upload(sessionId, name, guard, size, directory);
    // The guard's verdict wins over whatever the service made of a cut stream.
    if (guard.failure !== null) throw guard.failure;
    sendJson(request, response, 201, file);
  } catch (error) {
    throw guard.failure ?? error;
  } finally {
    if (!guard.destroyed && !guard.writableFinished) guard.destroy();
  }
}

/** Lists a directory as JSON or streams a file; a failing source cuts the response. */
async function readPath(context: RouteContext): Promise<void> {
  const { request, response } = context;
  const sessionId = pathSessionId(context);
  const path = checkWorkspacePath(context.url.searchParams.get('path') ?? '');
  const read = await context.service.readPath(sessionId, path);
  if (read.kind === 'directory') {
    sendJson(request, response, 200, { entries: read.entries });
    return;
  }
  if (isResponseGone(response)) {
    read.body.destroy();
    return;
  }
  try {
    // A source that yields more or fewer bytes than it declared becomes an error, not a lie.
    response.strictContentLength = true;
    response.writeHead(200, { 'Content-Type': read.mime, 'Content-Length': read.size });
  } catch (error) {
    read.body.destroy();
    throw error;
  }
  try {
    await pipeline(read.body, response);
  } catch (error) {
    // Headers are out, so no error body can follow: the cut connection is the signal.
    response.destroy();
    context.logger.warn('file download ended early', { sessionId, path, ...describeError(error) });
  }
}

async function interrupt(context: RouteContext): Promise<void> {
  const result = await context.service.interrupt(pathSessionId(context));
  sendJson(context.request, context.response, 200, result);
}

async function deleteSession(context: RouteContext): Promise<void> {
  await context.service.deleteSession(pathSessionId(context));
  sendEmpty(context.request, context.response, 204);
}

async function resetDamagedWorkspace(context: RouteContext): Promise<void> {
  const body = parseRequestBody(resetDamagedRequestSchema, await readBody(context));
  const reset = await context.service.resetDamagedWorkspace(body.conversation_id);
  sendJson(context.request, context.response, 200, reset);
}

export const ROUTE_HANDLERS: Record<RouteKey, RouteHandler> = {
  'GET /healthz': health,
  'POST /sessions': createSession,
  'POST /exec': exec,
  'POST /sessions/{id}/files': upload,
  'GET /sessions/{id}/files': readPath,
  'POST /sessions/{id}/interrupt': interrupt,
  'DELETE /sessions/{id}': deleteSession,
  'POST /workspaces/reset-damaged': resetDamagedWorkspace,
};
