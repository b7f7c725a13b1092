/**
 * Backups (issue 42, items 3 and 4) with the real CLI, real SQLite and real files: a backup is
 * written, read back and verified; restored into an empty data folder elsewhere (a new computer:
 * the files' paths follow) and over the current data (backed up first); secrets only with the
 * passphrase; a damaged, cut-short or foreign file is refused before anything is replaced; a
 * database another process holds is not replaced under it; a full disk keeps no partial backup;
 * a restore killed during its swap is undone at the next start; a backup taken while another
 * process writes is consistent.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTORE_MARKER } from '../../src/main/adapters/backup/restore-marker';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { cliEnv, makeDataDir, runCli, withoutBuildNotes } from '../support/run-cli';
import { mountSmallDisk } from '../support/storage-faults';

const PASSPHRASE = 'correct horse battery';
const SECRET = 'sk-backup-secret-4242';
const PRODUCED = randomBytes(256 * 1024);
const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

interface Seeded {
  home: string;
  attachmentPath: string;
  artifactPath: string;
}

/** A data folder with two conversations, an attachment, a produced file and a saved secret. */
function seed(title = 'Quarterly report'): Seeded {
  const home = makeDataDir();
  const store = openStore(join(home, 'aivory.db'));
  const uploads = join(home, 'uploads', 'c1');
  const artifacts = join(home, 'artifacts', 'c1');
  mkdirSync(uploads, { recursive: true });
  mkdirSync(artifacts, { recursive: true });
  const attachmentPath = join(uploads, 'data.csv');
  const artifactPath = join(artifacts, 'chart.png');
  writeFileSync(attachmentPath, 'a,b\n1,2\n');
  writeFileSync(artifactPath, PRODUCED);
  store.conversations.createConversation({ id: 'c1', title, modelId: null });
  store.conversations.createMessage({
    id: 'm1',
    conversationId: 'c1',
    role: 'user',
    status: 'complete',
    parts: [
      { kind: 'text', text: 'Plot this' },
      {
        kind: 'attachment',
        attachment: { name: 'data.csv', path: attachmentPath, mime: 'text/csv', size: 8 },
      },
    ],
  });
  store.conversations.createMessage({
    id: 'm2',
    conversationId: 'c1',
    role: 'assistant',
    status: 'complete',
    parts: [
      { kind: 'text', text: 'Here it is.' },
      {
        kind: 'artifact',
        artifact: {
          name: 'chart.png',
          path: artifactPath,
          mime: 'image/png',
          size: PRODUCED.length,
        },
      },
    ],
  });
  store.conversations.createConversation({ id: 'c2', title: 'Second', modelId: null });
  store.close();
  writeFileSync(join(home, 'secrets.json'), JSON.stringify({ 'settings:search:api-key': SECRET }), {
    mode: 0o600,
  });
  return { home, attachmentPath, artifactPath };
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function backupsIn(folder: string): string[] {
  return existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => name.endsWith('.tar'))
        .map((name) => join(folder, name))
    : [];
}

async function createBackup(home: string, to: string, extra: string[] = []): Promise<string> {
  const result = await runCli(
    ['backup', 'create', '--to', to, ...extra],
    cliEnv(home, { AIVORY_BACKUP_PASSPHRASE: PASSPHRASE }),
  );
  expect(withoutBuildNotes(result.stderr)).not.toContain('aivory:');
  expect(result.code).toBe(0);
  const file = /Backed up and verified: (\S+)/.exec(result.stdout)?.[1];
  if (file === undefined) throw new Error(`no backup named in: ${result.stdout}`);
  return file;
}

/** The titles and message texts of a data folder, read with today's store. */
function contents(home: string): { titles: string[]; paths: string[] } {
  const store = openStore(join(home, 'aivory.db'));
  try {
    const titles = store.conversations
      .listConversations()
      .map((conversation) => conversation.title)
      .sort();
    const paths = store.conversations
      .listMessages('c1')
      .flatMap((message) =>
        message.parts.flatMap((part) =>
          part.kind === 'attachment'
            ? [part.attachment.path]
            : part.kind === 'artifact'
              ? [part.artifact.path]
              : [],
        ),
      );
    return { titles, paths };
  } finally {
    store.close();
  }
}

