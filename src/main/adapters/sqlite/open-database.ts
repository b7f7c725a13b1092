/**
 * Opens a better-sqlite3 connection with the store's pragmas and brings its schema up to date
 * from the numbered migrations in `./migrations/` (SQL text in modules, bundled with the code).
 * A start whose schema is current only reads: it never waits for another process's write lock.
 * An upgrade first saves a copy of the database (`upgrade-snapshots.ts`) and applies every
 * pending migration in one transaction: it happens whole or not at all.
 */
import Database from 'better-sqlite3';
import { AivoryError, StorageError } from '../../../shared/errors';
import { knownDamage } from './damage-marker';
import { MIGRATIONS } from './migrations';
import {
  BUSY_TIMEOUT_MS,
  checkDatabaseFile,
  damagedDatabase,
  storageFault,
} from './storage-faults';
import { pruneUpgradeSnapshots, writeUpgradeSnapshot } from './upgrade-snapshots';

/**
 * How long an upgrading start waits for the write lock: another process may be copying and
 * upgrading the same file (a copy of a large database takes seconds), and this start then only
 * has to see that it is done. Starts whose schema is current take no lock and never wait.
 */
const UPGRADE_BUSY_TIMEOUT_MS = 120_000;

interface Migration {
  version: number;
  sql: string;
}

/** An upgrade this start made: from which schema version to which, and the copy made before. */
export interface SchemaUpgrade {
  fromVersion: number;
  toVersion: number;
  /** Null for a new (empty) database, which needs no copy. */
  snapshotPath: string | null;
}

export interface OpenedDatabase {
  database: Database.Database;
  /** The upgrade this open applied, or null (the schema was current, or another process did it). */
  upgrade: SchemaUpgrade | null;
  /**
   * The file was already known to be damaged (`damage-marker.ts`): the connection is read-only
   * and every write is refused with this error.
   */
  damage: StorageError | null;
}

export interface OpenOptions {
  /** The migrations' SQL in order (default: the app's own); tests pass one made to fail. */
  migrations?: readonly string[];
}

/**
 * Opens (creating if needed) the file at `path` in WAL mode with `synchronous=FULL`, foreign keys
 * on and a busy timeout, then applies pending migrations. A file that is not a database or was
 * cut short is reported before SQLite opens it (`checkDatabaseFile`); so is a database from a
 * newer build, which is never written (not even the header a switch to WAL writes); a file known
 * to be damaged is opened read-only. Closes the connection if any step fails; storage failures
 * are thrown as `StorageError` (`storage-faults.ts`).
 */
export function openDatabase(path: string, options: OpenOptions = {}): OpenedDatabase {
  const migrations = (options.migrations ?? MIGRATIONS).map((sql, index) => ({
    version: index + 1,
    sql,
  }));
  const latest = migrations.at(-1)?.version ?? 0;
  const header = checkDatabaseFile(path);
  if (header !== null) refuseNewer(path, versionBeforeOpening(path, header), latest);
  const damage = header === null ? null : knownDamageError(path);
  let database: Database.Database;
  try {
    database = new Database(path, damage === null ? {} : { readonly: true });
  } catch (error) {
    throw storageFault(error, path) ?? error;
  }
  try {
    database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (damage !== null) {
      // Nothing is written to a damaged file, an upgrade least of all.
      if (readSchemaVersion(database) !== latest) throw damage;
      return { database, upgrade: null, damage };
    }
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.pragma('foreign_keys = ON');
    const upgrade = applyMigrations(database, migrations);
    return { database, upgrade, damage: null };
  } catch (error) {
    const fault = storageFault(error, path);
    database.close();
    throw fault ?? error;
  }
}

/** The schema version recorded in the file (`PRAGMA user_version`): the last migration applied. */
export function readSchemaVersion(database: Database.Database): number {
  return Number(database.pragma('user_version', { simple: true }));
}

/**
 * The file's schema version, read without opening it for writing: from the header when the WAL
 * is empty (then the header is the database), else through a read-only connection (the WAL may
 * hold a newer first page). Neither writes to the file.
 */
