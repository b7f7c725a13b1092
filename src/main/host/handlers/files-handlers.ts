/**
 * `files.open` / `files.reveal`: the desktop's "open" and "show in folder" for a message's files.
 * Only files of the data directory's artifacts/ and uploads/ folders (real paths checked, see
 * `../files/data-files.ts`); the Electron shell supplies the opener. The browser host has none and
 * answers that these are desktop features (it offers a download link instead).
 *
 * "Open" hands a file to the system's default app, so a tool's output named `run-me.bat` would run
 * on one click: only documents, raster images and media whose bytes agree with their extension are
 * opened (`shared/openable-files.ts`); anything else is refused with "show in folder" as the way.
 */
import { basename } from 'node:path';
import { AivoryError } from '../../../shared/errors';
import { fileExtension, OPENABLE_SNIFF_BYTES, openableFile } from '../../../shared/openable-files';
import type { ApiHandlers } from '../dispatcher';
import { dataFileRoots, readHead, resolveDataFile } from '../files/data-files';
import type { HostContext } from '../host-context';

/** What the desktop shell does with a file (Electron's `shell.openPath` / `showItemInFolder`). */
export interface DesktopShell {
  /** Opens the file with the system's default app; resolves to an error text, '' on success. */
  openPath(path: string): Promise<string>;
  /** Shows the file selected in the system's file manager. */
  showItemInFolder(path: string): void;
  /** The system's "choose a folder" dialog (MCP roots): the folder, or null when canceled. */
  pickFolder?(): Promise<string | null>;
}

type FilesHandlers = Pick<ApiHandlers, 'files.open' | 'files.reveal'>;

/** The files handlers over the host context. */
export function createFilesHandlers(context: HostContext): FilesHandlers {
  const roots = dataFileRoots(context.app.dataDir, context.env);
  const prepare = async (path: string): Promise<{ shell: DesktopShell; file: string }> => {
    const shell = context.desktop;
    if (!shell) {
      throw new AivoryError(
        'config',
        'Opening files is only available in the desktop app; use Download in the browser.',
      );
    }
    const file = await resolveDataFile(roots, path);
    if (file === null) throw new AivoryError('not-found', "No such file among Aivory's files.");
    return { shell, file };
  };
  return {
    'files.open': async ({ path }) => {
      const { shell, file } = await prepare(path);
      const name = basename(file);
      if (openableFile(name, await readHead(file, OPENABLE_SNIFF_BYTES)) === null) {
        const extension = fileExtension(name);
        throw new AivoryError(
          'invalid-input',
          `Aivory opens only documents, images and media whose contents match their type; ` +
            `"${name}" (${extension === '' ? 'no extension' : extension}) is not opened, since ` +
            `it could run as a program. Use "Show in folder" to look at it.`,
        );
      }
      const failure = await shell.openPath(file);
      if (failure !== '') {
        context.app.logger.warn('opening a file failed', { error: failure });
        throw new AivoryError('config', 'The system could not open this file.');
      }
      return { ok: true };
    },
    'files.reveal': async ({ path }) => {
      const { shell, file } = await prepare(path);
      shell.showItemInFolder(file);
      return { ok: true };
    },
  };
}
