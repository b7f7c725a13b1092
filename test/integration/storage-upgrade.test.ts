/**
 * A schema upgrade never costs a conversation (issue 42, item 1), with real files and real
 * processes. Before the first migration of a start the database is copied beside itself
 * (`<name>.before-upgrade-v<from>-to-v<to>-<time>`, owner-only, the last three kept); a migration
 * made to fail midway (a test-only migration list) leaves the file exactly as it was and the
 * error names the copy; two processes upgrading at once make one copy; a disk too full for the
 * copy refuses the upgrade and keeps no partial copy; a database from a newer build is refused
 * before anything is written to it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/main/adapters/sqlite/migrations';
import { formatBytes } from '../../src/shared/byte-size';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';
import { holdLock, mountSmallDisk } from '../support/storage-faults';
import type { LockHolder, SmallDisk } from '../support/storage-faults';

const CURRENT = MIGRATIONS.length;
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OPEN_CHILD = fileURLToPath(new URL('../support/open-store-child.ts', import.meta.url));
/** A migration that works, standing for the next real one. */
const NEXT = 'CREATE TABLE upgrade_probe (id INTEGER PRIMARY KEY, note TEXT)';
/** A migration that creates a table, then fails on a table that does not exist. */
const FAILING = `CREATE TABLE half_done (id INTEGER PRIMARY KEY);
INSERT INTO half_done VALUES (1);
INSERT INTO no_such_table SELECT * FROM half_done`;
const SNAPSHOT = /^aivory\.db\.before-upgrade-v(\d+)-to-v(\d+)-\d{8}T\d{6}Z$/;

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function memory(id: string, memoryText: string) {
  return { id, memoryText, slot: null, value: null, conversationId: null };
}

/** A database made by this build with a conversation, two messages and a memory. */
function populated(home: string): string {
  const path = join(home, 'aivory.db');
  const store = openStore(path);
  try {
    store.conversations.createConversation({ id: 'c1', title: 'Kept', modelId: null });
    for (const [id, role] of [
      ['m1', 'user'],
      ['m2', 'assistant'],
    ] as const)
      store.conversations.createMessage({
        id,
        conversationId: 'c1',
        role,
        status: 'complete',
        parts: [{ kind: 'text', text: `${role} text ${'x'.repeat(3000)}` }],
      });
    store.memories.saveMemory(memory('mem1', 'Likes tea'));
  } finally {
    store.close();
  }
  return path;
}

/** What the file holds, read through a read-only connection of the test's own. */
function contents(path: string): { version: number; tables: string[]; rows: unknown[] } {
  const database = new Database(path, { readonly: true });
  try {
    return {
      version: Number(database.pragma('user_version', { simple: true })),
      tables: database
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name",
        )
        .all()
        .map((row) => row.name),
      rows: [
        ...database.prepare('SELECT id, title FROM conversations ORDER BY id').all(),
        ...database.prepare('SELECT id, role FROM messages ORDER BY id').all(),
        ...database.prepare('SELECT * FROM message_parts ORDER BY message_id').all(),
        ...database.prepare('SELECT id, memory_text FROM memories ORDER BY id').all(),
      ],
    };
  } finally {
    database.close();
  }
}

/** When a snapshot was made, from its name, as `aivory doctor` prints it: `2026-01-01 12:00`. */
function madeAt(name: string): string {
  const stamp = /(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})\d{2}Z$/.exec(name) ?? [];
  return `${stamp[1]}-${stamp[2]}-${stamp[3]} ${stamp[4]}:${stamp[5]}`;
}

function snapshots(home: string): string[] {
  return readdirSync(home)
    .filter((name) => SNAPSHOT.test(name))
    .sort();
}

