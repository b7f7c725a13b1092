/**
 * Where Aivory keeps its data (database, secrets, logs): `AIVORY_HOME` when set, otherwise the
 * directory Electron uses as `userData` for the app name "Aivory", so the desktop app and the CLI
 * share one data directory without configuration.
 */
import { mkdirSync, statSync } from 'node:fs';
import { AivoryError } from '../../shared/errors';
import { readOnlyFolderError } from './sqlite/storage-faults';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

const APP_NAME = 'Aivory';
/** Owner only: the directory holds the conversation database and the secrets file. */
const DATA_DIR_MODE = 0o700;

/**
 * The data directory for `platform`: `AIVORY_HOME` if set (made absolute), else Electron's
 * `userData` default: `$XDG_CONFIG_HOME/Aivory` or `~/.config/Aivory` on Linux and other Unixes,
 * `~/Library/Application Support/Aivory` on macOS, `%APPDATA%\Aivory` on Windows (falling back
 * to `~\AppData\Roaming\Aivory`). Pure: reads nothing but its arguments.
 */
export function resolveDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const paths = platform === 'win32' ? win32 : posix;
  const override = env.AIVORY_HOME?.trim();
  if (override) return paths.isAbsolute(override) ? override : paths.resolve(override);
  switch (platform) {
    case 'win32': {
      const appData = env.APPDATA?.trim();
      return paths.join(appData ? appData : paths.join(home, 'AppData', 'Roaming'), APP_NAME);
    }
    case 'darwin':
      return paths.join(home, 'Library', 'Application Support', APP_NAME);
    default: {
      // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
      const configHome = env.XDG_CONFIG_HOME?.trim();
      const base =
        configHome && paths.isAbsolute(configHome) ? configHome : paths.join(home, '.config');
      return paths.join(base, APP_NAME);
    }
  }
}

/**
 * Creates `dir` and any missing parents, new ones with mode 0700 (before the umask). An existing
 * directory is left as it is: it may be one the user chose and shares on purpose. Throws a
 * `config` error naming the folder when it cannot be created or written.
 */
export function ensureDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
    // A file of that name (or one on the way) passes mkdir's `recursive` on some platforms.
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error(dir), { code: 'ENOTDIR' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const why =
      code === 'ENOTDIR' || code === 'EEXIST'
        ? 'a file is in the way'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EROFS'
            ? 'read-only file system'
            : code;
    throw new AivoryError(
      'config',
      `Cannot use the data directory ${dir} (${why}). Set AIVORY_HOME to a folder you can write.`,
    );
  }
  // An existing folder on a read-only mount (or without write permission) is reported here, by
  // name, before the log, the database or the secrets fail on it one by one.
  const readOnly = readOnlyFolderError(dir);
  if (readOnly !== null) throw readOnly;
}
