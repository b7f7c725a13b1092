/**
 * Opens a better-sqlite3 connection with the store's pragmas and brings its schema up to date
 * from the numbered migrations in `./migrations/` (SQL text in modules, bundled with the code).
 * A start whose schema is current only reads: it never waits for another process's write lock.
 */
import Database from 'better-sqlite3';
import { AivoryError } from '../../../shared/errors';
import { MIGRATIONS } from './migrations';
import { BUSY_TIMEOUT_MS, checkDatabaseFile, storageFault } from './storage-faults';

interface Migration {
  version: number;
  sql: string;
}

/**
 * Opens (creating if needed) the file at `path` in WAL mode with `synchronous=FULL`, foreign keys
 * on and a busy timeout, then applies pending migrations. A file that is not a database or was
 * cut short is reported before SQLite opens it (`checkDatabaseFile`). Closes the connection if
 * any step fails; storage failures are thrown as `StorageError` (`storage-faults.ts`).
 */
export function openDatabase(path: string): Database.Database {
  checkDatabaseFile(path);
  let database: Database.Database;
  try {
    database = new Database(path);
  } catch (error) {
    throw storageFault(error, path) ?? error;
  }
  try {
    database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.pragma('foreign_keys = ON');
    applyMigrations(database, loadMigrations());
    return database;
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

/** The migrations with their versions (1, 2, 3… in order). */
function loadMigrations(): Migration[] {
  return MIGRATIONS.map((sql, index) => ({ version: index + 1, sql }));
}

/**
 * Applies each pending migration in its own IMMEDIATE transaction, re-reading the version inside
 * it, so two processes opening a new file at once apply each migration exactly once. The version
 * is read first without a lock: a current schema (every start but the first after an update)
 * takes no write lock, so a start never waits for, or fails on, another process's writing.
 */
function applyMigrations(database: Database.Database, migrations: readonly Migration[]): void {
  const latest = migrations.at(-1)?.version ?? 0;
  const current = readSchemaVersion(database);
  if (current === latest) return;
  if (current > latest) {
    throw new AivoryError(
      'config',
      `The database ${database.name} has schema version ${current}, newer than this build ` +
        `knows (${latest}). Update Aivory to open it.`,
    );
  }
  for (const migration of migrations.filter((entry) => entry.version > current)) {
    database
      .transaction(() => {
        if (readSchemaVersion(database) >= migration.version) return;
        database.exec(migration.sql);
        database.pragma(`user_version = ${migration.version}`);
      })
      .immediate();
  }
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
