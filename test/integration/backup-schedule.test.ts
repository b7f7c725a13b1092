/**
 * Automatic backups (issue 42, item 3) with real SQLite, real files and real processes: a
 * scheduled backup that fails (a folder that is a file, a folder that is gone, a full disk) is
 * recorded with its reason, retried only after a growing wait, and shown by `aivory doctor` and
 * `aivory backup status`; a running `aivory serve` makes a due backup without any request; the
 * folder keeps the newest N backups and nothing else is touched; while one process holds the
 * claim, no other process backs up.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AppContext, openAppContext } from '../../src/main/composition/app-context';
import {
  BACKUP_CLAIM_KEY,
  BACKUP_STATUS_KEY,
  type BackupStatus,
} from '../../src/main/services/backup-status';
import { serveAt } from '../e2e/helpers/serve-process';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';
import { mountSmallDisk } from '../support/storage-faults';

const opened: AppContext[] = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

/** A data folder with one conversation and `bytes` of uploads, opened in this process. */
function openApp(checkEveryMs: number, bytes = 1024): AppContext {
  const home = makeDataDir();
  mkdirSync(join(home, 'uploads', 'c1'), { recursive: true });
  writeFileSync(join(home, 'uploads', 'c1', 'data.bin'), Buffer.alloc(bytes, 7));
  const app = openAppContext({
    env: {
      AIVORY_HOME: home,
      AIVORY_LOCAL_SANDBOX: '0',
      AIVORY_BACKUP_CHECK_MS: String(checkEveryMs),
    },
  });
  app.stores.conversations.createConversation({ id: 'c1', title: 'Trip', modelId: null });
  opened.push(app);
  return app;
}

/** Resolves with the status once `holds` is true of it (told by the book, no timer here). */
function statusWhere(app: AppContext, holds: (status: BackupStatus) => boolean) {
  return new Promise<BackupStatus>((resolve) => {
    const look = (): boolean => {
      const status = app.backupStatus.read();
      if (!holds(status)) return false;
      stop();
      resolve(status);
      return true;
    };
    const stop = app.backupStatus.onChanged(() => void look());
    look();
  });
}

/** The status row as another process reads it. */
function storedStatus(home: string): BackupStatus | null {
  if (!existsSync(join(home, 'aivory.db'))) return null;
  const database = new Database(join(home, 'aivory.db'), { readonly: true });
  try {
    const row = database
      .prepare('SELECT value FROM settings WHERE key = ?')
      .get(BACKUP_STATUS_KEY) as { value: string } | undefined;
    return row === undefined ? null : (JSON.parse(row.value) as BackupStatus);
  } finally {
    database.close();
  }
}

const backupFiles = (folder: string): string[] =>
  readdirSync(folder)
    .filter((name) => /^aivory-backup-\d{8}-\d{6}\.tar$/.test(name))
    .sort();

