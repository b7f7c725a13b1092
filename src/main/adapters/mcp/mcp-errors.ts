/**
 * Turns whatever the SDK, fetch or spawn threw into one `McpError` with a specific kind and a
 * one-line message. Messages name the server (origin or command) and the status or error code;
 * they never quote request headers, environment values or long server text.
 */
import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
} from '@modelcontextprotocol/client';
import { isAbortError } from '../../../shared/errors';
import { McpError, McpUndelivered } from '../../core/ports';
import type { McpFailureKind } from '../../core/ports';
import { oneLine } from '../../../shared/untrusted-text';
import { speaksNone, supportedInError, unsupportedRevision } from './mcp-revision';

/** JSON-RPC error code of the failures the adapter injects for a request (see McpLink). */
export const INJECTED_FAILURE_CODE = -32_097;

const FAILURE_KINDS: ReadonlySet<string> = new Set<McpFailureKind>([
  'dns',
  'refused',
  'tls',
  'unauthorized',
  'forbidden',
  'not-found',
  'not-mcp',
  'wrong-transport',
  'redirect',
  'timeout',
  'disconnected',
  'protocol',
  'server-error',
  'too-large',
  'spawn',
  'canceled',
  'other',
]);

/** The first string `code` on the error, its `cause` chain or an AggregateError's members. */
export function errorCode(error: unknown, depth = 0): string {
  if (depth > 4 || typeof error !== 'object' || error === null) return '';
  const code = 'code' in error ? error.code : undefined;
  if (typeof code === 'string' && code !== '') return code;
  const nested = 'cause' in error ? errorCode(error.cause, depth + 1) : '';
  if (nested !== '') return nested;
  if (error instanceof AggregateError) {
    for (const member of error.errors) {
      const found = errorCode(member, depth + 1);
      if (found !== '') return found;
    }
  }
  return '';
}

function causeMessage(error: unknown): string {
  if (!(error instanceof Error)) return '';
  return error.cause instanceof Error ? error.cause.message : '';
}

function isTlsCode(code: string): boolean {
  return (
    /^(ERR_SSL|ERR_TLS|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code) ||
    code === 'EPROTO'
  );
}

/**
 * A fetch failure (refused, unknown host, TLS, reset) as an McpError, or null when the error is
 * not a network failure (an abort, an McpError already, a programming error).
 */
export function networkFailure(error: unknown, origin: string): McpError | null {
  if (error instanceof McpError || isAbortError(error)) return null;
  const code = errorCode(error);
  const host = hostOf(origin);
  if (code === ADDRESS_BLOCKED) {
    return new McpError('other', `blocked: ${oneLine(blockedMessage(error), 300)}`);
  }
  if (['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_NONAME', 'EAI_FAIL'].includes(code)) {
    return new McpError('dns', `could not resolve ${host} (${code}); check the address`);
  }
  if (code === 'ECONNREFUSED') {
    return new McpError('refused', `${origin} refused the connection; is the server running?`);
  }
  if (isTlsCode(code)) {
    return new McpError(
      'tls',
      `the TLS connection to ${origin} failed (${code}); check its certificate, or use http:// for a plain-HTTP server`,
    );
  }
  if (['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code)) {
    return new McpError('disconnected', `${origin} closed the connection unexpectedly`);
  }
  if (['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT'].includes(code)) {
    return new McpError('timeout', `${origin} did not answer in time (${code})`);
  }
  if (['EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'].includes(code)) {
    return new McpError('other', `could not reach ${origin} (${code})`);
  }
  if (causeMessage(error) === 'bad port') {
    return new McpError('other', `${origin}: HTTP clients may not use this port; pick another one`);
  }
  if (code !== '') return new McpError('other', `the request to ${origin} failed (${code})`);
  if (error instanceof TypeError && /fetch failed|terminated/.test(error.message)) {
    return new McpError('disconnected', `the connection to ${origin} failed`);
  }
  return null;
}

/** The code of a connection the address rules refused at connect time (see mcp-fetch.ts). */
export const ADDRESS_BLOCKED = 'AIVORY_ADDRESS_BLOCKED';

function blockedMessage(error: unknown, depth = 0): string {
  if (depth > 4 || typeof error !== 'object' || error === null) return 'address refused';
  if ('code' in error && error.code === ADDRESS_BLOCKED && error instanceof Error)
    return error.message;
  return 'cause' in error ? blockedMessage(error.cause, depth + 1) : 'address refused';
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    return origin;
  }
}

