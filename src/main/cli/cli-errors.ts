/** Exit codes of the `aivory` command, and the one-line error every failure prints. */
import { AivoryError } from '../../shared/errors';

export const EXIT_OK = 0;
/** A tool call or turn that ran and failed (tool error, provider error during a turn). */
export const EXIT_FAILED = 1;
/** Bad usage or configuration: nothing ran. */
export const EXIT_USAGE = 2;
/** Connection or authentication problems with a configured server. */
export const EXIT_CONNECTION = 3;
/** Interrupted with Ctrl-C. */
export const EXIT_CANCELED = 130;

export function exitCodeFor(code: string): number {
  if (code === 'connection' || code === 'auth') return EXIT_CONNECTION;
  if (code === 'config' || code === 'invalid-input' || code === 'not-found') return EXIT_USAGE;
  if (code === 'canceled') return EXIT_CANCELED;
  return EXIT_FAILED;
}

/** A usage error: the message says what to type instead. */
export function usageError(message: string): AivoryError {
  return new AivoryError('invalid-input', message);
}