describe('automatic backups', () => {
  it('records a failure with its reason, waits longer after each, and doctor warns', async () => {
    const app = openApp(100);
    const notAFolder = join(app.dataDir, 'not-a-folder');
    writeFileSync(notAFolder, 'a file where the folder should be');
    app.settings.update('backups', { auto: true, folder: notAFolder });
    app.backupScheduler.start();

    const failed = await statusWhere(app, (status) => status.failures >= 3);
    expect(failed.last?.ok).toBe(false);
    expect(failed.last?.message).toBe(
      `The backup folder ${notAFolder} is a file, not a folder: choose a folder in Settings → Data → Backups.`,
    );
    expect(failed.lastGood).toBeNull();
    // Not a tight loop: after three failures in a row the next attempt waits four intervals.
    const second = await statusWhere(app, (status) => status.failures >= 4);
    expect(second.last!.at - failed.last!.at).toBeGreaterThanOrEqual(400);
    await app.backupScheduler.stop();

    const env = cliEnv(app.dataDir);
    const doctor = await runCli(['doctor'], env);
    expect(doctor.stdout).toMatch(
      /✗ backup: The last backup failed \d+ seconds? ago: The backup folder .* is a file, not a folder/,
    );
    expect(doctor.code).toBe(1);
    const status = await runCli(['backup', 'status'], env);
    expect(status.stdout).toContain('Last verified backup: no verified backup yet');
    expect(status.stdout).toContain('Warning: The last backup failed');
    expect(status.code).toBe(1);
  });

  it('says a folder that is gone is not there (an unplugged disk), and keeps no partial file on a full disk', async () => {
    const app = openApp(60_000, 2 * 1024 * 1024);
    const gone = join(tmpdir(), `aivory-unplugged-${process.pid}`, 'Backups');
    app.settings.update('backups', { auto: true, folder: gone });
    await expect(app.backupScheduler.backUpNow({})).rejects.toThrow(
      `The backup folder ${gone} is not there: if it is on an external or network disk, connect it; or choose another folder in Settings → Data → Backups.`,
    );
    expect(app.backupStatus.read().last?.message).toContain('is not there');

    const disk = mountSmallDisk(512 * 1024);
    try {
      app.settings.update('backups', { folder: disk.dir });
      await expect(app.backupScheduler.backUpNow({})).rejects.toThrow(/full|space/i);
      const status = app.backupStatus.read();
      expect(status.last?.ok).toBe(false);
      expect(status.failures).toBe(2);
      expect(readdirSync(disk.dir)).toEqual([]);
    } finally {
      disk.remove();
    }
  });

  it('keeps the newest N backups and touches nothing else in the folder', async () => {
    const app = openApp(60_000);
    const folder = mkdtempSync(join(tmpdir(), 'aivory-keep-'));
    const old = [
      'aivory-backup-20240101-000000.tar',
      'aivory-backup-20240102-000000.tar',
      'aivory-backup-20240103-000000.tar',
    ];
    for (const name of old) writeFileSync(join(folder, name), 'old');
    const others = ['notes.txt', 'aivory-backup-mine.tar', 'aivory-backup-20230101-000000.tar.bak'];
    for (const name of others) writeFileSync(join(folder, name), 'keep me');
    mkdirSync(join(folder, 'aivory-backup-20200101-000000.tar'));
    app.settings.update('backups', { folder, keep: 2 });

    const made = await app.backupScheduler.backUpNow({});
    expect(made.file.startsWith(folder)).toBe(true);
    const stamped = readdirSync(folder).filter((name) =>
      /^aivory-backup-\d{8}-\d{6}\.tar$/.test(name),
    );
    expect(stamped.sort()).toEqual(
      ['aivory-backup-20200101-000000.tar', old[2], made.file.slice(folder.length + 1)].sort(),
    );
    for (const name of others) expect(readFileSync(join(folder, name), 'utf8')).toBe('keep me');
    const status = app.backupStatus.read();
    expect(status.lastGood?.file).toBe(made.file);
    expect(status.lastGood?.secrets).toBe('none');
    expect(status.lastGood?.verifiedAt).toBeGreaterThanOrEqual(status.lastGood!.at);
  });
});

describe('automatic backups in a running aivory serve', () => {
  it('makes a due backup without any request once switched on', { timeout: 90_000 }, async () => {
    const home = makeDataDir();
    const serve = await serveAt(home, { AIVORY_BACKUP_CHECK_MS: '200' });
    try {
      expect(storedStatus(home)).toBeNull();
      const set = await runCli(['settings', 'set', 'backups.auto', 'true'], cliEnv(home));
      expect(set.code).toBe(0);
      await vi.waitFor(() => expect(storedStatus(home)?.lastGood?.ok).toBe(true), {
        timeout: 60_000,
        interval: 100,
      });
      const status = storedStatus(home)!;
      expect(backupFiles(join(home, 'backups'))).toEqual([basename(status.lastGood!.file!)]);
      const report = await runCli(['backup', 'status', '--json'], cliEnv(home));
      expect(JSON.parse(report.stdout)).toMatchObject({ health: 'ok', warning: null });
    } finally {
      await serve.stop();
    }
  });

  it('does not back up while another process holds the claim', { timeout: 90_000 }, async () => {
    const home = makeDataDir();
    const setup = await runCli(['settings', 'set', 'backups.auto', 'true'], cliEnv(home));
    expect(setup.code).toBe(0);
    // This test's process (alive, not serve) holds the claim, as a backup under way would.
    const database = new Database(join(home, 'aivory.db'));
    const claim = JSON.stringify({ pid: process.pid, token: 'held', heartbeatAt: Date.now() });
    database
      .prepare('INSERT INTO settings (key, value) VALUES (?, ?)')
      .run(BACKUP_CLAIM_KEY, claim);
    const serve = await serveAt(home, { AIVORY_BACKUP_CHECK_MS: '200', AIVORY_LOG_LEVEL: 'debug' });
    try {
      const log = (): string => readFileSync(join(home, 'logs', 'aivory.log'), 'utf8');
      await vi.waitFor(
        () => expect(log().split('scheduled backup skipped').length).toBeGreaterThan(3),
        { timeout: 60_000, interval: 100 },
      );
      const create = await runCli(['backup', 'create', '--no-secrets'], cliEnv(home));
      expect(create.code).toBe(4);
      expect(create.stderr).toContain('A backup is being made already');
      expect(storedStatus(home)).toBeNull();

      // Given back: serve makes the due backup.
      database.prepare('DELETE FROM settings WHERE key = ?').run(BACKUP_CLAIM_KEY);
      await vi.waitFor(() => expect(storedStatus(home)?.lastGood?.ok).toBe(true), {
        timeout: 60_000,
        interval: 100,
      });
      await vi.waitFor(() => expect(log()).toContain('scheduled backup made'));
      expect(log().split('scheduled backup made').length - 1).toBe(1);
    } finally {
      database.close();
      await serve.stop();
    }
  });
});
