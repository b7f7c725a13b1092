/**
 * Provider failures → public errors: every SDK or network failure becomes an `AivoryError` whose
 * one-line message is safe to show. It names the server and never contains the API key; abort
 * errors stay recognisable as cancels. Also the URL checks and the display form of a base URL.
 */
import { STATUS_CODES } from 'node:http';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { AivoryError, isAbortError } from '../../../shared/errors';
import { checkHttpUrl } from '../../../shared/http-url';
import { redactSecrets } from '../../policy/redact';

/** Server error texts are cut to this length so a stack trace or HTML page cannot flood the UI. */
const SERVER_MESSAGE_LIMIT = 300;

/** What error messages may say about the request: never the key, which is only for redaction. */
export interface ProviderErrorContext {
  baseUrl: string;
  apiKey: string | null;
  model?: string;
}

/**
 * Turns an SDK or network failure into an `AivoryError` with a one-line message fit for the UI.
 * Abort errors are returned unchanged so callers can still recognise a cancel.
 */
export function toProviderError(error: unknown, context: ProviderErrorContext): Error {
  if (error instanceof AivoryError) return error;
  // The SDK's abort error has the plain name "Error", so `isAbortError()` needs it rewrapped.
  if (error instanceof APIUserAbortError) return canceledError(error);
  if (isAbortError(error) && error instanceof Error) return error;
  const where = `the model server at ${context.baseUrl}`;
  const build = (code: 'connection' | 'auth' | 'provider', message: string): AivoryError =>
    new AivoryError(code, redact(message, context.apiKey), { cause: error });

  if (error instanceof APIConnectionTimeoutError) {
    return build('connection', `Timed out waiting for ${where} to respond.`);
  }
  if (error instanceof APIConnectionError) {
    return build('connection', `Cannot reach ${where}: ${describeNetworkFailure(error)}`);
  }
  if (error instanceof APIError) {
    const status = error.status;
    const detail = serverMessage(error);
    if (status === 401 || status === 403) {
      return build('auth', `The model server rejected the API key (HTTP ${status})`);
    }
    if (status !== undefined && hasNoBody(error)) {
      return build('provider', `${capitalize(where)} ${bareStatusAdvice(status)}`);
    }
    if (status === 404) {
      const subject = context.model === undefined ? 'the request' : `model "${context.model}"`;
      return build(
        'provider',
        `${capitalize(where)} returned HTTP 404 for ${subject} (${detail}); check the model name, ` +
          `and that the base URL is right (it usually ends in /v1).`,
      );
    }
    if (status === 429) {
      return build(
        'provider',
        `${capitalize(where)} is rate limiting requests (HTTP 429): ${detail}`,
      );
    }
    if (status === undefined) {
      return build('provider', `${capitalize(where)} reported an error mid-answer: ${detail}`);
    }
    return build('provider', `${capitalize(where)} returned HTTP ${status}: ${detail}`);
  }
  // One event of the stream is not JSON (the SDK's JSON.parse threw): the parser's own words
  // ("Unexpected token…") would tell the user nothing about what happened.
  if (error instanceof SyntaxError) {
    return build(
      'provider',
      `${capitalize(where)} sent a part of its answer that is not valid JSON, so the answer stops there; what arrived is kept. Retry, and if it happens again check the server's log.`,
    );
  }
  // Plain network errors while reading the body (undici's "terminated").
  if (error instanceof TypeError) {
    return build('connection', `Lost the connection to ${where}: ${describeNetworkFailure(error)}`);
  }
  const text = error instanceof Error ? error.message : String(error);
  return build('provider', `Unexpected failure talking to ${where}: ${oneLine(text)}`);
}

/**
 * What a status without any body says, in words: `answered 429 Too Many Requests with no
 * explanation; wait a moment and retry.` The SDK's own text for it ("status code (no body)")
 * reads as if the server had said that.
 */
function bareStatusAdvice(status: number): string {
  const phrase = STATUS_CODES[status];
  const answered = `answered ${status}${phrase ? ` ${phrase}` : ''} with no explanation`;
  if (status === 429) return `${answered}; wait a moment and retry.`;
  if (status === 404) {
    return `${answered}; check the model name, and that the base URL is right (it usually ends in /v1).`;
  }
  if (status >= 500) return `${answered}; retry, and if it keeps failing check the server's log.`;
  return `${answered}.`;
}

/** True when the server sent the status alone: no body at all (or only blanks). */
function hasNoBody(error: APIError): boolean {
  return error.error === undefined && /status code \(no body\)$/.test(error.message);
}

