/**
 * Backups (issue 42): a data folder of 1 GiB (a database of 2,000 conversations and 256 files of
 * 4 MiB of random bytes; `AIVORY_BENCH_BACKUP_MIB` sets the files' total) backed up with the
 * backup service against a plain `tar -cf` of the same files, flushed with `sync FILE`, in the
 * same run (goal ≤ 1.5×), the
 * write alone and with its verification (the whole file read back and hashed, the database
 * checked); the longest the event loop was held while a backup ran (what `aivory serve`'s
 * thread would wait; goal ≤ 50 ms) against an idle loop's; and a restore of 10,000
 * conversations into an empty folder (goal ≤ 60 s) against `tar -xf` of the same file.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { FileSecretStore } from '../src/main/adapters/secrets/file-secret-store';
import { openStore } from '../src/main/adapters/sqlite/sqlite-store';
import { createBackupService, restoreFromBackup } from '../src/main/composition/backups';
import type { BenchMetric, BenchResult } from './bench-result';
import { median, timeAsync } from './statistics';

const FILE_BYTES = 4 * 1024 * 1024;
const TOTAL_MIB = Number(process.env.AIVORY_BENCH_BACKUP_MIB ?? 1024);
const CONVERSATIONS = 2_000;
const RESTORE_CONVERSATIONS = 10_000;
const MESSAGES = 4;
const RUNS = 3;
const TIME_GOAL_RATIO = 1.5;
const BLOCK_GOAL_MS = 50;
const RESTORE_GOAL_MS = 60_000;

export async function runBackupBench(): Promise<BenchResult> {
  const root = mkdtempSync(join(tmpdir(), 'aivory-bench-backup-'));
  try {
    const home = join(root, 'home');
    seed(home, CONVERSATIONS, Math.round((TOTAL_MIB * 1024 * 1024) / FILE_BYTES));
    const store = openStore(join(home, 'aivory.db'));
    const service = createBackupService({
      dataDir: home,
      env: {},
      copyDatabase: (target, signal) => store.copyTo(target, signal),
      secrets: new FileSecretStore(join(home, 'secrets.json')),
    });
    const tarTimes: number[] = [];
    const writeTimes: number[] = [];
    const createTimes: number[] = [];
    const blocks: number[] = [];
    const idleBlocks: number[] = [];
    try {
      store.conversations.listConversations();
      for (let run = 0; run < RUNS; run += 1) {
        const out = join(root, `run-${run}`);
        mkdirSync(out);
        tarTimes.push(
          await timeAsync(async () => {
            const plain = join(out, 'plain.tar');
            await execute('tar', ['-cf', plain, '-C', home, 'aivory.db', 'artifacts', 'uploads']);
            // A backup is flushed to disk before it counts; the baseline is too.
            await execute('sync', [plain]);
          }),
        );
        const probe = startLoopProbe();
        const started = performance.now();
        const backup = await service.create({ destination: out, passphrase: null });
        const createMs = performance.now() - started;
        blocks.push(probe.stop());
        createTimes.push(createMs);
        writeTimes.push(createMs - (await timeVerify(service, backup.file)));
        const idle = startLoopProbe();
        await new Promise((resolve) => setTimeout(resolve, 500));
        idleBlocks.push(idle.stop());
        rmSync(out, { recursive: true, force: true });
      }
    } finally {
      store.close();
    }
    const restore = await restoreRun(root);
    const tarMs = median(tarTimes);
    const writeMs = median(writeTimes);
    const createMs = median(createTimes);
    const blockMs = Math.max(...blocks);
    const idleMs = Math.max(...idleBlocks);
    const metrics: BenchMetric[] = [
      timeMetric(`backup write, ${TOTAL_MIB} MiB of files`, writeMs, tarMs, TIME_GOAL_RATIO),
      timeMetric(`backup write + verify, ${TOTAL_MIB} MiB`, createMs, tarMs, Number.NaN),
      {
        name: 'backup: longest event-loop block',
        statistic: 'max',
        measured: { label: 'during backups', value: blockMs, unit: 'ms' },
        baseline: { label: 'idle', value: idleMs, unit: 'ms' },
        ratio: idleMs === 0 ? Number.NaN : blockMs / idleMs,
        goal: {
          description: `≤ ${BLOCK_GOAL_MS} ms`,
          met: blockMs <= BLOCK_GOAL_MS,
          missLabel: 'ABOVE GOAL',
        },
      },
      {
        name: `restore of ${RESTORE_CONVERSATIONS.toLocaleString('en-US')} conversations`,
        measured: { label: 'aivory restore', value: restore.restoreMs, unit: 'ms' },
        baseline: { label: 'tar -xf of the same file', value: restore.untarMs, unit: 'ms' },
        ratio: restore.restoreMs / restore.untarMs,
        goal: {
          description: `≤ ${RESTORE_GOAL_MS / 1000} s`,
          met: restore.restoreMs <= RESTORE_GOAL_MS,
          missLabel: 'ABOVE GOAL',
        },
      },
    ];
    return {
      metrics,
      notes: [
        `backup: ${RUNS} runs each; the write is the time to a complete file, the verify reads it back whole (hashes, integrity_check, counts); baseline tar -cf of aivory.db + artifacts + uploads, then sync of that file (a backup is fsynced before it counts)`,
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The time a verification of `file` takes on its own (subtracted from create for "write"). */
async function timeVerify(
  service: ReturnType<typeof createBackupService>,
  file: string,
): Promise<number> {
  return timeAsync(async () => {
    await service.verify(file);
  });
}

