/**
 * "This database is known to be damaged", shared by every process that opens it (issue 42,
 * item 5). Damage SQLite finds in one process (`aivory conversations list` reading a broken page)
 * must stop every other door from writing to the file: `aivory chat` started next, a running
 * `aivory serve`, the desktop app. So the first process to find it writes a marker beside the
 * database, `<name>.damaged` (JSON), which every open and every write transaction checks.
 *
 * The marker names the file by identity (device, inode and birth time), not by its path: the
 * ways out that `aivory doctor` gives — recovering into a new file renamed into place, or moving
 * the files away to start afresh — put another file at the path, and the marker then no longer
 * applies (it is removed at the next check), with no step of its own. A repair in place (same
 * file) keeps it until `aivory doctor` reads every page back intact and clears it.
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';

/** What the marker holds: the damaged file's identity, what was found and the copy made. */
export interface DamageRecord {
  /** `dev:ino:birthtime` of the database file when the damage was found. */
  file: string;
  /** What SQLite (or the header check) said, as shown to the user. */
  detail: string;
  /** The copy of the file made when the damage was found, if one could be made. */
  copyPath: string | null;
  /** When it was found (ISO time). */
  foundAt: string;
}

export function damageMarkerPath(databasePath: string): string {
  return `${databasePath}.damaged`;
}

/**
 * Records that the database at `databasePath` is damaged, unless a marker for this very file is
 * already there. Best effort: a marker that cannot be written (a full disk) leaves the finding
 * process refusing writes on its own, as before.
 */
export function recordDamage(databasePath: string, detail: string, copyPath: string | null): void {
  const file = fileIdentity(databasePath);
  if (file === null || readDamage(databasePath)?.file === file) return;
  const record: DamageRecord = { file, detail, copyPath, foundAt: new Date().toISOString() };
  const marker = damageMarkerPath(databasePath);
  const partial = `${marker}.${process.pid}.partial`;
  try {
    writeFileSync(partial, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    renameSync(partial, marker);
  } catch {
    rmSync(partial, { force: true });
  }
}

/**
 * The damage recorded for the file now at `databasePath`, or null. A marker about another file
 * (the user put a recovered or fresh database in its place) is removed. Costs one `stat` when
 * there is no marker, so it is asked before every write transaction.
 */
export function knownDamage(databasePath: string): DamageRecord | null {
  const marker = damageMarkerPath(databasePath);
  if (statSync(marker, { throwIfNoEntry: false }) === undefined) return null;
  const record = readDamage(databasePath);
  const file = fileIdentity(databasePath);
  if (record !== null && file !== null && record.file === file) return record;
  if (file !== null) rmSync(marker, { force: true });
  return null;
}

/** Removes the marker: the file reads back intact again (`aivory doctor`). */
export function clearDamage(databasePath: string): void {
  rmSync(damageMarkerPath(databasePath), { force: true });
}

function readDamage(databasePath: string): DamageRecord | null {
  try {
    const record = JSON.parse(readFileSync(damageMarkerPath(databasePath), 'utf8')) as unknown;
    if (typeof record !== 'object' || record === null) return null;
    const { file, detail, copyPath, foundAt } = record as Record<string, unknown>;
    if (typeof file !== 'string' || typeof detail !== 'string' || typeof foundAt !== 'string')
      return null;
    return { file, detail, copyPath: typeof copyPath === 'string' ? copyPath : null, foundAt };
  } catch {
    return null;
  }
}

/**
 * Which file is at `path`: device, inode and birth time (an inode number freed by a deleted
 * database may be given to the next file created; its birth time differs). Null when none is.
 */
function fileIdentity(path: string): string | null {
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  if (stats === undefined) return null;
  return `${stats.dev}:${stats.ino}:${stats.birthtimeNs}`;
}