describe('an upgrade', () => {
  it('copies the database beside itself first: a valid database at the old version, owner-only', () => {
    const home = makeDataDir();
    const path = populated(home);
    const before = contents(path);

    const store = openStore(path, { migrations: [...MIGRATIONS, NEXT] });
    const upgrade = store.upgrade;
    store.close();

    const [name] = snapshots(home);
    expect(name).toMatch(
      new RegExp(`^aivory\\.db\\.before-upgrade-v${CURRENT}-to-v${CURRENT + 1}-`),
    );
    const snapshot = join(home, name ?? '');
    expect(upgrade).toEqual({
      fromVersion: CURRENT,
      toVersion: CURRENT + 1,
      snapshotPath: snapshot,
    });
    expect(contents(snapshot)).toEqual(before);
    expect(statSync(snapshot).mode & 0o777).toBe(0o600);
    expect(contents(path).version).toBe(CURRENT + 1);
    expect(contents(path).tables).toContain('upgrade_probe');
    // A standalone file: no WAL or journal needed beside it, nothing half written left.
    expect(readdirSync(home).filter((entry) => entry.startsWith(`${name}`))).toEqual([name]);
  });

  it('of a new, empty database copies nothing; a current schema is not copied again', () => {
    const home = makeDataDir();
    const fresh = openStore(join(home, 'aivory.db'));
    expect(fresh.upgrade).toEqual({ fromVersion: 0, toVersion: CURRENT, snapshotPath: null });
    fresh.close();
    const again = openStore(join(home, 'aivory.db'));
    expect(again.upgrade).toBeNull();
    again.close();
    expect(snapshots(home)).toEqual([]);
  });

  it('keeps the last three copies and nothing else is touched', () => {
    const home = makeDataDir();
    const path = populated(home);
    const other = join(home, 'aivory.db.before-upgrade-notes.txt');
    writeFileSync(other, 'mine');
    const added: string[] = [];
    for (let step = 1; step <= 4; step += 1) {
      added.push(`CREATE TABLE probe_${step} (id INTEGER)`);
      openStore(path, { migrations: [...MIGRATIONS, ...added] }).close();
    }
    const kept = snapshots(home).map((name) => SNAPSHOT.exec(name)?.slice(1, 3).map(Number));
    expect(kept.sort((a, b) => (a?.[0] ?? 0) - (b?.[0] ?? 0))).toEqual([
      [CURRENT + 1, CURRENT + 2],
      [CURRENT + 2, CURRENT + 3],
      [CURRENT + 3, CURRENT + 4],
    ]);
    expect(readFileSync(other, 'utf8')).toBe('mine');
  });

  it('that fails midway leaves the file exactly as it was and names the copy', () => {
    const home = makeDataDir();
    const path = populated(home);
    const before = contents(path);
    const hash = sha256(path);

    // Two pending migrations: the first works, the second fails after creating a table.
    const opening = () => openStore(path, { migrations: [...MIGRATIONS, NEXT, FAILING] });
    expect(opening).toThrow(Error);
    let message = '';
    try {
      opening();
    } catch (error) {
      message = (error as Error).message;
    }
    const names = snapshots(home);
    expect(names.length).toBeGreaterThan(0);
    const snapshot = join(home, names.at(-1) ?? '');
    expect(message).toBe(
      `The upgrade of ${path} to schema version ${CURRENT + 2} failed: no such table: ` +
        `no_such_table. Your data is unchanged; a copy made before the upgrade is at ${snapshot}.`,
    );
    // Neither migration stayed: one transaction for the whole upgrade.
    expect(contents(path)).toEqual(before);
    expect(sha256(path)).toBe(hash);
    expect(contents(snapshot)).toEqual(before);
    // The app's own build opens it as before.
    const store = openStore(path);
    expect(store.conversations.listMessages('c1')).toHaveLength(2);
    store.close();
  });
});

describe('aivory over a database of the previous schema version', () => {
  it('upgrades it, logs where the copy is, and doctor lists the copies kept', async () => {
    const home = makeDataDir();
    const path = join(home, 'aivory.db');
    const old = new Database(path);
    old.pragma('journal_mode = WAL');
    for (const sql of MIGRATIONS.slice(0, CURRENT - 1)) old.exec(sql);
    old.pragma(`user_version = ${CURRENT - 1}`);
    old.exec(
      "INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c1', 'Old', 1, 1)",
    );
    old.close();

    const doctor = await runCli(['doctor'], cliEnv(home));
    const [name] = snapshots(home);
    expect(name).toMatch(new RegExp(`before-upgrade-v${CURRENT - 1}-to-v${CURRENT}-`));
    const snapshot = join(home, name ?? '');
    const size = statSync(snapshot).size;
    const line = doctor.stdout.split('\n').findIndex((text) => text.startsWith('✓ copies'));
    expect(doctor.stdout.split('\n').slice(line, line + 2)).toEqual([
      '✓ copies before upgrades: the last 1 kept, newest first:',
      `  ${snapshot} (${formatBytes(size)}, ${madeAt(name ?? '')} UTC, schema version ${CURRENT - 1} before the upgrade to ${CURRENT})`,
    ]);
    const log = readFileSync(join(home, 'logs', 'aivory.log'), 'utf8');
    expect(log).toContain('database upgraded');
    expect(log).toContain(snapshot);
    expect(contents(snapshot).version).toBe(CURRENT - 1);
    const listed = await runCli(['conversations', 'list'], cliEnv(home));
    expect(listed.stdout).toContain('Old');
  }, 60_000);
});

