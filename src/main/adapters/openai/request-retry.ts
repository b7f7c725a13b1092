/**
 * The adapter's own retry of a request that failed before its response started. The SDK's retry
 * sleeps as long as the server's `Retry-After` says (an hour for `Retry-After: 3600`) on a timer
 * no abort reaches, so Stop and Ctrl-C did nothing (issue 37, item 7): the SDK clients are made
 * with `maxRetries: 0` and every retry goes through `retrying`, which
 *
 * - retries what the SDK did (a lost connection, 408, 409, 429, 5xx, or `x-should-retry: true`;
 *   never a timeout: the request already waited the whole timeout once),
 * - waits what the server asks (`retry-after-ms`, `Retry-After` in seconds or as a date), else
 *   a short backoff (a streamed request says so first: `nextWait` and `pause` apart),
 * - gives up at once, saying how long the server asked to wait, when that is more than
 *   `MAX_RETRY_WAIT_MS` (`retryLaterError`),
 * - stops waiting the moment `signal` is aborted (an abort error, as the request itself throws).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { ProviderErrorContext } from './openai-errors';
import { canceledError, retryLaterError } from './openai-errors';

/** The longest wait the app accepts from a server before a retry; longer is given up at once. */
export const MAX_RETRY_WAIT_MS = 60_000;

/** The first backoff when the server names no wait (doubled per retry, at most 8 s). */
const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/** A wait before the next attempt: how long, and why (the HTTP status, or null for a network failure). */
export interface RetryWait {
  waitMs: number;
  status: number | null;
}

export interface RetryOptions {
  /** Retries after the first attempt (0: none). */
  maxRetries: number;
  signal: AbortSignal;
  context: ProviderErrorContext;
}

/**
 * Runs `attempt`, again after a failure worth retrying (see the file's comment), at most
 * `maxRetries` more times. Throws the last failure as it came (the caller words it), an
 * `AivoryError` from `retryLaterError` when the server asks for too long a wait, or an abort
 * error when `signal` is aborted while waiting.
 */
export async function retrying<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let retriesDone = 0; ; retriesDone += 1) {
    try {
      return await attempt();
    } catch (error) {
      await pause(nextWait(error, retriesDone, options), options.signal);
    }
  }
}

/**
 * The wait before the next attempt after `error`, the `retriesDone`-th failure; throws instead
 * when there is none: `error` itself (not worth retrying, or no retry left), the abort error
 * when `signal` is aborted, `retryLaterError` when the server asks to wait too long.
 */
export function nextWait(error: unknown, retriesDone: number, options: RetryOptions): RetryWait {
  if (options.signal.aborted) throw canceledError(options.signal.reason);
  const wait = retryWaitFor(error, retriesDone);
  if (wait === null) throw error;
  // A wait asked for beyond the cap is said even when no retry was left: "retry later" is the
  // useful part, not "slow down".
  if (wait.waitMs > MAX_RETRY_WAIT_MS) {
    throw retryLaterError(options.context, wait.status, wait.waitMs, error);
  }
  if (retriesDone >= options.maxRetries) throw error;
  return wait;
}

/** Waits `wait.waitMs`; an abort of `signal` ends the wait at once with an abort error. */
export async function pause(wait: RetryWait, signal: AbortSignal): Promise<void> {
  try {
    await sleep(wait.waitMs, undefined, { signal });
  } catch {
    throw canceledError(signal.reason);
  }
}

/** The wait before retrying after `error`, or null when it is not worth retrying. */
function retryWaitFor(error: unknown, retriesDone: number): RetryWait | null {
  if (error instanceof APIConnectionTimeoutError) return null;
  if (error instanceof APIConnectionError) {
    return { waitMs: backoff(retriesDone), status: null };
  }
  if (!(error instanceof APIError) || error.status === undefined) return null;
  if (!shouldRetry(error.status, error.headers)) return null;
  const asked = askedWaitMs(error.headers);
  return { waitMs: asked ?? backoff(retriesDone), status: error.status };
}

/** The SDK's rule, kept: the server's `x-should-retry` first, then the status. */
function shouldRetry(status: number, headers: Headers | undefined): boolean {
  const header = headers?.get('x-should-retry');
  if (header === 'true') return true;
  if (header === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * What the server asks to wait, in ms: `retry-after-ms`, else `Retry-After` as seconds or as an
 * HTTP date (a date past is no wait); null when it names none (or nothing readable).
 */
function askedWaitMs(headers: Headers | undefined, now: number = Date.now()): number | null {
  const milliseconds = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers?.get('retry-after')?.trim() ?? '';
  if (value === '') return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The app's own backoff when the server names no wait: 0.5 s, 1 s, 2 s … at most 8 s, less up to a quarter. */
function backoff(retriesDone: number): number {
  const full = Math.min(BASE_BACKOFF_MS * 2 ** retriesDone, MAX_BACKOFF_MS);
  return full * (1 - Math.random() * 0.25);
}
