/** Exit codes of the `aivory` command, and the one-line error every failure prints. */
import { AivoryError } from '../../shared/errors';

export const EXIT_OK = 0;
/** A tool call or turn that ran and failed (tool error, provider error during a turn). */
export const EXIT_FAILED = 1;
/** Bad usage or configuration: nothing ran. */
export const EXIT_USAGE = 2;
/** Connection or authentication problems with a configured server. */
export const EXIT_CONNECTION = 3;
/**
 * Refused because something else is using it: a turn is running in the same conversation in
 * another window or process. Nothing was stored or sent; the same command works once it is done.
 */
export const EXIT_BUSY = 4;
/** Interrupted with Ctrl-C. */
export const EXIT_CANCELED = 130;

export function exitCodeFor(code: string): number {
  if (code === 'connection' || code === 'auth') return EXIT_CONNECTION;
  if (code === 'config' || code === 'invalid-input' || code === 'not-found') return EXIT_USAGE;
  if (code === 'canceled') return EXIT_CANCELED;
  if (code === 'busy') return EXIT_BUSY;
  return EXIT_FAILED;
}

/** A usage error: the message says what to type instead. */
export function usageError(message: string): AivoryError {
  return new AivoryError('invalid-input', message);
}

/**
 * A native module (better-sqlite3) that cannot load — most often built for another Node.js
 * version, after Node was upgraded — as a configuration error that says how to fix it, instead
 * of "an internal error" (the log cannot be written yet: the store never opened). Null for any
 * other error.
 */
export function nativeModuleError(error: unknown): AivoryError | null {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  if (code !== 'ERR_DLOPEN_FAILED' && !message.includes('NODE_MODULE_VERSION')) return null;
  const name = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(message)?.[1] ?? null;
  const versions = /NODE_MODULE_VERSION \d+\.[^]*?NODE_MODULE_VERSION \d+/.exec(message)?.[0];
  const why = versions ? ` (built for another Node.js: ${versions.replace(/\s+/g, ' ')})` : '';
  return new AivoryError(
    'config',
    `${name ?? 'A native module'} could not be loaded${why}. Rebuild it for this Node.js (${process.version}): npm rebuild${name ? ` ${name}` : ''}`,
  );
}