/** The server's own error text, on one line and bounded. */
function serverMessage(error: APIError): string {
  const text = oneLine(rawServerMessage(error));
  return text === '' ? 'no details' : text;
}

function rawServerMessage(error: APIError): string {
  const body: unknown = error.error;
  if (typeof body === 'string') return body;
  if (typeof body === 'object' && body !== null && 'message' in body) {
    return typeof body.message === 'string' ? body.message : JSON.stringify(body.message);
  }
  // The SDK prefixes the status ("500 status code (no body)"); keep only the server's part.
  return error.message.replace(/^\d{3}\s+/, '');
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server uses a self-signed TLS certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'the server uses a self-signed TLS certificate',
  CERT_HAS_EXPIRED: 'the server TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server TLS certificate does not match the host name',
};

/** Finds the most specific reason in an error's cause chain (undici nests the real one). */
function describeNetworkFailure(error: Error): string {
  let current: unknown = error;
  let deepestMessage = error.message;
  for (let depth = 0; depth < 6 && current instanceof Error; depth += 1) {
    if ('code' in current && typeof current.code === 'string') {
      const known = NETWORK_CODES[current.code];
      return known ? `${known} (${current.code})` : `${oneLine(current.message)} (${current.code})`;
    }
    if (current.message !== '') deepestMessage = current.message;
    current = current.cause;
  }
  return oneLine(deepestMessage);
}

/** Throws a `config` AivoryError unless `baseUrl` is http(s); `what` names the server. */
export function assertHttpUrl(
  baseUrl: string,
  what = 'model server',
  example = ' (for example http://127.0.0.1:11434/v1)',
): void {
  // Credentials are refused where a base URL is entered; displayUrl keeps them out of messages.
  const verdict = checkHttpUrl(baseUrl);
  if (!verdict.ok && verdict.problem !== 'credentials') {
    throw new AivoryError(
      'config',
      `The ${what} address "${oneLine(baseUrl)}" is not an http(s) URL${example}.`,
    );
  }
}

/** The base URL as messages show it: without any user:password part. */
export function displayUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return baseUrl;
  }
}

/**
 * A stream that ended with neither a finish reason nor `data: [DONE]`: the connection closed
 * mid-answer (a proxy's timeout, a crashed server). What arrived is kept; the turn fails so the
 * user sees it is incomplete and can retry.
 */
export function cutOffError(context: ProviderErrorContext): AivoryError {
  return new AivoryError(
    'connection',
    `The model's answer was cut off: the model server at ${context.baseUrl} closed the connection before it finished. What arrived is kept; retry for the whole answer.`,
  );
}

/**
 * A server that asks to wait longer than the app waits (`request-retry.ts: MAX_RETRY_WAIT_MS`):
 * the request is given up at once, saying how long it asked. The one wording of it.
 */
export function retryLaterError(
  context: ProviderErrorContext,
  status: number | null,
  waitMs: number,
  cause: unknown,
): AivoryError {
  const phrase = status === null ? undefined : STATUS_CODES[status];
  const answered =
    status === null ? '' : ` answered HTTP ${status}${phrase ? ` ${phrase}` : ''} and`;
  return new AivoryError(
    'provider',
    redact(
      `The model server at ${context.baseUrl}${answered} asks to wait ${waitDuration(waitMs)} before the next request; retry later.`,
      context.apiKey,
    ),
    { cause },
  );
}

/** A wait as people say it: "90 s", "60 min", "3 h", "2 days" (rounded up). */
export function waitDuration(waitMs: number): string {
  const seconds = Math.ceil(waitMs / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.ceil(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.ceil(hours / 24)} days`;
}

export function idleTimeoutError(context: ProviderErrorContext, timeoutMs: number): AivoryError {
  return new AivoryError(
    'connection',
    `The model server at ${context.baseUrl} stopped sending data for ${Math.round(timeoutMs / 1000)} s.`,
  );
}

/** An error `isAbortError()` recognises, keeping the abort reason as its cause. */
export function canceledError(reason: unknown): Error {
  const error = new Error('The model request was canceled.', { cause: reason });
  error.name = 'AbortError';
  return error;
}

/** The key out of a message; a very short key only where it stands alone (`redactSecrets`). */
function redact(text: string, apiKey: string | null): string {
  return redactSecrets(text, [apiKey]);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SERVER_MESSAGE_LIMIT ? `${flat.slice(0, SERVER_MESSAGE_LIMIT)}…` : flat;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
