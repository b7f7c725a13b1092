/**
 * One bounded HTTP exchange for a search backend: a whole-request deadline (connect, headers and
 * body), a cap on the body actually read, and failures turned into `SearchBackendError`s that
 * name the backend. The caller's abort is passed through untouched so a canceled turn stays a
 * cancellation, not a search failure.
 */
import { AivoryError } from '../../../shared/errors';
import { cleanText } from './clean-text';
import type { SearchTransport } from '../../core/ports';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_SEARCH_DEADLINE_MS,
  SearchBackendError,
} from './types';
import { formatBytes } from '../../../shared/byte-size';
import { readBoundedBody } from '../../../shared/bounded-body';

export interface HttpAnswer {
  status: number;
  /** The body as UTF-8 text, complete (never cut: an over-large body is an error). */
  text: string;
}

export interface HttpRequest {
  url: string;
  init: Omit<RequestInit, 'signal'>;
  signal: AbortSignal;
  /** Who is asked, for messages: "SearXNG at http://127.0.0.1:8080". */
  target: string;
}

/** Longest server-provided detail quoted in an error; enough for "Unauthorized." or a reason. */
const MAX_DETAIL_CHARS = 200;

/**
 * Sends the request and reads the whole body, or throws: the caller's abort reason when the
 * caller aborted, otherwise a `SearchBackendError` (deadline passed, body over the cap, backend
 * unreachable). Errors the fetcher throws that are not network failures propagate unchanged.
 */
export async function requestText(
  transport: SearchTransport,
  request: HttpRequest,
): Promise<HttpAnswer> {
  const deadlineMs = transport.deadlineMs ?? DEFAULT_SEARCH_DEADLINE_MS;
  const maxBytes = transport.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const { signal: callerSignal, target } = request;
  callerSignal.throwIfAborted();
  const controller = new AbortController();
  let deadlinePassed = false;
  const timer = setTimeout(() => {
    deadlinePassed = true;
    controller.abort(new Error('search deadline passed'));
  }, deadlineMs);
  const onCallerAbort = (): void => controller.abort(callerSignal.reason);
  callerSignal.addEventListener('abort', onCallerAbort, { once: true });
  try {
    // Redirects are not followed: the fetcher allows one origin, and Serper/Brave keys travel in
    // custom headers that fetch would carry to wherever a redirect points.
    const response = await transport.fetch(request.url, {
      ...request.init,
      redirect: 'manual',
      signal: controller.signal,
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      throw redirectError(target, response);
    }
    const text = await readBounded(response, maxBytes, controller.signal, target);
    return { status: response.status, text };
  } catch (error) {
    if (callerSignal.aborted) throw callerSignal.reason;
    if (deadlinePassed) {
      throw new SearchBackendError(
        `${target} did not answer within ${formatSeconds(deadlineMs)}; it may be down or overloaded.`,
      );
    }
    if (error instanceof SearchBackendError) throw error;
    if (error instanceof AivoryError) {
      throw new SearchBackendError(`Could not reach ${target}: ${error.message}`, { cause: error });
    }
    // fetch reports every network-level failure as a TypeError with the socket error as cause.
    if (error instanceof TypeError) {
      throw new SearchBackendError(`Could not reach ${target}: ${describeNetworkError(error)}.`, {
        cause: error,
      });
    }
    throw error;
  } finally {
    clearTimeout(timer);
    callerSignal.removeEventListener('abort', onCallerAbort);
  }
}

function redirectError(target: string, response: Response): SearchBackendError {
  const location = cleanText(response.headers.get('location') ?? '').slice(0, MAX_DETAIL_CHARS);
  const where = location === '' ? '' : ` to ${location}`;
  return new SearchBackendError(
    `${target} redirected (HTTP ${response.status})${where}. Redirects are not followed; if the service moved, use its new address as the base URL.`,
  );
}

/** Reads at most `maxBytes` of the body; more is an error rather than a silently cut answer. */
async function readBounded(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
  target: string,
): Promise<string> {
  const tooLarge = (): SearchBackendError =>
    new SearchBackendError(
      `${target} sent a response larger than ${formatBytes(maxBytes)}; it was not read.`,
    );
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  return new TextDecoder().decode(await readBoundedBody(response.body, maxBytes, tooLarge, signal));
}

/** `path` under `baseUrl`, keeping any path the base already has (a proxy prefix). */
export function endpointUrl(baseUrl: string, path: string): URL {
  return new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
}

/** Parses a JSON body, or explains that the backend answered with something else. */
export function parseJsonBody(text: string, target: string, hint: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    const start = cleanText(text).slice(0, 80);
    throw new SearchBackendError(
      `${target} answered with something that is not JSON${start === '' ? '' : ` ("${start}…")`}; ${hint}`,
    );
  }
}

/**
 * A short, tag-free detail from an error body: a JSON `message`/`detail`/`error` field, an HTML
 * page's title, or the start of the text. Empty when there is nothing useful.
 */
export function errorDetail(text: string): string {
  const cleaned = cleanText(rawDetail(text));
  return cleaned.length > MAX_DETAIL_CHARS ? `${cleaned.slice(0, MAX_DETAIL_CHARS)}…` : cleaned;
}

/** The message in a JSON error body, else an HTML page's title, else the text itself. */
function rawDetail(text: string): string {
  try {
    return findMessage(JSON.parse(text));
  } catch {
    return /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1] ?? text;
  }
}

function findMessage(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return '';
  const record = Object.fromEntries(Object.entries(value));
  for (const field of ['detail', 'message', 'error', 'code']) {
    const found = findMessage(record[field]);
    if (found !== '') return found;
  }
  return '';
}

/** The socket-level reason behind a fetch TypeError, in words. */
function describeNetworkError(error: TypeError): string {
  const code = errorCode(error.cause);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the service running and listening at that address?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be resolved';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed unexpectedly';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable';
    default:
      break;
  }
  if (code?.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT') {
    return `its TLS certificate was not accepted (${code})`;
  }
  const causeMessage = error.cause instanceof Error ? error.cause.message : '';
  return causeMessage || code || error.message;
}

/** `code` of an error or, for an AggregateError (several addresses tried), of its first member. */
function errorCode(cause: unknown): string | undefined {
  if (cause === null || typeof cause !== 'object') return undefined;
  if ('code' in cause && typeof cause.code === 'string') return cause.code;
  if (cause instanceof AggregateError) return errorCode(cause.errors[0]);
  return undefined;
}

function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