/** Where a failure happened, for the message and for kinds that depend on the phase. */
export interface FailureContext {
  /** 'connect' while connecting + initializing; 'request' afterwards. */
  phase: 'connect' | 'request';
  /** The server as the user knows it: an origin or `command "x"`. */
  server: string;
  /** What was being done, e.g. `MCP tool "x"` or `tools/list`. */
  what: string;
  transport: 'streamable-http' | 'sse' | 'stdio';
  /** The per-request deadline, for the timeout message. */
  timeoutMs: number;
}

/** Seconds for messages: "1.5", "60". */
export function seconds(ms: number): string {
  const value = ms / 1000;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** How a stdio child that ended during the handshake is reported (the connector adds its stderr). */
export const EXITED_DURING_HANDSHAKE = 'exited before completing the MCP handshake';

/** True for an error the SDK raised itself when a request's deadline passed. */
function isSdkTimeout(error: unknown): boolean {
  if (!(error instanceof SdkError) || error.code !== SdkErrorCode.RequestTimeout) return false;
  // An aborted request is rejected with the same code but no deadline in its data.
  const data = error.data;
  return (
    typeof data === 'object' && data !== null && ('timeout' in data || 'maxTotalTimeout' in data)
  );
}

/** The SDK's "Maximum total timeout exceeded" (raised when progress arrives too late). */
export function isSdkTotalTimeout(error: unknown): boolean {
  if (!isSdkTimeout(error)) return false;
  const data = (error as SdkError).data;
  return typeof data === 'object' && data !== null && 'maxTotalTimeout' in data;
}

/** True for the SDK's own "Connection closed" rejection of pending requests. */
function isSdkClosed(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
}

/** A failure the adapter injected for one request (McpLink.failRequest), if this is one. */
export function injectedFailure(error: unknown, nonce: string): McpError | null {
  if (!(error instanceof ProtocolError) || error.code !== INJECTED_FAILURE_CODE) return null;
  const data = error.data;
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  const kind = record['kind'];
  const message = record['message'];
  if (record['nonce'] !== nonce || typeof kind !== 'string' || !FAILURE_KINDS.has(kind)) {
    return null;
  }
  const text = typeof message === 'string' ? message : 'failed';
  return record['undelivered'] === true
    ? new McpUndelivered(kind as McpFailureKind, text)
    : new McpError(kind as McpFailureKind, text);
}

/**
 * A JSON-RPC error the SERVER sent (as opposed to one the SDK or the adapter made up), with
 * its message without the SDK's "MCP error -32602:" prefix; null otherwise.
 */
export function serverErrorMessage(error: unknown, nonce: string): string | null {
  if (!(error instanceof ProtocolError)) return null;
  if (injectedFailure(error, nonce) !== null) return null;
  return error.message.replace(/^(?:MCP error -?\d+: )+/, '');
}

/** A message that was not JSON, or not JSON-RPC (the SDK's zod schemas refused it). */
export function isParseError(error: unknown): boolean {
  return (
    error instanceof SyntaxError ||
    (error instanceof Error && error.name === 'ZodError') ||
    (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult)
  );
}

function notMcp(context: FailureContext, detail: string): McpError {
  return new McpError(
    'not-mcp',
    `${context.server} answered, but not as an MCP server (${detail}); check the URL and the transport`,
  );
}

function fromHttpStatus(status: number | undefined, context: FailureContext): McpError {
  if (status === -1 || status === undefined) return notMcp(context, 'unexpected content type');
  if (context.phase === 'connect' && status >= 400 && status < 500) {
    return notMcp(context, `HTTP ${status} to the MCP handshake`);
  }
  return new McpError('other', `${context.server} answered HTTP ${status} to ${context.what}`);
}

/** A failure the SDK raised itself (a deadline, a closed connection, a refused negotiation). */
function fromSdkError(error: SdkError, context: FailureContext): McpError | null {
  if (isSdkTimeout(error)) {
    return new McpError(
      'timeout',
      `${context.what} timed out after ${seconds(context.timeoutMs)} s`,
    );
  }
  if (isSdkClosed(error)) {
    if (context.phase === 'connect' && context.transport === 'stdio') {
      return new McpError('spawn', `${context.server} ${EXITED_DURING_HANDSHAKE}`);
    }
    return new McpError(
      'disconnected',
      `${context.server} closed the connection during ${context.what}`,
    );
  }
  if (error.code === SdkErrorCode.ClientHttpUnexpectedContent) return fromHttpStatus(-1, context);
  return null;
}

/** A JSON-RPC error the server sent (or the adapter injected) as an McpError. */
function fromProtocolError(error: ProtocolError, context: FailureContext, nonce: string): McpError {
  const injected = injectedFailure(error, nonce);
  if (injected !== null) return injected;
  const text = oneLine(error.message.replace(/^(?:MCP error -?\d+: )+/, ''));
  const revisions = context.phase === 'connect' ? supportedInError(error) : null;
  if (revisions !== null && speaksNone(revisions)) {
    return unsupportedRevision(context.server, revisions);
  }
  if (context.phase === 'connect') {
    return new McpError('protocol', `${context.server} refused the MCP handshake: ${text}`);
  }
  return new McpError(
    'server-error',
    `${context.server} answered ${context.what} with an error: ${text}`,
  );
}

function fromSpawnError(error: Error, context: FailureContext): McpError | null {
  const code = errorCode(error);
  if (!('syscall' in error) || typeof error.syscall !== 'string') return null;
  if (!error.syscall.startsWith('spawn')) return null;
  const reason =
    code === 'ENOENT'
      ? 'command not found (check the command, PATH and working directory)'
      : code === 'EACCES'
        ? 'permission denied (is the file executable?)'
        : code;
  return new McpError('spawn', `could not start ${context.server}: ${reason}`);
}

/**
 * The one McpError for a failure. `lastHttpFailure` is the adapter's own error the fetch threw
 * most recently: the legacy SSE transport reports fetch failures by message only, so its kind
 * is recovered from there.
 */
export function classifyFailure(
  error: unknown,
  context: FailureContext,
  nonce: string,
  lastHttpFailure: McpError | null = null,
): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof ProtocolError) return fromProtocolError(error, context, nonce);
  if (isAbortError(error)) return new McpError('canceled', `${context.what} was canceled`);
  if (error instanceof SdkHttpError)
    return lastHttpFailure ?? fromHttpStatus(error.status, context);
  if (error instanceof SdkError) {
    // A failed revision probe (`server/discover`) carries what the fetch or the parser threw.
    if (error.code === SdkErrorCode.EraNegotiationFailed && error.cause !== undefined)
      return classifyFailure(error.cause, context, nonce, lastHttpFailure);
    const known = fromSdkError(error, context);
    if (known !== null) return known;
  }
  if (error instanceof SseError) {
    if (lastHttpFailure !== null) return lastHttpFailure;
    if (typeof error.code === 'number') return fromHttpStatus(error.code, context);
    return new McpError('disconnected', `the event stream from ${context.server} failed`);
  }
  if (isParseError(error)) {
    return context.phase === 'connect'
      ? notMcp(context, 'not JSON-RPC')
      : new McpError(
          'protocol',
          `${context.server} sent an invalid message during ${context.what}`,
        );
  }
  if (error instanceof Error) {
    const spawn = fromSpawnError(error, context);
    if (spawn !== null) return spawn;
    if (/^Endpoint origin does not match/.test(error.message)) {
      return new McpError(
        'redirect',
        `${context.server} announced its message endpoint on another origin; refused (only ${context.server} may be reached)`,
      );
    }
    const posted = /^Error POSTing to endpoint \(HTTP (\d+)\)/.exec(error.message);
    if (posted !== null) return lastHttpFailure ?? fromHttpStatus(Number(posted[1]), context);
    // The SDK refusing the revision a server answered `initialize` with.
    const answered = /protocol version is not supported: (.*)$/.exec(error.message);
    if (answered !== null)
      return unsupportedRevision(context.server, [oneLine(answered[1] ?? '', 40)]);
  }
  const network = networkFailure(error, context.server);
  if (network !== null) return network;
  if (lastHttpFailure !== null) return lastHttpFailure;
  const text = error instanceof Error ? error.message : String(error);
  return new McpError('other', `${context.what} failed: ${oneLine(text)}`);
}
