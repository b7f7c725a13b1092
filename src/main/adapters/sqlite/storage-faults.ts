/**
 * SQLite's and the file system's failures as the user should read them (`StorageError`): a full
 * disk, a lock another program holds, a damaged database (left as it is, with a copy made beside
 * it), a read-only folder, a failing disk. Every other error is left to the caller.
 */
import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  openSync,
  readSync,
  statfsSync,
  statSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { StorageError } from '../../../shared/errors';
import { diskFull } from '../../policy/storage-errors';
import { recordDamage } from './damage-marker';

/** How long a statement waits for another process's write lock before failing with BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Below this much free space a failed write is taken for a full disk: SQLite writes pages of
 * 4 KiB and grows its shared-memory index by 32 KiB, so less than this cannot take a write.
 */
const FULL_DISK_BYTES = 64 * 1024;

/** The first 16 bytes of every SQLite database file. */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;

/**
 * `error` as a `StorageError` about the database at `databasePath` (or its folder), or null when
 * it is not a storage failure (a constraint, a bug). A damaged database is copied beside itself
 * here, before anything else can touch it.
 */
export function storageFault(
  error: unknown,
  databasePath: string,
  context: { written?: boolean } = {},
): StorageError | null {
  if (error instanceof StorageError) return error;
  const code = errorCode(error);
  if (code === null) return null;
  const folder = dirname(databasePath);
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT')
    return diskFull(folder, error);
  if (code.startsWith('SQLITE_BUSY')) return databaseLocked(databasePath, error);
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return damagedDatabase(databasePath, errorText(error), error, context);
  const readOnly =
    code.startsWith('SQLITE_READONLY') ||
    code === 'EROFS' ||
    code === 'EACCES' ||
    code === 'EPERM' ||
    (code === 'SQLITE_CANTOPEN' && !isWritable(folder));
  if (readOnly) return readOnlyData(databasePath, code, error);
  if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN' || code === 'EIO') {
    // SQLite reports some writes on a full disk (growing its shared-memory index) as I/O errors.
    if (freeBytes(folder) < FULL_DISK_BYTES) return diskFull(folder, error);
    return new StorageError('disk-error', {
      what: `Aivory could not read or write the database ${databasePath} (${code}: ${errorText(error)})`,
      remedy: 'Check that the disk holding it is attached and healthy, then try again.',
      path: databasePath,
      cause: error,
    });
  }
  return null;
}

/**
 * Checks the database file's header before SQLite opens it, so a file that is not a database or
 * was cut short is reported (and copied) without ever being opened for writing. A missing or
 * empty file passes (SQLite creates the database): null. Else returns the header's schema
 * version (`user_version`, bytes 60–63) and the size of the WAL beside it (when that is not
 * empty, the WAL may hold a newer header). Throws the `damaged` StorageError.
 */
export function checkDatabaseFile(path: string): { userVersion: number; walBytes: number } | null {
  const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  if (size === 0) return null;
  const header = Buffer.alloc(HEADER_BYTES);
  let read: number;
  try {
    const descriptor = openSync(path, 'r');
    try {
      read = readSync(descriptor, header, 0, HEADER_BYTES, 0);
    } finally {
      closeSync(descriptor);
    }
  } catch {
    return null; // Unreadable: SQLite says why when it opens the file.
  }
  if (read < HEADER_BYTES || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    throw damagedDatabase(path, 'it is not a SQLite database file');
  }
  // The header's page count is valid when its change counter matches "version valid for"; a
  // non-empty WAL may still hold pages a checkpoint was writing, so then SQLite decides.
  const pageSizeField = header.readUInt16BE(16);
  const pageSize = pageSizeField === 1 ? 65_536 : pageSizeField;
  const pages = header.readUInt32BE(28);
  const countValid = pages > 0 && header.readUInt32BE(24) === header.readUInt32BE(92);
  const walBytes = statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  if (countValid && walBytes === 0 && size < pages * pageSize) {
    throw damagedDatabase(
      path,
      `it is cut short: ${size.toLocaleString('en-US')} of ${(pages * pageSize).toLocaleString('en-US')} bytes`,
    );
  }
  return { userVersion: header.readInt32BE(60), walBytes };
}