describe('aivory backup', () => {
  let seeded: Seeded;
  let folder: string;
  let backup: string;

  beforeAll(async () => {
    seeded = seed();
    folder = mkdtempSync(join(tmpdir(), 'aivory-backups-'));
    backup = await createBackup(seeded.home, folder);
  });

  it('refuses to back up secrets without a passphrase, and leaves them out when told', async () => {
    const refused = await runCli(['backup', 'create', '--to', folder], cliEnv(seeded.home));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Your data holds 1 secret');
    const before = backupsIn(folder).length;
    const without = await runCli(
      [
        'backup',
        'create',
        '--to',
        mkdtempSync(join(tmpdir(), 'aivory-nosecrets-')),
        '--no-secrets',
        '--json',
      ],
      cliEnv(seeded.home),
    );
    expect(without.code).toBe(0);
    const summary = JSON.parse(without.stdout) as { secrets: string; verified: boolean };
    expect(summary).toMatchObject({ secrets: 'left-out', verified: true });
    expect(backupsIn(folder).length).toBe(before);
  });

  it('writes one verified file whose secrets are sealed, not in clear', async () => {
    const bytes = readFileSync(backup);
    expect(bytes.includes(Buffer.from(SECRET))).toBe(false);
    expect(bytes.includes(PRODUCED)).toBe(true);
    const verified = await runCli(['backup', 'verify', backup, '--json'], cliEnv(seeded.home));
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({
      ok: true,
      secrets: 'encrypted',
      files: 2,
      counts: { conversations: 2, messages: 2 },
    });
    // No staging folder or partial file is left beside it.
    expect(readdirSync(folder).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('restores into an empty folder elsewhere: data, files at their new paths, secrets', async () => {
    const newHome = join(makeDataDir(), 'new computer');
    const wrong = await runCli(
      ['backup', 'restore', backup],
      cliEnv(newHome, { AIVORY_BACKUP_PASSPHRASE: 'not the passphrase' }),
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('The passphrase does not open');
    expect(existsSync(join(newHome, 'aivory.db'))).toBe(false);

    const restored = await runCli(
      ['backup', 'restore', backup],
      cliEnv(newHome, { AIVORY_BACKUP_PASSPHRASE: PASSPHRASE }),
    );
    expect(withoutBuildNotes(restored.stderr)).not.toContain('aivory:');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('1 secret restored');
    const { titles, paths } = contents(newHome);
    expect(titles).toEqual(['Quarterly report', 'Second']);
    expect(paths).toEqual([
      join(newHome, 'uploads', 'c1', 'data.csv'),
      join(newHome, 'artifacts', 'c1', 'chart.png'),
    ]);
    expect(readFileSync(paths[1] ?? '')).toEqual(PRODUCED);
    expect(JSON.parse(readFileSync(join(newHome, 'secrets.json'), 'utf8'))).toEqual({
      'settings:search:api-key': SECRET,
    });
    const listed = await runCli(['conversations', 'list'], cliEnv(newHome));
    expect(listed.stdout).toContain('Quarterly report');
  });

  it('restores over the current data after backing it up, and asks first', async () => {
    const current = seed('Newer work');
    const unasked = await runCli(['backup', 'restore', backup], cliEnv(current.home));
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain('--yes');
    expect(contents(current.home).titles).toEqual(['Newer work', 'Second']);

    const restored = await runCli(
      ['backup', 'restore', backup, '--yes'],
      cliEnv(current.home, { AIVORY_BACKUP_PASSPHRASE: PASSPHRASE }),
    );
    expect(restored.code).toBe(0);
    expect(contents(current.home).titles).toEqual(['Quarterly report', 'Second']);
    const previous = /backed up to (\S+)\.$/m.exec(restored.stdout)?.[1];
    expect(previous).toBeDefined();
    // The replaced data is itself a good backup: restoring it brings "Newer work" back.
    const back = await runCli(
      ['backup', 'restore', previous ?? '', '--yes'],
      cliEnv(current.home, { AIVORY_BACKUP_PASSPHRASE: PASSPHRASE }),
    );
    expect(back.code).toBe(0);
    expect(contents(current.home).titles).toEqual(['Newer work', 'Second']);
    expect(readdirSync(current.home).filter((name) => name.startsWith('.restore'))).toEqual([]);
  });

  it('keeps files a folder held without a database: there was no backup of them', async () => {
    const home = makeDataDir();
    mkdirSync(join(home, 'uploads', 'old'), { recursive: true });
    writeFileSync(join(home, 'uploads', 'old', 'keep-me.txt'), 'mine');
    const restored = await runCli(
      ['backup', 'restore', backup],
      cliEnv(home, { AIVORY_BACKUP_PASSPHRASE: PASSPHRASE }),
    );
    expect(restored.code).toBe(0);
    const kept = /were moved to (\S+)\.$/m.exec(restored.stdout)?.[1] ?? '';
    expect(readFileSync(join(kept, 'uploads', 'old', 'keep-me.txt'), 'utf8')).toBe('mine');
    expect(contents(home).titles).toEqual(['Quarterly report', 'Second']);
  });

  it('refuses a damaged, cut-short or foreign file before anything is replaced', async () => {
    const current = seed('Untouched');
    const database = join(current.home, 'aivory.db');
    const before = sha256(database);
    const bytes = readFileSync(backup);
    const flipped = join(folder, 'flipped.tar');
    const at = bytes.indexOf(PRODUCED) + 1000;
    const damaged = Buffer.from(bytes);
    damaged[at] = (damaged[at] ?? 0) ^ 0xff;
    writeFileSync(flipped, damaged);
    const cut = join(folder, 'cut.tar');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const foreign = join(folder, 'foreign.tar');
    writeFileSync(foreign, Buffer.alloc(10240));
    const cases: [string, string][] = [
      [flipped, '"files/artifacts/c1/chart.png" is not what was written'],
      [cut, 'is damaged'],
      [foreign, 'is not an Aivory backup'],
    ];
    for (const [file, message] of cases) {
      const verified = await runCli(['backup', 'verify', file], cliEnv(current.home));
      expect(verified.code).toBe(2);
      expect(verified.stderr).toContain(message);
      const restored = await runCli(
        ['backup', 'restore', file, '--yes'],
        cliEnv(current.home, { AIVORY_BACKUP_PASSPHRASE: PASSPHRASE }),
      );
      expect(restored.code).toBe(2);
      expect(restored.stderr).toContain(message);
    }
    expect(sha256(database)).toBe(before);
    expect(contents(current.home).titles).toEqual(['Second', 'Untouched']);
    expect(backupsIn(join(current.home, 'backups'))).toEqual([]);
  });

  it('does not replace a database another process has open', async () => {
    const current = seed('In use');
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const d = new D(process.argv[1]);
         d.prepare('SELECT count(*) FROM conversations').get(); console.log('open');
         process.stdin.resume(); process.stdin.on('end', () => d.close());`,
        join(current.home, 'aivory.db'),
      ],
      { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) =>
      createInterface({ input: holder.stdout }).on('line', (line) => {
        if (line === 'open') resolve();
      }),
    );
    try {
      const restored = await runCli(
        ['backup', 'restore', backup, '--yes'],
        cliEnv(current.home, { AIVORY_BACKUP_PASSPHRASE: PASSPHRASE }),
      );
      expect(restored.code).toBe(4);
      expect(restored.stderr).toContain('Aivory is open in another window or process');
    } finally {
      holder.stdin.end();
      await new Promise((resolve) => holder.once('exit', resolve));
    }
    expect(contents(current.home).titles).toEqual(['In use', 'Second']);
  });

  it('keeps no partial backup when the disk fills', async () => {
    const disk = mountSmallDisk(512 * 1024);
    try {
      const result = await runCli(
        ['backup', 'create', '--to', disk.dir, '--no-secrets'],
        cliEnv(seeded.home),
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`The disk holding ${disk.dir} is full`);
      expect(readdirSync(disk.dir)).toEqual([]);
    } finally {
      disk.remove();
    }
  });

  it('undoes a restore killed during its swap at the next start', async () => {
    const current = seed('Before the restore');
    const aside = join(current.home, '.restore-previous-test');
    mkdirSync(aside);
    // The state a restore leaves when killed after moving the database aside and placing the
    // backup's: the marker names a process that is gone.
    renameSync(join(current.home, 'aivory.db'), join(aside, 'aivory.db'));
    const other = seed('From the backup');
    renameSync(join(other.home, 'aivory.db'), join(current.home, 'aivory.db'));
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.once('exit', resolve));
    writeFileSync(
      join(current.home, RESTORE_MARKER),
      JSON.stringify({
        pid: dead.pid,
        aside,
        steps: [
          { aside: join(aside, 'aivory.db'), from: join(current.home, 'aivory.db') },
          { placed: join(current.home, 'aivory.db') },
        ],
      }),
    );
    const listed = await runCli(['conversations', 'list'], cliEnv(current.home));
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('Before the restore');
    expect(listed.stdout).not.toContain('From the backup');
    expect(existsSync(join(current.home, RESTORE_MARKER))).toBe(false);
    expect(existsSync(aside)).toBe(false);
  });

  it('takes a consistent backup while another process keeps writing', async () => {
    const current = seed('Busy');
    const writer = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const d = new D(process.argv[1]);
         d.pragma('busy_timeout = 5000');
         const add = d.prepare("INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, 'w', 0, 0)");
         let n = 0; console.log('writing');
         const tick = () => { for (let i = 0; i < 50; i++) add.run('w' + n++); setImmediate(tick); };
         tick(); process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`,
        join(current.home, 'aivory.db'),
      ],
      { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) =>
      createInterface({ input: writer.stdout }).on('line', (line) => {
        if (line === 'writing') resolve();
      }),
    );
    let file: string;
    try {
      file = await createBackup(current.home, mkdtempSync(join(tmpdir(), 'aivory-busy-')));
    } finally {
      writer.stdin.end();
      await new Promise((resolve) => writer.once('exit', resolve));
    }
    const verified = await runCli(['backup', 'verify', file, '--json'], cliEnv(current.home));
    expect(verified.code).toBe(0);
    const counted = JSON.parse(verified.stdout) as { counts: { conversations: number } };
    expect(counted.counts.conversations).toBeGreaterThan(2);
    const restoredHome = makeDataDir();
    const restored = await runCli(
      ['backup', 'restore', file],
      cliEnv(restoredHome, { AIVORY_BACKUP_PASSPHRASE: PASSPHRASE }),
    );
    expect(restored.code).toBe(0);
    const database = new Database(join(restoredHome, 'aivory.db'), { readonly: true });
    try {
      expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(database.pragma('foreign_key_check')).toEqual([]);
      expect(database.prepare('SELECT count(*) FROM conversations').pluck().get()).toBe(
        counted.counts.conversations,
      );
    } finally {
      database.close();
    }
  });

  afterAll(() => undefined);
});