function timeMetric(name: string, value: number, tarMs: number, goal: number): BenchMetric {
  const ratio = value / tarMs;
  return {
    name,
    measured: { label: 'aivory backup', value, unit: 'ms' },
    baseline: { label: 'tar -cf + sync', value: tarMs, unit: 'ms' },
    ratio,
    goal: Number.isNaN(goal)
      ? { description: 'reported', met: true, missLabel: '' }
      : { description: `≤ ${goal}×`, met: ratio <= goal, missLabel: 'ABOVE GOAL' },
  };
}

/** A data folder of `conversations` conversations and `files` files of random bytes. */
function seed(home: string, conversations: number, files: number): void {
  mkdirSync(home, { recursive: true });
  const store = openStore(join(home, 'aivory.db'));
  try {
    const text = 'A sentence of an ordinary answer, long enough to look like one. '.repeat(8);
    for (let index = 0; index < conversations; index += 1) {
      const id = `c${index}`;
      store.conversations.createConversation({ id, title: `Conversation ${index}`, modelId: null });
      for (let message = 0; message < MESSAGES; message += 1) {
        store.conversations.createMessage({
          id: `${id}-m${message}`,
          conversationId: id,
          role: message % 2 === 0 ? 'user' : 'assistant',
          status: 'complete',
          parts: [{ kind: 'text', text }],
        });
      }
    }
  } finally {
    store.close();
  }
  for (let index = 0; index < files; index += 1) {
    const folder = join(home, index % 2 === 0 ? 'artifacts' : 'uploads', `c${index % 50}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `file-${index}.bin`), randomBytes(FILE_BYTES));
  }
}

/** A restore of 10,000 conversations (and 64 MiB of files) into an empty folder. */
async function restoreRun(root: string): Promise<{ restoreMs: number; untarMs: number }> {
  const home = join(root, 'restore-source');
  seed(home, RESTORE_CONVERSATIONS, 16);
  const store = openStore(join(home, 'aivory.db'));
  let file: string;
  try {
    const service = createBackupService({
      dataDir: home,
      env: {},
      copyDatabase: (target, signal) => store.copyTo(target, signal),
      secrets: new FileSecretStore(join(home, 'secrets.json')),
    });
    file = (await service.create({ destination: join(root, 'restore-backups'), passphrase: null }))
      .file;
  } finally {
    store.close();
  }
  const untarInto = join(root, 'untar');
  mkdirSync(untarInto);
  const untarMs = await timeAsync(() => execute('tar', ['-xf', file, '-C', untarInto]));
  const target = join(root, 'new-computer');
  const restoreMs = await timeAsync(async () => {
    await restoreFromBackup({
      env: { AIVORY_HOME: target },
      file,
      passphrase: () => Promise.resolve(null),
    });
  });
  return { restoreMs, untarMs };
}

function execute(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`)),
    );
  });
}

/** Measures the longest gap between 5 ms timer ticks (how long the loop was held) until stop. */
function startLoopProbe(): { stop: () => number } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(0, longest);
    },
  };
}
