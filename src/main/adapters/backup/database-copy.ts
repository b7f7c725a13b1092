/**
 * A consistent copy of the live database, made with SQLite's online backup API (never a copy of
 * the file: a WAL database's file alone is not the database). Pages move in steps of
 * `PAGES_PER_STEP` with the event loop running between them, so `aivory serve` keeps answering
 * while a large database is copied; writes through the same connection are carried into the copy
 * as it goes. Another process's write restarts the copy from the first page, so after
 * `MAX_RESTARTS` restarts the rest is copied in one step (one read transaction; writers in WAL
 * mode are not blocked by it). The copy is then made a standalone file (journal mode DELETE),
 * checked with `PRAGMA integrity_check` and counted, in a worker (`database-check.ts`).
 */
import type Database from 'better-sqlite3';
import { checkDatabase, type DatabaseFacts } from './database-check';

export type { DatabaseFacts };

const PAGES_PER_STEP = 256;
const MAX_RESTARTS = 3;
const ALL_PAGES = 0x7fffffff;

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
  return checkDatabase(target, { standalone: true });
}
