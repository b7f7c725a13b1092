/**
 * A conversation's export written to a file as it is made (`exportPieces`), never held whole: the
 * CLI's `conversations export --output FILE` and the app's Export, which hands the file to the
 * UI as a download through the data-file route instead of sending ~14 MB of text in one message.
 * The file appears complete or not at all: it is written beside its name and renamed when done,
 * and a failed write (a full disk, a folder that cannot be written) removes what it wrote.
 */
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { AivoryError, StorageError } from '../../shared/errors';
import { diskFull } from '../policy/storage-errors';

/** Exports the app made for a download are removed after this long (the next export removes them). */
export const APP_EXPORT_LIFETIME_MS = 60 * 60 * 1000;

/** Writes `pieces` to `path` (replacing it only once they are all written); returns the bytes. */
export async function writeExportFile(
  path: string,
  pieces: AsyncIterable<string>,
): Promise<number> {
  const partial = `${path}.${randomUUID().slice(0, 8)}.partial`;
  try {
    const file = await open(partial, 'wx');
    try {
      // One piece at a time, each written whole (appendFile loops over short writes) and awaited.
      for await (const piece of pieces) await file.appendFile(piece);
    } finally {
      await file.close();
    }
    await rename(partial, path);
  } catch (error) {
    await unlink(partial).catch(() => undefined);
    throw writeFault(error, dirname(path));
  }
  return (await stat(path)).size;
}

/** The folder of the app's exports in the data directory (a root of the data-file route). */
export function appExportsFolder(dataDir: string): string {
  return join(dataDir, 'exports');
}

/**
 * Writes an export for the app to hand out as a download: `<data>/exports/<random>/<fileName>`.
 * Exports older than `APP_EXPORT_LIFETIME_MS` are removed first. Returns the file's path.
 */
export async function writeAppExport(
  dataDir: string,
  fileName: string,
  pieces: AsyncIterable<string>,
  now: number = Date.now(),
): Promise<{ path: string; bytes: number }> {
  const own = await newAppExportFolder(dataDir, now);
  const path = join(own, fileName);
  try {
    return { path, bytes: await writeExportFile(path, pieces) };
  } catch (error) {
    await rm(own, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * A new folder for one of the app's exports, `<data>/exports/<random>/`, made after removing the
 * exports older than `APP_EXPORT_LIFETIME_MS`; whoever fails to fill it removes it.
 */
export async function newAppExportFolder(dataDir: string, now: number): Promise<string> {
  const folder = appExportsFolder(dataDir);
  await removeOldExports(folder, now);
  const own = join(folder, randomUUID());
  try {
    await mkdir(own, { recursive: true });
  } catch (error) {
    throw writeFault(error, folder);
  }
  return own;
}

/** Removes the app's exports older than their lifetime (what cannot be removed stays). */
async function removeOldExports(folder: string, now: number): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(folder);
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(folder, entry);
    try {
      if (now - (await stat(path)).mtimeMs > APP_EXPORT_LIFETIME_MS) {
        await rm(path, { recursive: true, force: true });
      }
    } catch {
      // Gone meanwhile, or not ours to remove: the next export tries again.
    }
  }
}

/** A failed write as the user should read it (also the archive writers'). */
export function writeFault(error: unknown, folder: string): unknown {
  if (error instanceof AivoryError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return diskFull(folder, error);
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
    return new StorageError('read-only', {
      what: `Aivory cannot write to ${folder} (${code})`,
      remedy: 'Choose a folder you can write to, or change its permissions, then try again.',
      path: folder,
      cause: error,
    });
  }
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') {
    return new AivoryError('invalid-input', `Cannot write the export to ${folder} (${code}).`, {
      cause: error,
    });
  }
  return error;
}
