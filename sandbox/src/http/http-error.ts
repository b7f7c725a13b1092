/**
 * Errors the HTTP layer answers with. Every failure leaves the server as
 * `{"error":{"code","message"}}` with a 4xx/5xx status; the message is always safe to show.
 */
import { SandboxError } from '../sandbox-service';
import type { SandboxErrorCode } from '../sandbox-service';

export type HttpErrorCode =
  SandboxErrorCode | 'unauthorized' | 'method-not-allowed' | 'request-timeout' | 'internal';

/** The JSON body of every error response. */
export interface ErrorBody {
  error: { code: HttpErrorCode; message: string };
}

/** A failure with the status, code and client-safe message to answer with. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: HttpErrorCode;
  /** Extra response headers, e.g. `Allow` for 405. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    code: HttpErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** Said instead of an unexpected error's own text, which may name host paths or internals. */
export const INTERNAL_ERROR_MESSAGE = 'The sandbox service failed unexpectedly; see its log.';

/**
 * Maps anything thrown by a handler to the response to send. SandboxErrors keep their status,
 * code and message (they are written for clients); anything else becomes a generic 500 and
 * `unexpected` is true so the caller logs the real error.
 */
export function toHttpError(error: unknown): { httpError: HttpError; unexpected: boolean } {
  if (error instanceof HttpError) return { httpError: error, unexpected: false };
  if (error instanceof SandboxError) {
    return {
      httpError: new HttpError(error.status, error.code, error.message),
      unexpected: false,
    };
  }
  return { httpError: new HttpError(500, 'internal', INTERNAL_ERROR_MESSAGE), unexpected: true };
}

export function errorBody(error: HttpError): ErrorBody {
  return { error: { code: error.code, message: error.message } };
}