function versionBeforeOpening(
  path: string,
  header: { userVersion: number; walBytes: number },
): number {
  if (header.walBytes === 0) return header.userVersion;
  try {
    const reader = new Database(path, { readonly: true, fileMustExist: true });
    try {
      reader.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      return readSchemaVersion(reader);
    } finally {
      reader.close();
    }
  } catch (error) {
    throw storageFault(error, path) ?? error;
  }
}

function refuseNewer(path: string, version: number, latest: number): void {
  if (version <= latest) return;
  throw new AivoryError(
    'config',
    `The database ${path} has schema version ${version}, newer than this build knows ` +
      `(${latest}). Update Aivory to open it.`,
  );
}

function knownDamageError(path: string): StorageError | null {
  const record = knownDamage(path);
  return record === null ? null : damagedDatabase(path, record.detail);
}

/**
 * Applies the pending migrations. The version is read first without a lock: a current schema
 * (every start but the first after an update) takes no write lock, so a start never waits for,
 * or fails on, another process's writing. Otherwise one IMMEDIATE transaction reads the version
 * again (two processes starting at once: the second finds the work done and copies nothing),
 * copies a database that has a schema (`writeUpgradeSnapshot`; a new file needs none), and
 * applies every pending migration: a migration failing leaves the file as it was, and the error
 * names the copy. Returns what was done, or null.
 */
function applyMigrations(
  database: Database.Database,
  migrations: readonly Migration[],
): SchemaUpgrade | null {
  const latest = migrations.at(-1)?.version ?? 0;
  const current = readSchemaVersion(database);
  refuseNewer(database.name, current, latest);
  if (current === latest) return null;
  database.pragma(`busy_timeout = ${UPGRADE_BUSY_TIMEOUT_MS}`);
  try {
    const upgrade = database
      .transaction((): SchemaUpgrade | null => {
        const from = readSchemaVersion(database);
        refuseNewer(database.name, from, latest);
        if (from === latest) return null;
        const snapshotPath = from > 0 ? writeUpgradeSnapshot(database.name, from, latest) : null;
        for (const migration of migrations.filter((entry) => entry.version > from)) {
          try {
            database.exec(migration.sql);
          } catch (error) {
            throw upgradeFailure(error, database.name, migration.version, snapshotPath);
          }
        }
        database.pragma(`user_version = ${latest}`);
        return { fromVersion: from, toVersion: latest, snapshotPath };
      })
      .immediate();
    if (upgrade?.snapshotPath) pruneUpgradeSnapshots(database.name);
    return upgrade;
  } finally {
    database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/**
 * A migration failed (the transaction is rolled back: the file is as it was). Says so, why, and
 * where the copy made before is; a storage failure (a full disk) keeps its kind and remedy.
 */
function upgradeFailure(
  error: unknown,
  path: string,
  version: number,
  snapshotPath: string | null,
): AivoryError {
  const fault = storageFault(error, path);
  const reason = fault?.what ?? (error instanceof Error ? error.message : String(error));
  const what = `The upgrade of ${path} to schema version ${version} failed: ${reason}`;
  const kept =
    snapshotPath === null
      ? 'Your data is unchanged'
      : `Your data is unchanged; a copy made before the upgrade is at ${snapshotPath}`;
  if (fault !== null)
    return new StorageError(fault.problem, {
      what,
      remedy: `${kept}. ${fault.remedy}`,
      path: fault.path,
      ...(fault.copyPath !== null ? { copyPath: fault.copyPath } : {}),
      cause: error,
    });
  return new AivoryError('storage', `${what}. ${kept}.`, { cause: error });
}

/** What a connection actually runs with, for tests and diagnostics. */
export interface ConnectionInfo {
  journalMode: string;
  synchronous: number;
  foreignKeys: boolean;
  busyTimeoutMs: number;
  schemaVersion: number;
}

/** Reads back the pragmas `openDatabase` set and the schema version. */
export function describeConnection(database: Database.Database): ConnectionInfo {
  const pragma = (name: string): unknown => database.pragma(name, { simple: true });
  return {
    journalMode: String(pragma('journal_mode')),
    synchronous: Number(pragma('synchronous')),
    foreignKeys: Number(pragma('foreign_keys')) === 1,
    busyTimeoutMs: Number(pragma('busy_timeout')),
    schemaVersion: readSchemaVersion(database),
  };
}
