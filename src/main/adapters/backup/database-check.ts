/**
 * `PRAGMA integrity_check` and the row counts of a database copy, in a worker thread: both read
 * every page, which for a large database holds a thread for seconds, and `aivory serve` and the
 * desktop app answer every request on their main thread (bench/backup.ts measured a 114 ms block
 * for a 5 MiB database done inline). The worker's source is plain JavaScript evaluated by the
 * worker (no build step or extra file, as for PDF text); it loads better-sqlite3 from the path
 * the main thread resolved.
 */
import { createRequire } from 'node:module';
import { AivoryError } from '../../../shared/errors';
import { COUNTED_TABLES } from './backup-format';

/** What a database file holds, as a backup records and a verification compares. */
export interface DatabaseFacts {
  schemaVersion: number;
  counts: Record<string, number>;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
function check() {
  const Database = require(workerData.driver);
  const database = new Database(workerData.path, { readonly: !workerData.standalone, fileMustExist: true });
  try {
    if (workerData.standalone) database.pragma('journal_mode = DELETE');
    const verdict = String(database.pragma('integrity_check(1)', { simple: true }));
    if (verdict !== 'ok') return { ok: false, damaged: verdict };
    const present = new Set(database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all());
    const counts = {};
    for (const table of workerData.tables) {
      if (present.has(table)) counts[table] = Number(database.prepare('SELECT count(*) FROM "' + table + '"').pluck().get());
    }
    return { ok: true, schemaVersion: Number(database.pragma('user_version', { simple: true })), counts };
  } finally {
    database.close();
  }
}
try {
  parentPort.postMessage(check());
} catch (error) {
  parentPort.postMessage({ ok: false, error: String((error && error.message) || error).split('\\n')[0] });
}
`;

type WorkerAnswer =
  | { ok: true; schemaVersion: number; counts: Record<string, number> }
  | { ok: false; damaged?: string; error?: string };

let driver: string | null = null;

/**
 * Checks the database file at `path` and counts its rows, off the main thread. `standalone`
 * first switches the file to journal mode DELETE (a copy made by the backup API keeps the WAL
 * flag of its source; a backup's database must be one file). A damaged or unreadable file is an
 * `AivoryError('storage')` naming the first problem SQLite reports.
 */
export function checkDatabase(
  path: string,
  options: { standalone: boolean },
): Promise<DatabaseFacts> {
  driver ??= createRequire(import.meta.url).resolve('better-sqlite3');
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, path, standalone: options.standalone, tables: [...COUNTED_TABLES] },
  });
  return new Promise<DatabaseFacts>((resolve, reject) => {
    worker.once('message', (answer: WorkerAnswer) => {
      void worker.terminate();
      if (answer.ok) resolve({ schemaVersion: answer.schemaVersion, counts: answer.counts });
      else if (answer.damaged !== undefined) {
        reject(new AivoryError('storage', `The database ${path} is damaged: ${answer.damaged}`));
      } else {
        reject(
          new AivoryError('storage', `The database ${path} cannot be read: ${answer.error ?? ''}`),
        );
      }
    });
    worker.once('error', (error) => {
      reject(new AivoryError('storage', `The database ${path} cannot be read: ${error.message}`));
    });
  });
}
