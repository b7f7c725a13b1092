/**
 * A child process holding a lock on a database, for the storage-fault tests: `node --import tsx
 * sqlite-lock-child.ts <database> <write|exclusive>`.
 * - `write`: `BEGIN IMMEDIATE` — the write lock; in WAL mode other connections still read;
 * - `exclusive`: `locking_mode = EXCLUSIVE` and `BEGIN EXCLUSIVE` — no other connection can even
 *   read the file.
 * Prints `locked` once it holds the lock; rolls back and exits when its stdin closes.
 */
import Database from 'better-sqlite3';

const [databasePath, mode] = process.argv.slice(2);
if (databasePath === undefined || (mode !== 'write' && mode !== 'exclusive')) {
  process.stderr.write('usage: sqlite-lock-child <database> <write|exclusive>\n');
  process.exit(2);
}

const database = new Database(databasePath);
if (mode === 'exclusive') {
  database.pragma('locking_mode = EXCLUSIVE');
  database.exec('BEGIN EXCLUSIVE');
  // A read makes the lock real in WAL mode (the first access takes it).
  database.prepare('SELECT count(*) FROM sqlite_schema').get();
} else {
  database.exec('BEGIN IMMEDIATE');
}
process.stdout.write('locked\n');
process.stdin.resume();
process.stdin.on('end', () => {
  database.exec('ROLLBACK');
  database.close();
  process.exit(0);
});
