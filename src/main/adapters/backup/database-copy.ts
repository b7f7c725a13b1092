/**
 * A consistent copy of the live database, made with SQLite's online backup API (never a copy of
 * the file: a WAL database's file alone is not the database). Pages move in steps of
 * `PAGES_PER_STEP` with the event loop running between them, so `aivory serve` keeps answering
 * while a large database is copied; writes through the same connection are carried into the copy
 * as it goes. Another process's write restarts the copy from the first page, so after
 * `MAX_RESTARTS` restarts the rest is copied in one step (one read transaction; writers in WAL
 * mode are not blocked by it). The copy is then a standalone file (journal mode DELETE), checked
 * with `PRAGMA integrity_check` and counted.
 */
import Database from 'better-sqlite3';
import { AivoryError } from '../../../shared/errors';
import { COUNTED_TABLES } from './backup-format';

const PAGES_PER_STEP = 256;
const MAX_RESTARTS = 3;
const ALL_PAGES = 0x7fffffff;

/** What a database file holds, as a backup records and a verification compares. */
export interface DatabaseFacts {
  schemaVersion: number;
  counts: Record<string, number>;
}

/** Copies `source` to `target` (a path that must not exist yet) and returns the copy's facts. */
export async function copyDatabase(
  source: Database.Database,
  target: string,
  signal?: AbortSignal,
): Promise<DatabaseFacts> {
  let lastRemaining = Number.POSITIVE_INFINITY;
  let restarts = 0;
  await source.backup(target, {
    progress: ({ remainingPages }) => {
      signal?.throwIfAborted();
      if (remainingPages > lastRemaining) restarts += 1;
      lastRemaining = remainingPages;
      return restarts >= MAX_RESTARTS ? ALL_PAGES : PAGES_PER_STEP;
    },
  });
  const copy = new Database(target);
  try {
    copy.pragma('journal_mode = DELETE');
    return checkedFacts(copy, target);
  } finally {
    copy.close();
  }
}

/**
 * Opens the database file at `path` read-only, runs `PRAGMA integrity_check` and counts its rows.
 * A damaged file is an `AivoryError('storage')` naming the first problem SQLite reports.
 */
export function readDatabaseFacts(path: string): DatabaseFacts {
  let database: Database.Database;
  try {
    database = new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new AivoryError('storage', `The backup's database cannot be opened: ${firstLine(error)}`);
  }
  try {
    return checkedFacts(database, path);
  } finally {
    database.close();
  }
}

function checkedFacts(database: Database.Database, path: string): DatabaseFacts {
  let verdict: string;
  try {
    verdict = String(database.pragma('integrity_check(1)', { simple: true }));
  } catch (error) {
    throw new AivoryError('storage', `The database ${path} is damaged: ${firstLine(error)}`);
  }
  if (verdict !== 'ok') {
    throw new AivoryError('storage', `The database ${path} is damaged: ${verdict}`);
  }
  const present = new Set(
    database
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
      .pluck()
      .all()
      .map(String),
  );
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    if (!present.has(table)) continue;
    counts[table] = Number(database.prepare(`SELECT count(*) FROM ${table}`).pluck().get());
  }
  return { schemaVersion: Number(database.pragma('user_version', { simple: true })), counts };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