/** Another program kept the database's lock for longer than the busy timeout. */
export function databaseLocked(databasePath: string, cause?: unknown): StorageError {
  return new StorageError('locked', {
    what: `The database ${databasePath} is locked by another program (Aivory waited ${BUSY_TIMEOUT_MS / 1000} s for it)`,
    remedy:
      'Close the program holding it (a database browser, a backup or sync tool, another Aivory busy writing), then try again.',
    path: databasePath,
    cause,
  });
}

/**
 * The database is damaged: copies it (and its WAL) beside itself as `<name>.damaged-<time it was
 * last changed>` unless that copy exists, so the bytes as found survive whatever is tried next,
 * records the damage for every process (`damage-marker.ts`: no door writes to it any more) and
 * says so. `written`: this process had already written to the file before the damage showed, so
 * the message must not claim the file is as it was.
 */
export function damagedDatabase(
  databasePath: string,
  detail: string,
  cause?: unknown,
  { written = false }: { written?: boolean } = {},
): StorageError {
  const copy = copyDamaged(databasePath);
  recordDamage(databasePath, detail, copy.path);
  const kept = written
    ? 'Aivory had written to it before the damage showed; it has stopped writing to it'
    : 'Aivory has not changed it';
  const remedy =
    copy.path !== null
      ? `${kept} and saved a copy as ${copy.path}; run aivory doctor to see how to recover.`
      : `${kept} (a copy could not be made: ${copy.reason}); run aivory doctor to see how to recover.`;
  return new StorageError('damaged', {
    what: `The database ${databasePath} is damaged (${detail})`,
    remedy,
    path: databasePath,
    ...(copy.path !== null ? { copyPath: copy.path } : {}),
    cause,
  });
}

function copyDamaged(databasePath: string): { path: string | null; reason: string } {
  try {
    const changed = statSync(databasePath)
      .mtime.toISOString()
      .replace(/[-:]|\.\d+/g, '');
    const copy = `${databasePath}.damaged-${changed}`;
    if (!existsSync(copy)) {
      copyFileSync(databasePath, copy, constants.COPYFILE_EXCL);
      const wal = `${databasePath}-wal`;
      if ((statSync(wal, { throwIfNoEntry: false })?.size ?? 0) > 0)
        copyFileSync(wal, `${copy}-wal`, constants.COPYFILE_EXCL);
    }
    return { path: copy, reason: '' };
  } catch (error) {
    return { path: null, reason: errorCode(error) ?? errorText(error) };
  }
}

function readOnlyData(databasePath: string, code: string, cause: unknown): StorageError {
  const folder = dirname(databasePath);
  const folderBlock = writeBlock(folder);
  if (folderBlock !== null) return readOnlyFolder(folder, folderBlock, cause);
  return new StorageError('read-only', {
    what: `The database ${databasePath} is read-only (${code === 'EROFS' ? 'read-only file system' : 'no permission to write'})`,
    remedy:
      'Aivory keeps your conversations in it and must write to it: make the file writable, or set AIVORY_HOME to a folder you can write.',
    path: databasePath,
    cause,
  });
}

/**
 * The data folder cannot be written; `code` is why (`EROFS` for a read-only mount). Null when it
 * can: `ensureDataDir` asks this once at every start, before anything is opened there.
 */
export function readOnlyFolderError(folder: string): StorageError | null {
  const block = writeBlock(folder);
  return block === null ? null : readOnlyFolder(folder, block);
}

function readOnlyFolder(folder: string, code: string, cause?: unknown): StorageError {
  return new StorageError('read-only', {
    what: `The data folder ${folder} is read-only (${code === 'EROFS' ? 'read-only file system' : 'no permission to write'})`,
    remedy:
      'Aivory keeps its database there and must write to it: make the folder writable, or set AIVORY_HOME to a folder you can write.',
    path: folder,
    cause,
  });
}

/** True when this process may create files in `folder` (false on a read-only mount). */
export function isWritable(folder: string): boolean {
  return writeBlock(folder) === null;
}

/** Why this process may not create files in `folder` (EROFS, EACCES, …), or null when it may. */
function writeBlock(folder: string): string | null {
  try {
    accessSync(folder, constants.W_OK);
    return null;
  } catch (error) {
    return errorCode(error) ?? 'EACCES';
  }
}

function freeBytes(folder: string): number {
  try {
    const stats = statfsSync(folder);
    return stats.bavail * stats.bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function errorCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').slice(0, 200);
}