describe('two processes upgrading at once', () => {
  let lock: LockHolder | null = null;
  afterEach(async () => {
    await lock?.release();
    lock = null;
  });

  it('make one copy, and both open', async () => {
    const home = makeDataDir();
    const path = populated(home);
    // Both find the old version, then queue on the write lock another process holds.
    lock = await holdLock(path, 'write');
    const children = [0, 1].map(() => {
      const child = spawn(process.execPath, ['--import', 'tsx', OPEN_CHILD, path, NEXT], {
        cwd: PROJECT_ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const lines: string[] = [];
      const ready = new Promise<void>((resolve) =>
        createInterface({ input: child.stdout }).on('line', (line) => {
          lines.push(line);
          if (line === 'ready') resolve();
        }),
      );
      const ended = new Promise<{ code: number | null; lines: string[] }>((resolve) =>
        child.once('close', (code) => resolve({ code, lines })),
      );
      return { ready, ended };
    });
    await Promise.all(children.map((child) => child.ready));
    await lock.release();
    lock = null;
    const ended = await Promise.all(children.map((child) => child.ended));
    expect(ended.map((result) => result.code)).toEqual([0, 0]);
    const upgrades = ended.map(
      (result) =>
        (JSON.parse(result.lines.at(-1) ?? '{}') as { upgrade?: { snapshotPath: string } | null })
          .upgrade,
    );
    expect(upgrades.filter((upgrade) => upgrade !== null)).toHaveLength(1);
    expect(snapshots(home)).toHaveLength(1);
    expect(contents(path).version).toBe(CURRENT + 1);
  });
});

describe('a disk too full for the copy', () => {
  let disk: SmallDisk | null = null;
  afterEach(() => {
    disk?.remove();
    disk = null;
  });

  it('refuses the upgrade, keeps no partial copy, leaves the database as it was', () => {
    disk = mountSmallDisk(8 * 1024 * 1024);
    const home = disk.dir;
    const path = populated(home);
    const store = openStore(path);
    for (let index = 0; index < 40; index += 1)
      store.memories.saveMemory(memory(`big${index}`, 'y'.repeat(50_000)));
    store.close();
    const before = contents(path);
    const hash = sha256(path);
    // Room for the WAL index and a few pages, not for a copy of the database.
    const room = 256 * 1024;
    const { bavail, bsize } = statfsSync(home);
    writeFileSync(join(home, 'filler'), Buffer.alloc(bavail * bsize - room));
    expect(statSync(path).size).toBeGreaterThan(room * 4);

    let caught: unknown = null;
    try {
      openStore(path, { migrations: [...MIGRATIONS, NEXT] }).close();
    } catch (error) {
      caught = error;
    }
    const size = statSync(path).size;
    expect(caught).toMatchObject({
      name: 'StorageError',
      problem: 'full',
      message:
        `The disk holding ${home} is full: Aivory could not save a copy of the database ` +
        `${path} (about ${(size / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB) before ` +
        `upgrading it to schema version ${CURRENT + 1}; it was not upgraded and is unchanged. ` +
        'Free some space on it, then try again.',
    });
    expect(readdirSync(home).filter((name) => name.includes('before-upgrade'))).toEqual([]);
    expect(sha256(path)).toBe(hash);
    rmSync(join(home, 'filler'));
    expect(contents(path)).toEqual(before);
  });
});

describe('a database from a newer build', () => {
  const newer = CURRENT + 5;

  /** A database this build made, then stamped with a newer schema version. */
  function newerDatabase(journal: 'wal' | 'delete'): { home: string; path: string } {
    const home = makeDataDir();
    const path = populated(home);
    const database = new Database(path);
    database.pragma(`journal_mode = ${journal}`);
    database.pragma(`user_version = ${newer}`);
    database.close();
    return { home, path };
  }

  const refusal = (path: string) =>
    `The database ${path} has schema version ${newer}, newer than this build knows ` +
    `(${CURRENT}). Update Aivory to open it.`;

  for (const journal of ['wal', 'delete'] as const) {
    it(`in ${journal} journal mode is refused and left byte for byte, no files added`, async () => {
      const { home, path } = newerDatabase(journal);
      const hash = sha256(path);
      const files = readdirSync(home).sort();

      expect(() => openStore(path)).toThrow(refusal(path));
      const result = await runCli(['conversations', 'list'], cliEnv(home));
      expect(result.stderr).toBe(`aivory: ${refusal(path)}\n`);
      expect(result.code).toBe(2);

      expect(sha256(path)).toBe(hash);
      // No WAL, index or copy made beside it (the CLI's log folder aside).
      expect(
        readdirSync(home)
          .filter((name) => name !== 'logs')
          .sort(),
      ).toEqual(files);
    }, 60_000);
  }

  it('whose new version is still in its WAL is refused, the file left byte for byte', () => {
    const home = makeDataDir();
    const path = populated(home);
    // Another process (the newer build) upgraded it and has not checkpointed: the main file's
    // header still says the old version.
    const writer = new Database(path);
    try {
      writer.pragma('journal_mode = WAL');
      writer.pragma('wal_autocheckpoint = 0');
      writer.pragma(`user_version = ${newer}`);
      expect(readFileSync(path).readInt32BE(60)).toBe(CURRENT);
      const hash = sha256(path);
      expect(() => openStore(path)).toThrow(refusal(path));
      expect(sha256(path)).toBe(hash);
      expect(existsSync(`${path}-wal`)).toBe(true);
    } finally {
      writer.close();
    }
  });
});
