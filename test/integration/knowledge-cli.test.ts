/**
 * `aivory knowledge` as a real process over a real data directory: add, list, status, search,
 * reindex, remove; and kill -9 in the middle of an `add` of a big folder, after which the same
 * command resumes (the files recorded before the kill are not read again) and the database
 * passes `PRAGMA integrity_check`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, collect, makeDataDir, runCli, spawnCli } from '../support/run-cli';

const BIG_FOLDER_FILES = 3000;

describe('aivory knowledge', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function setup(): { home: string; env: NodeJS.ProcessEnv; docs: string } {
    const home = makeDataDir();
    dirs.push(home);
    const docs = join(home, 'docs');
    mkdirSync(docs);
    return { home, env: cliEnv(home), docs };
  }

  it('adds, lists, searches, shows status, reindexes and removes a folder', async () => {
    const { env, docs } = setup();
    writeFileSync(join(docs, 'plan.md'), '# Plan\n\nThe lighthouse budget is due in May.\n');
    writeFileSync(join(docs, 'blob.txt'), Buffer.from([0, 1, 2, 3, 0, 255]));

    const added = await runCli(['knowledge', 'add', docs, '--name', 'work'], env);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Indexed "work": 1 indexed, 1 skipped, 0 failed;');
    expect(added.stdout).toContain('  not text: binary bytes under a text name (1): blob.txt');

    const listed = await runCli(['knowledge', 'list'], env);
    expect(listed.stdout).toMatch(/^work\t.*docs\t1 indexed, 1 skipped, 0 failed\t1 passages/);

    const found = await runCli(['knowledge', 'search', 'lighthouse', 'budget'], env);
    expect(found.stdout).toBe(
      '1. work:plan.md#L1-L3\n   # Plan The [lighthouse] [budget] is due in May.\n',
    );
    const json = await runCli(['knowledge', 'search', 'lighthouse', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject([{ citation: 'work:plan.md#L1-L3' }]);

    const status = await runCli(['knowledge', 'status', 'work', '--json'], env);
    const files = (JSON.parse(status.stdout) as { files: { relativePath: string }[] }).files;
    expect(files.map((file) => file.relativePath)).toEqual(['blob.txt', 'plan.md']);

    writeFileSync(join(docs, 'plan.md'), '# Plan\n\nThe harbour budget is due in June.\n');
    const reindexed = await runCli(['knowledge', 'reindex', 'work'], env);
    expect(reindexed.stdout).toContain('1 indexed, 0 skipped, 0 failed; 1 unchanged');
    expect((await runCli(['knowledge', 'search', 'lighthouse'], env)).stdout).toBe(
      'No passage matches.\n',
    );

    const unknown = await runCli(['knowledge', 'search', 'x', '--folder', 'nope'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No knowledge folder is named "nope".');

    const removed = await runCli(['knowledge', 'remove', 'work'], env);
    expect(removed.stdout).toContain('Removed the index of "work"; the files in');
    expect((await runCli(['knowledge', 'list'], env)).stdout).toBe(
      'No knowledge folders. Add one with: aivory knowledge add PATH\n',
    );
  });

  it('resumes an add killed with SIGKILL; the database stays whole', async () => {
    const { home, env, docs } = setup();
    for (let index = 0; index < BIG_FOLDER_FILES; index += 1) {
      const sub = join(docs, `d${index % 30}`);
      if (index < 30) mkdirSync(sub);
      writeFileSync(
        join(sub, `note-${index}.md`),
        `Note ${index}\n\nword${index} ${'text '.repeat(100)}\n`,
      );
    }
    const child = spawnCli(['knowledge', 'add', docs, '--name', 'big'], env);
    const done = collect(child);
    const database = join(home, 'aivory.db');
    // Waits until some files are recorded (each one its own committed transaction).
    let recorded = 0;
    while (recorded < 200) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      recorded = countRecorded(database);
    }
    child.kill('SIGKILL');
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');
    const before = countRecorded(database);
    expect(before).toBeLessThan(BIG_FOLDER_FILES);

    const again = await runCli(['knowledge', 'add', docs, '--name', 'big', '--json'], env);
    expect(again.code).toBe(0);
    const summary = JSON.parse(again.stdout) as {
      unchanged: number;
      read: number;
      indexed: number;
    };
    expect(summary.unchanged).toBe(before);
    expect(summary.read).toBe(BIG_FOLDER_FILES - before);
    expect(summary.indexed).toBe(BIG_FOLDER_FILES - before);

    const check = new Database(database);
    try {
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      // FTS5's own check: the index agrees with the passages it was built from.
      check.prepare("INSERT INTO knowledge_fts (knowledge_fts) VALUES ('integrity-check')").run();
    } finally {
      check.close();
    }
    const found = await runCli(['knowledge', 'search', 'word2999'], env);
    expect(found.stdout).toContain('big:d29/note-2999.md#L1-L3');
  }, 120_000);
});

/** Files recorded in the index so far, read without taking a lock (WAL). */
function countRecorded(path: string): number {
  let database: Database.Database;
  try {
    database = new Database(path, { readonly: true, fileMustExist: true });
  } catch {
    return 0;
  }
  try {
    return (
      database.prepare('SELECT COUNT(*) AS count FROM knowledge_files').get() as { count: number }
    ).count;
  } catch {
    return 0;
  } finally {
    database.close();
  }
}
