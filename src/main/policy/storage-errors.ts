/** How storage failures are told to the user, where no I/O is needed to tell them. */
import { StorageError } from '../../shared/errors';

/** The disk holding `folder` has no room left. */
export function diskFull(folder: string, cause?: unknown): StorageError {
  return new StorageError('full', {
    what: `The disk holding ${folder} is full`,
    remedy: 'Free some space on it, then try again.',
    path: folder,
    cause,
  });
}
