/**
 * Crash recovery with real processes: a child writes a streaming message through the store and is
 * killed with SIGKILL; the next open marks the message `interrupted` with the text it had
 * committed. A message streamed by a child that is still alive is left alone.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD_SCRIPT = fileURLToPath(new URL('../support/store-writer-child.ts', import.meta.url));
/** Updates to see before the kill: enough that the message is well into streaming. */
const UPDATES_BEFORE_KILL = 6;
const WAIT_TIMEOUT_MS = 20_000;

interface WriterChild {
  process: ChildProcess;
  /** Every stdout line so far. */
  lines: string[];
  /** Resolves as soon as the lines seen so far satisfy `predicate`; rejects if the child exits. */
  waitFor(predicate: (lines: string[]) => boolean): Promise<void>;
  /** Resolves once the process has exited and been reaped, and its stdout is drained. */
  finished: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startWriter(databasePath: string, mode: 'stream' | 'hold'): WriterChild {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD_SCRIPT, databasePath, mode], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  if (child.stdout === null) throw new Error('child has no stdout pipe');
  const reader = createInterface({ input: child.stdout });
  reader.on('line', (line) => {
    lines.push(line);
    for (const waiter of waiters) waiter();
  });
  const stdoutClosed = new Promise<void>((resolve) => reader.once('close', resolve));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const finished = Promise.all([exited, stdoutClosed]).then(([status]) => status);

  return {
    process: child,
    lines,
    finished,
    waitFor: (predicate) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (!predicate(lines)) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `child did not get there in time; stdout=${lines.join('|')} stderr=${stderr}`,
            ),
          );
        }, WAIT_TIMEOUT_MS);
        const onExit = (): void => {
          cleanup();
          reject(new Error(`child exited early; stdout=${lines.join('|')} stderr=${stderr}`));
        };
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
          child.off('exit', onExit);
        };
        waiters.add(check);
        child.once('exit', onExit);
        check();
      }),
  };
}

function committedTexts(lines: string[]): string[] {
  return lines
    .filter((line) => line.startsWith('committed '))
    .map((line) => {
      const text: unknown = JSON.parse(line.slice('committed '.length));
      if (typeof text !== 'string') throw new Error(`bad line ${line}`);
      return text;
    });
}

function rawMessage(
  databasePath: string,
): { status: string; owner_pid: number | null } | undefined {
  const database = new Database(databasePath, { readonly: true });
  try {
    return database
      .prepare<[], { status: string; owner_pid: number | null }>(
        "SELECT status, owner_pid FROM messages WHERE id = 'a1'",
      )
      .get();
  } finally {
    database.close();
  }
}

describe('SqliteStore crash recovery', () => {
  let directory: string;
  let databasePath: string;
  const children: ChildProcess[] = [];
  let store: SqliteStore | undefined;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'aivory-crash-'));
    databasePath = join(directory, 'aivory.db');
  });

  afterEach(() => {
    store?.close();
    store = undefined;
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(directory, { recursive: true, force: true });
  });

  it('marks the message of a writer killed with SIGKILL interrupted, keeping its committed text', async () => {
    const writer = startWriter(databasePath, 'stream');
    children.push(writer.process);
    await writer.waitFor((lines) => committedTexts(lines).length >= UPDATES_BEFORE_KILL);

    writer.process.kill('SIGKILL');
    const status = await writer.finished;
    expect(status.signal).toBe('SIGKILL');

    // Before anyone recovers it, the dead writer's message is still `streaming` under its pid.
    expect(rawMessage(databasePath)).toEqual({
      status: 'streaming',
      owner_pid: writer.process.pid,
    });

    const printed = committedTexts(writer.lines);
    const lastPrinted = printed.at(-1) ?? '';
    expect(printed.length).toBeGreaterThanOrEqual(UPDATES_BEFORE_KILL);

    store = openStore(databasePath);
    const message = store.conversations.getMessage('a1');
    expect(message?.status).toBe('interrupted');
    expect(message?.parts).toHaveLength(1);
    const part = message?.parts[0];
    const text = part?.kind === 'text' ? part.text : '';
    expect(text.length).toBeGreaterThan(0);
    // Everything the child reported as committed survived; at most the one update it committed
    // but had no time to report comes on top.
    const nextUpdate = `${lastPrinted}chunk-${printed.length} `;
    expect([lastPrinted, nextUpdate]).toContain(text);

    expect(rawMessage(databasePath)?.owner_pid).toBeNull();
    expect(store.conversations.listTurnRecords('c1')).toEqual([]);
    expect(store.conversations.getConversation('c1')?.title).toBe('Crash test');
    expect(store.recoverInterruptedMessages()).toBe(0);
  });

  it('leaves alone a message streamed by a live process, and recovers it once that process is gone', async () => {
    const writer = startWriter(databasePath, 'hold');
    children.push(writer.process);
    await writer.waitFor((lines) => lines.some((line) => line.startsWith('ready ')));

    store = openStore(databasePath);
    expect(store.conversations.getMessage('a1')?.status).toBe('streaming');
    expect(store.recoverInterruptedMessages()).toBe(0);
    expect(rawMessage(databasePath)).toEqual({
      status: 'streaming',
      owner_pid: writer.process.pid,
    });

    writer.process.kill('SIGTERM');
    await writer.finished;

    expect(store.recoverInterruptedMessages()).toBe(1);
    expect(store.conversations.getMessage('a1')?.status).toBe('interrupted');
  });
});
