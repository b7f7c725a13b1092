/** The store's own errors. */
import { AivoryError } from '../../../shared/errors';

/** `not-found`: "<kind> <id> does not exist." */
export function notFound(kind: string, id: string): AivoryError {
  return new AivoryError('not-found', `${kind} ${id} does not exist.`);
}
