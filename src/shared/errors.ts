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
  | 'storage'
  /** Something else is using what was asked for (a conversation answering elsewhere): try later. */
  | 'busy'
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

/**
 * What went wrong with the data folder or its database: the disk is full, another program holds
 * the database's lock, the file is damaged, the folder cannot be written, or the disk failed.
 */
export type StorageProblem = 'full' | 'locked' | 'damaged' | 'read-only' | 'disk-error';

/**
 * The data folder or its database failed. `what` says what happened, naming the path; `remedy`
 * what the user can do; the message is both. A caller that knows more (a streamed answer that
 * could not be saved) words its own message from the two. A read-only folder is a `config`
 * error (the user must point Aivory elsewhere); the rest are `storage`.
 */
export class StorageError extends AivoryError {
  readonly problem: StorageProblem;
  readonly what: string;
  readonly remedy: string;
  /** The database file (or, for a read-only folder, the folder) concerned. */
  readonly path: string;
  /** For a damaged database: the copy of it made before anything else happened. */
  readonly copyPath: string | null;

  constructor(
    problem: StorageProblem,
    details: { what: string; remedy: string; path: string; copyPath?: string; cause?: unknown },
  ) {
    super(problem === 'read-only' ? 'config' : 'storage', `${details.what}. ${details.remedy}`, {
      cause: details.cause,
    });
    this.name = 'StorageError';
    this.problem = problem;
    this.what = details.what;
    this.remedy = details.remedy;
    this.path = details.path;
    this.copyPath = details.copyPath ?? null;
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
