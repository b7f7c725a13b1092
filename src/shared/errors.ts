/**
 * Errors that cross a boundary are `{ code, message }`, never stacks. `AivoryError` carries a
 * code and a message that is safe to show; anything else becomes `internal` with a generic text.
 */
import type { PublicError } from './turn-events';

export type ErrorCode =
  | 'config'
  | 'connection'
  | 'auth'
  | 'not-found'
  | 'invalid-input'
  | 'provider'
  | 'canceled'
  | 'internal';

/** An error whose message is written for the user and is safe to show as is. */
export class AivoryError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AivoryError';
    this.code = code;
  }
}

/** Turns any thrown value into a public `{ code, message }`. */
export function toPublicError(error: unknown): PublicError {
  if (error instanceof AivoryError) return { code: error.code, message: error.message };
  if (isAbortError(error)) return { code: 'canceled', message: 'The operation was canceled.' };
  return { code: 'internal', message: 'An internal error occurred; see the log for details.' };
}

/** True for the errors an aborted AbortSignal produces (DOM AbortError, openai's, undici's). */
export function isAbortError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'AbortError' ||
    error.name === 'APIUserAbortError' ||
    ('code' in error && error.code === 'ABORT_ERR')
  );
}
