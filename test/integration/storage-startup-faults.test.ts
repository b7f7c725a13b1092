/**
 * Starting `aivory` over a data folder or database that cannot be used (issue 21, items 4 and 5),
 * with real faults and the real binary: a read-only mount, a database cut short or overwritten
 * with garbage (never modified; a copy made beside it; `aivory doctor` says how to recover), a
 * database another process locks exclusively, a full disk. Each gets its own message naming the
 * path and what to do, and its exit code. And a start whose schema is current takes no write
 * lock: `aivory conversations list` works while another process holds a write transaction.
 */
import { readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';
import type { CliResult } from '../support/run-cli';
import { holdLock, mountSmallDisk } from '../support/storage-faults';
import type { LockHolder, SmallDisk } from '../support/storage-faults';

const DISK_BYTES = 4 * 1024 * 1024;
/** The locked case waits out SQLite's 5 s busy timeout. */
const LOCK_TEST_TIMEOUT_MS = 60_000;
const EMPTY_LIST = 'No conversations yet. Start one with: aivory chat "Hello"\n';

/** A data folder with a database holding a saved model and a few memories (several pages). */
async function populatedHome(home: string): Promise<string> {
  const added = await runCli(
    ['models', 'add', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--default'],
    cliEnv(home),
  );
  expect(added.code).toBe(0);
  for (let index = 0; index < 3; index += 1) {
    const saved = await runCli(
      ['tool', 'save_memory', JSON.stringify({ memory_text: `Fact ${index}: ${'x'.repeat(200)}` })],
      cliEnv(home),
    );
    expect(saved.code).toBe(0);
  }
  return join(home, 'aivory.db');
}

function expectNoStack(result: CliResult): void {
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).not.toContain('internal error');
}

/** The copy `aivory` makes of a damaged database: named after the file's last change. */
function damagedCopyName(databasePath: string): string {
  const stamp = statSync(databasePath)
    .mtime.toISOString()
    .replace(/[-:]|\.\d+/g, '');
  return `${databasePath}.damaged-${stamp}`;
}

describe('a data folder or database that cannot be used', () => {
  let disk: SmallDisk | null = null;
  let lock: LockHolder | null = null;
  afterEach(async () => {
    await lock?.release();
    lock = null;
    disk?.remove();
    disk = null;
  });

  it('a read-only data folder: says so by path, exit 2', async () => {
    disk = mountSmallDisk(DISK_BYTES);
    await populatedHome(disk.dir);
    disk.setReadOnly(true);
    const result = await runCli(['conversations', 'list'], cliEnv(disk.dir));
    expect(result.stderr).toBe(
      `aivory: The data folder ${disk.dir} is read-only (read-only file system). Aivory keeps ` +
        `its database there and must write to it: make the folder writable, or set AIVORY_HOME ` +
        `to a folder you can write.\n`,
    );
    expect(result.code).toBe(2);
    disk.setReadOnly(false);
  });

  it('a database cut short: left byte for byte, copied beside itself, doctor says how to recover', async () => {
    const home = makeDataDir();
    const databasePath = await populatedHome(home);
    const size = statSync(databasePath).size;
    truncateSync(databasePath, 8192);
    const before = readFileSync(databasePath);
    const copy = damagedCopyName(databasePath);

    const result = await runCli(['conversations', 'list'], cliEnv(home));
    expect(result.stderr).toBe(
      `aivory: The database ${databasePath} is damaged (it is cut short: 8,192 of ` +
        `${size.toLocaleString('en-US')} bytes). Aivory has not changed it and saved a copy as ` +
        `${copy}; run aivory doctor to see how to recover.\n`,
    );
    expect(result.code).toBe(1);
    expectNoStack(result);
    expect(readFileSync(databasePath).equals(before)).toBe(true);
    expect(readFileSync(copy).equals(before)).toBe(true);

    const doctor = await runCli(['doctor'], cliEnv(home));
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toBe(
      [
        `✗ database: The database ${databasePath} is damaged (it is cut short: 8,192 of ` +
          `${size.toLocaleString('en-US')} bytes). Aivory has not changed it. A copy of it as ` +
          `found is at ${copy}.`,
        `  To recover what can still be read (needs the sqlite3 command): sqlite3 ` +
          `${databasePath} .recover | sqlite3 ${join(home, 'aivory-recovered.db')}`,
        `  then move aivory.db, aivory.db-wal and aivory.db-shm (those that exist) out of ` +
          `${home}, and rename aivory-recovered.db to aivory.db.`,
        `  To start afresh instead: move aivory.db, aivory.db-wal and aivory.db-shm (those that ` +
          `exist) out of ${home}; Aivory creates an empty database at its next start (your keys ` +
          `in secrets.json stay).`,
        '',
      ].join('\n'),
    );
    // Still untouched, and one copy however often it is started.
    expect(readFileSync(databasePath).equals(before)).toBe(true);
    expect(readdirSync(home).filter((name) => name.includes('.damaged-'))).toHaveLength(1);
  });

  it('a file that is not a database: left as it is, copied, exit 1', async () => {
    const home = makeDataDir();
    const databasePath = join(home, 'aivory.db');
    writeFileSync(databasePath, 'These are my notes, not a database.\n'.repeat(200));
    const before = readFileSync(databasePath);

    const result = await runCli(['conversations', 'list'], cliEnv(home));
    expect(result.stderr).toBe(
      `aivory: The database ${databasePath} is damaged (it is not a SQLite database file). ` +
        `Aivory has not changed it and saved a copy as ${damagedCopyName(databasePath)}; run ` +
        `aivory doctor to see how to recover.\n`,
    );
    expect(result.code).toBe(1);
    expect(readFileSync(databasePath).equals(before)).toBe(true);
    expect(readFileSync(damagedCopyName(databasePath)).equals(before)).toBe(true);
  });

  it(
    'a database another program locks exclusively: says so by path, exit 1',
    async () => {
      const home = makeDataDir();
      const databasePath = await populatedHome(home);
      lock = await holdLock(databasePath, 'exclusive');
      const result = await runCli(['conversations', 'list'], cliEnv(home));
      expect(result.stderr).toBe(
        `aivory: The database ${databasePath} is locked by another program (Aivory waited 5 s ` +
          `for it). Close the program holding it (a database browser, a backup or sync tool, ` +
          `another Aivory busy writing), then try again.\n`,
      );
      expect(result.code).toBe(1);
    },
    LOCK_TEST_TIMEOUT_MS,
  );

  it('a full disk: says which disk, exit 1', async () => {
    disk = mountSmallDisk(DISK_BYTES);
    disk.fill();
    const result = await runCli(['conversations', 'list'], cliEnv(disk.dir));
    expect(result.stderr).toBe(
      `aivory: The disk holding ${disk.dir} is full. Free some space on it, then try again.\n`,
    );
    expect(result.code).toBe(1);
    expectNoStack(result);
  });
});

describe('a start whose schema is current', () => {
  let lock: LockHolder | null = null;
  afterEach(async () => {
    await lock?.release();
    lock = null;
  });

  it('lists conversations while another process holds a write transaction', async () => {
    const home = makeDataDir();
    const first = await runCli(['conversations', 'list'], cliEnv(home));
    expect(first.code).toBe(0);
    lock = await holdLock(join(home, 'aivory.db'), 'write');
    const listed = await runCli(['conversations', 'list'], cliEnv(home));
    expect(listed.stderr).toBe('');
    expect(listed.stdout).toBe(EMPTY_LIST);
    expect(listed.code).toBe(0);
  });
});
