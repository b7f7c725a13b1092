/**
 * What the user is told when the app cannot open its data folder or database: the `aivory`
 * command's stderr line and the desktop app's error box say the same. Nothing here points to the
 * log, which may not exist (a read-only folder, a full disk: the context that writes it never
 * opened), so an error without a message for the user is shown by its own one-line message.
 */
import { AivoryError, toPublicError } from '../../shared/errors';
import type { PublicError } from '../../shared/turn-events';

/** Longest piece of an unexpected error's own message that is shown. */
const MAX_DETAIL_CHARACTERS = 300;

/** The title of the desktop app's error box. */
export const STARTUP_FAILURE_TITLE = 'Aivory could not start';

/**
 * The `{ code, message }` for a failure while opening the app over `dataDir`: an `AivoryError`'s
 * own (full disk, locked or damaged database, read-only folder — each names the path and what to
 * do), else one that names the folder and the error's first line, without a stack.
 */
export function startupFailure(error: unknown, dataDir: string): PublicError {
  if (error instanceof AivoryError) return toPublicError(error);
  const text = error instanceof Error ? error.message : String(error);
  const detail = text.replace(/\s+/g, ' ').trim().slice(0, MAX_DETAIL_CHARACTERS);
  return {
    code: 'internal',
    message: `Aivory could not open its data folder ${dataDir}: ${detail || 'unknown error'}`,
  };
}
