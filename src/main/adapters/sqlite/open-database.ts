/**
 * Opens a better-sqlite3 connection with the store's pragmas and brings its schema up to date
 * from the numbered files in `./migrations/` (`001_initial.sql`, `002_….sql`, …).
 */
import { readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { AivoryError } from '../../../shared/errors';

const MIGRATIONS_DIRECTORY = new URL('./migrations/', import.meta.url);
const MIGRATION_FILE = /^(\d+)_[\w-]+\.sql$/;
/** How long a statement waits for another process's write lock before failing with BUSY. */
const BUSY_TIMEOUT_MS = 5000;

interface Migration {
  version: number;
  sql: string;
}

/**
 * Opens (creating if needed) the file at `path` in WAL mode with `synchronous=FULL`, foreign keys
 * on and a busy timeout, then applies pending migrations. Closes the connection if any step fails.
 */
export function openDatabase(path: string): Database.Database {
  const database = new Database(path);
  try {
    database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.pragma('foreign_keys = ON');
    applyMigrations(database, loadMigrations());
    return database;
  } catch (error) {
    database.close();
    throw error;
  }
}

/** The schema version recorded in the file (`PRAGMA user_version`): the last migration applied. */
export function readSchemaVersion(database: Database.Database): number {
  return Number(database.pragma('user_version', { simple: true }));
}

/** Reads `NNN_name.sql` files sorted by number; the numbers must run 1, 2, 3… without gaps. */
function loadMigrations(): Migration[] {
  const migrations: Migration[] = [];
  for (const fileName of readdirSync(MIGRATIONS_DIRECTORY)) {
    const match = MIGRATION_FILE.exec(fileName);
    if (match?.[1] === undefined) continue;
    const sql = readFileSync(new URL(fileName, MIGRATIONS_DIRECTORY), 'utf8');
    migrations.push({ version: Number(match[1]), sql });
  }
  migrations.sort((left, right) => left.version - right.version);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new AivoryError('internal', `Migration ${index + 1} is missing or duplicated.`);
    }
  });
  return migrations;
}

/**
 * Applies each pending migration in its own IMMEDIATE transaction, re-reading the version inside
 * it, so two processes opening a new file at once apply each migration exactly once.
 */
function applyMigrations(database: Database.Database, migrations: readonly Migration[]): void {
  const latest = migrations.at(-1)?.version ?? 0;
  const current = readSchemaVersion(database);
  if (current > latest) {
    throw new AivoryError(
      'config',
      `The database ${database.name} has schema version ${current}, newer than this build ` +
        `knows (${latest}). Update Aivory to open it.`,
    );
  }
  for (const migration of migrations) {
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
