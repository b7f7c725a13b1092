/**
 * The copy of the database made before a schema upgrade (issue 42, item 1), so an upgrade that
 * goes wrong, or a build that reads the new schema wrongly, has something to go back to. Written
 * beside the database as `<name>.before-upgrade-v<from>-to-v<to>-<UTC time>` (for example
 * `aivory.db.before-upgrade-v16-to-v17-20260101T120000Z`), a database of its own (rollback
 * journal, no WAL beside it) that SQLite or Aivory opens as it is. The last three are kept.
 */
import { closeSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { formatBytes } from '../../../shared/byte-size';
import { AivoryError, StorageError } from '../../../shared/errors';
import { BUSY_TIMEOUT_MS, storageFault } from './storage-faults';

/** How many snapshots are kept; older ones are deleted after an upgrade. */
export const KEPT_SNAPSHOTS = 3;

/** A snapshot kept beside the database, for `aivory doctor`. */
export interface UpgradeSnapshot {
  path: string;
  bytes: number;
  /** The schema version it holds and the one the upgrade went to. */
  fromVersion: number;
  toVersion: number;
  /** When it was made (ms since the epoch, from its name). */
  madeAt: number;
}

const SNAPSHOT_NAME = /\.before-upgrade-v(\d+)-to-v(\d+)-(\d{8}T\d{6}Z)$/;

/**
 * Writes a consistent copy of the database at `databasePath` (schema `from`, about to become
 * `to`) beside it and returns its path. The caller holds the write lock, so the copy is the last
 * committed state and no other process upgrades meanwhile; it is read through a connection of
 * its own (`VACUUM INTO` refuses to run inside a transaction), which in WAL mode is not blocked
 * by that lock. Written under a `.partial` name, owner-only, and renamed when complete: a full
 * disk or a crash leaves no half copy under a snapshot's name. Throws a `StorageError`.
 */
export function writeUpgradeSnapshot(
  databasePath: string,
  from: number,
  to: number,
  now: Date = new Date(),
): string {
  const path = `${databasePath}.before-upgrade-v${from}-to-v${to}-${timeStamp(now)}`;
  const partial = `${path}.partial`;
  let source: Database.Database | null = null;
  try {
    rmSync(partial, { force: true });
    // VACUUM INTO writes into an existing empty file, which keeps the mode it was made with.
    closeSync(openSync(partial, 'wx', 0o600));
    source = new Database(databasePath, { readonly: true, fileMustExist: true });
    source.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // VACUUM INTO syncs the copy as the source's `synchronous` says.
    source.pragma('synchronous = FULL');
    source.prepare('VACUUM INTO ?').run(partial);
    source.close();
    source = null;
    renameSync(partial, path);
    return path;
  } catch (error) {
    source?.close();
    rmSync(partial, { force: true });
    throw snapshotFailure(error, databasePath, to);
  }
}

/**
 * The snapshots kept beside the database at `databasePath`, newest first. Only files named like
 * one are listed (and pruned): nothing else in the folder is touched.
 */
export function listUpgradeSnapshots(databasePath: string): UpgradeSnapshot[] {
  const folder = dirname(databasePath);
  const prefix = basename(databasePath);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const snapshots: UpgradeSnapshot[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = SNAPSHOT_NAME.exec(name.slice(prefix.length));
    if (match === null) continue;
    const path = join(folder, name);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined || !stats.isFile()) continue;
    snapshots.push({
      path,
      bytes: stats.size,
      fromVersion: Number(match[1]),
      toVersion: Number(match[2]),
      madeAt: parseTimeStamp(match[3] ?? ''),
    });
  }
  return snapshots.sort((a, b) => b.madeAt - a.madeAt || b.toVersion - a.toVersion);
}

/** Deletes all but the newest `KEPT_SNAPSHOTS` snapshots; best effort (a failure is kept). */
export function pruneUpgradeSnapshots(databasePath: string): void {
  for (const old of listUpgradeSnapshots(databasePath).slice(KEPT_SNAPSHOTS))
    rmSync(old.path, { force: true });
}

/** `20260101T120000Z`: UTC, sortable, safe in a file name everywhere. */
function timeStamp(time: Date): string {
  return time.toISOString().replace(/[-:]|\.\d+/g, '');
}

function parseTimeStamp(stamp: string): number {
  const iso = stamp.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z');
  return Date.parse(iso);
}

/**
 * Why the copy could not be made, as the user reads it: the upgrade is refused (nothing was
 * changed). A full disk says how much room the copy needs.
 */
function snapshotFailure(error: unknown, databasePath: string, to: number): AivoryError {
  const fault = storageFault(error, databasePath);
  const before = `before upgrading it to schema version ${to}; it was not upgraded and is unchanged`;
  if (fault?.problem === 'full') {
    const size = statSync(databasePath, { throwIfNoEntry: false })?.size ?? 0;
    return new StorageError('full', {
      what: `The disk holding ${dirname(databasePath)} is full: Aivory could not save a copy of the database ${databasePath} (about ${formatBytes(size)}) ${before}`,
      remedy: 'Free some space on it, then try again.',
      path: dirname(databasePath),
      cause: error,
    });
  }
  if (fault !== null) return fault;
  const reason = error instanceof Error ? error.message : String(error);
  return new AivoryError(
    'storage',
    `Aivory could not save a copy of the database ${databasePath} ${before} (${reason}).`,
    { cause: error },
  );
}
