/**
 * A child process that opens a database as the app does, for the upgrade tests: `node --import
 * tsx open-store-child.ts <database> [extra migration SQL…]` (the extra migrations follow the
 * app's own). Prints `ready` just before it opens the store, then one JSON line with the upgrade
 * it made (`null` when there was none) or the error's message, and exits (0 or 1).
 */
import { MIGRATIONS } from '../../src/main/adapters/sqlite/migrations';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';

const [databasePath, ...extra] = process.argv.slice(2);
if (databasePath === undefined) {
  process.stderr.write('usage: open-store-child <database> [migration…]\n');
  process.exit(2);
}

process.stdout.write('ready\n');
try {
  const store = openStore(databasePath, { migrations: [...MIGRATIONS, ...extra] });
  process.stdout.write(`${JSON.stringify({ upgrade: store.upgrade })}\n`);
  store.close();
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
  process.exitCode = 1;
}
