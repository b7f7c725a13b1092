/**
 * The message shown when the app cannot open: the `aivory` command prints it and the Electron
 * main process shows it in an error box (`src/main/electron/index.ts`; Electron cannot run on the
 * build machines, so this function is what is tested).
 */
import { describe, expect, it } from 'vitest';
import { AivoryError, StorageError } from '../../../src/shared/errors';
import { startupFailure } from '../../../src/main/services/startup-failure';

describe('startupFailure', () => {
  it('shows a storage error as the CLI does: what, where and what to do', () => {
    const locked = new StorageError('locked', {
      what: 'The database /data/aivory.db is locked by another program (Aivory waited 5 s for it)',
      remedy: 'Close the program holding it, then try again.',
      path: '/data/aivory.db',
    });
    expect(startupFailure(locked, '/data')).toEqual({
      code: 'storage',
      message:
        'The database /data/aivory.db is locked by another program (Aivory waited 5 s for it). ' +
        'Close the program holding it, then try again.',
    });
    const readOnly = new StorageError('read-only', { what: 'W', remedy: 'R.', path: '/data' });
    expect(startupFailure(readOnly, '/data')).toEqual({ code: 'config', message: 'W. R.' });
  });

  it('names the folder and the error itself, never the log that was not opened', () => {
    const error = new Error('EMFILE: too many open files,\n    at open (node:fs:1)');
    const failure = startupFailure(error, '/data');
    expect(failure).toEqual({
      code: 'internal',
      message:
        'Aivory could not open its data folder /data: EMFILE: too many open files, at open (node:fs:1)',
    });
    expect(failure.message).not.toContain('log');
    expect(startupFailure(new AivoryError('config', 'Set it.'), '/data').message).toBe('Set it.');
  });
});
