/**
 * A storage failure in the middle of a streamed answer (issue 21, item 3), with real faults: the
 * data folder is a small tmpfs filled to the last page once the answer has started, or another
 * process holds the database's write lock past the 5 s busy timeout. The turn ends as an error
 * that says what happened and from which word the answer is missing; what was saved before
 * stays; `aivory chat` exits 1 without a stack trace and `aivory serve` keeps serving.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { connectTestSocket } from '../support/host/ws-test-client';
import type { TestSocket } from '../support/host/ws-test-client';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, collect, makeDataDir, runCli, spawnCli } from '../support/run-cli';
import { holdLock, mountSmallDisk } from '../support/storage-faults';
import type { SmallDisk } from '../support/storage-faults';
import { serveAt } from '../e2e/helpers/serve-process';
import type { RunningServe } from '../e2e/helpers/serve-process';

/** A long answer: it is still streaming when the fault comes, whatever the machine's load. */
const WORDS = Array.from({ length: 3000 }, (_, index) => `word${index}`).join(' ');
const LONG_ANSWER = { content: WORDS, chunkSize: 12, delayMs: 10 };
/** Room for the runtime files of a fresh database (its WAL grows to some hundred KiB). */
const DISK_BYTES = 8 * 1024 * 1024;
/** The full-disk and locked cases wait out SQLite's 5 s busy timeout (twice, for the lock). */
const FAULT_TEST_TIMEOUT_MS = 90_000;

const FULL_REMEDY = 'Free some space on it, then try again.';
const LOCK_REMEDY =
  'Close the program holding it (a database browser, a backup or sync tool, another Aivory busy writing), then try again.';

/** The word from which an answer whose saved text is `saved` is missing (see message-writer). */
function firstMissingWord(saved: string): number {
  const words = saved.split(/\s+/).filter((word) => word !== '').length;
  return words === 0 || /\s$/.test(saved) ? words + 1 : words;
}

/** The stored answer of the conversation's (only) turn, read by a fresh `aivory` process. */
async function storedAnswer(
  home: string,
  conversationId: string,
): Promise<{ status: string; text: string }> {
  const exported = await runCli(
    ['conversations', 'export', conversationId, '--format', 'json'],
    cliEnv(home),
  );
  expect(exported.stderr).toBe('');
  const document = JSON.parse(exported.stdout) as {
    messages: { role: string; status: string; parts: { kind: string; text?: string }[] }[];
  };
  const answer = document.messages.find((message) => message.role === 'assistant');
  return {
    status: answer?.status ?? 'missing',
    text: answer?.parts.find((part) => part.kind === 'text')?.text ?? '',
  };
}

/** The streamed answer's text as saved so far, read through a connection of the test's own. */
function savedText(databasePath: string): string {
  const database = new Database(databasePath, { readonly: true });
  try {
    const row = database
      .prepare<[], { text: string | null }>(
        `SELECT json_extract(part.data, '$.text') AS text FROM message_parts AS part
         JOIN messages AS message ON message.id = part.message_id
         WHERE message.role = 'assistant' AND part.kind = 'text'`,
      )
      .get();
    return row?.text ?? '';
  } finally {
    database.close();
  }
}

/** The stored status of a message and its turn record's stop reason and error, read directly. */
function storedEnd(
  databasePath: string,
  messageId: string,
): { status: string; stopReason: string | null; errorMessage: string | null } {
  const database = new Database(databasePath, { readonly: true });
  try {
    const message = database
      .prepare<[string], { status: string }>('SELECT status FROM messages WHERE id = ?')
      .get(messageId);
    const record = database
      .prepare<[string], { stop_reason: string; error_message: string | null }>(
        'SELECT stop_reason, error_message FROM turn_records WHERE message_id = ?',
      )
      .get(messageId);
    return {
      status: message?.status ?? 'missing',
      stopReason: record?.stop_reason ?? null,
      errorMessage: record?.error_message ?? null,
    };
  } finally {
    database.close();
  }
}

/** Waits out the unsaved end's retry timer (at most 30 s between tries). */
const ENDED_WITHIN_MS = 40_000;

/** Resolves with the conversation id once `aivory chat --json` has printed streamed text. */
function firstStreamedText(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let conversationId = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const event = JSON.parse(line) as { type: string; conversationId?: string };
        if (event.type === 'turn-start') conversationId = event.conversationId ?? '';
        if (event.type === 'text-delta') resolve(conversationId);
      }
    });
    child.once('exit', () => reject(new Error('aivory chat ended before any text streamed')));
  });
}

describe('aivory chat when the answer cannot be saved', () => {
  let server: ScriptedLlmServer | null = null;
  let disk: SmallDisk | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
    disk?.remove();
    disk = null;
  });

  it(
    'ends the turn with the full disk and the first unsaved word, exit 1, what was saved kept',
    async () => {
      server = await startScriptedLlmServer([LONG_ANSWER]);
      disk = mountSmallDisk(DISK_BYTES);
      const home = disk.dir;
      const child = spawnCli(
        ['chat', '--json', '--base-url', server.baseUrl, '--model', 'scripted-model', 'Write'],
        cliEnv(home),
      );
      const finished = collect(child);
      const conversationId = await firstStreamedText(child);
      // Some of the answer is on disk before the disk fills: it must stay.
      await expect.poll(() => savedText(join(home, 'aivory.db'))).not.toBe('');
      disk.fill();
      const result = await finished;
      disk.free();

      const answer = await storedAnswer(home, conversationId);
      expect(answer.text).not.toBe('');
      expect(WORDS.startsWith(answer.text)).toBe(true);
      expect(answer.text.length).toBeLessThan(WORDS.length);
      // The last status could not be written either: the next start marked it interrupted.
      expect(answer.status).toBe('interrupted');
      expect(result.stderr).toBe(
        `aivory: The disk holding ${home} is full: this answer could not be saved from word ` +
          `${firstMissingWord(answer.text)} (the words before it are saved). ${FULL_REMEDY}\n`,
      );
      expect(result.code).toBe(1);
      const lines = result.stdout.trim().split('\n');
      const end = JSON.parse(lines.at(-1) ?? '{}') as { type: string; stopReason: string };
      expect(end).toMatchObject({ type: 'turn-end', stopReason: 'error' });
    },
    FAULT_TEST_TIMEOUT_MS,
  );

  it(
    'ends the turn saying another program locks the database, exit 1, what was saved kept',
    async () => {
      server = await startScriptedLlmServer([LONG_ANSWER]);
      const home = makeDataDir();
      const databasePath = join(home, 'aivory.db');
      const child = spawnCli(
        ['chat', '--json', '--base-url', server.baseUrl, '--model', 'scripted-model', 'Write'],
        cliEnv(home),
      );
      const finished = collect(child);
      const conversationId = await firstStreamedText(child);
      await expect.poll(() => savedText(databasePath)).not.toBe('');
      const lock = await holdLock(databasePath, 'write');
      const result = await finished;
      await lock.release();

      const answer = await storedAnswer(home, conversationId);
      expect(answer.text).not.toBe('');
      expect(WORDS.startsWith(answer.text)).toBe(true);
      expect(answer.text.length).toBeLessThan(WORDS.length);
      expect(result.stderr).toBe(
        `aivory: The database ${databasePath} is locked by another program (Aivory waited 5 s ` +
          `for it): this answer could not be saved from word ${firstMissingWord(answer.text)} ` +
          `(the words before it are saved). ${LOCK_REMEDY}\n`,
      );
      expect(result.code).toBe(1);
    },
    FAULT_TEST_TIMEOUT_MS,
  );
});

describe('aivory serve when the answer cannot be saved', () => {
  let server: ScriptedLlmServer | null = null;
  let disk: SmallDisk | null = null;
  let serve: RunningServe | null = null;
  let client: TestSocket | null = null;
  afterAll(async () => {
    client?.close();
    await serve?.stop();
    await server?.close();
    disk?.remove();
  });

  it(
    'ends the turn with an error event, keeps serving, and saves again once there is room',
    async () => {
      server = await startScriptedLlmServer([LONG_ANSWER, { content: 'Saved again.' }]);
      disk = mountSmallDisk(DISK_BYTES);
      const home = disk.dir;
      serve = await serveAt(home, {
        AIVORY_BASE_URL: server.baseUrl,
        AIVORY_MODEL: 'scripted-model',
      });
      const { port, token } = (() => {
        const url = new URL(serve.url);
        return { port: url.port, token: url.searchParams.get('token') ?? '' };
      })();
      client = await connectTestSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, {
        origin: `http://127.0.0.1:${port}`,
      });
      const turnEvent = (type: string, turnId: string) =>
        client?.waitForEvent((frame) => {
          const payload = frame.payload as { turnId?: string; event?: { type?: string } };
          return (
            frame.name === 'turn.event' && payload.turnId === turnId && payload.event?.type === type
          );
        });

      const sent = await client.request('chat.send', { text: 'Write' });
      expect(sent.result.ok).toBe(true);
      const { turnId, conversationId, messageId } = (
        sent.result as { value: Record<string, string> }
      ).value;
      await turnEvent('text-delta', turnId ?? '');
      await expect.poll(() => savedText(join(home, 'aivory.db'))).not.toBe('');
      disk.fill();
      const end = (await turnEvent('turn-end', turnId ?? '')) as {
        payload: { event: { stopReason: string; error?: { code: string; message: string } } };
      };
      expect(end.payload.event.stopReason).toBe('error');
      expect(end.payload.event.error?.code).toBe('storage');
      const message = end.payload.event.error?.message ?? '';
      const word =
        /^The disk holding (.+) is full: this answer could not be saved from word (\d+) \(the words before it are saved\)\. (.+)$/.exec(
          message,
        );
      expect(word?.[1]).toBe(home);
      expect(Number(word?.[2])).toBeGreaterThan(1);
      expect(word?.[3]).toBe(FULL_REMEDY);

      // Still serving, disk still full: a read answers.
      const listed = await client.request('conversations.list');
      expect(listed.result.ok).toBe(true);
      expect(serve.child.exitCode).toBeNull();
      // A window that reads the conversation now (a reload) is shown the failed end with its
      // reason, not an answer still streaming, although the store still says `streaming`.
      const reread = await client.request('conversations.get', { id: conversationId });
      const page = (
        reread.result as {
          value: {
            messages: { id: string; status: string }[];
            turns: { messageId: string; error: { message: string } | null }[];
          };
        }
      ).value;
      expect(page.messages.find((entry) => entry.id === messageId)?.status).toBe('error');
      expect(page.turns.find((turn) => turn.messageId === messageId)?.error?.message).toBe(message);

      // Room again: the answer is ended as failed, with the reason the page was shown (it stayed
      // `streaming` for the life of the process: issue 37, item 9), without another turn.
      expect(storedEnd(join(home, 'aivory.db'), messageId ?? '').status).toBe('streaming');
      disk.free();
      await expect
        .poll(() => storedEnd(join(home, 'aivory.db'), messageId ?? ''), {
          timeout: ENDED_WITHIN_MS,
          interval: 250,
        })
        .toEqual({ status: 'error', stopReason: 'error', errorMessage: message });
      const kept = savedText(join(home, 'aivory.db'));

      // The next turn is saved, and sends the failed answer as history.
      const again = await client.request('chat.send', { text: 'Again', conversationId });
      expect(again.result.ok).toBe(true);
      const againId = (again.result as { value: Record<string, string> }).value.turnId ?? '';
      const done = (await turnEvent('turn-end', againId)) as {
        payload: { event: { stopReason: string } };
      };
      expect(done.payload.event.stopReason).toBe('completed');
      const history = JSON.stringify(server.requests[1]?.body.messages ?? []);
      expect(history).toContain(JSON.stringify(kept.trim()).slice(1, -1));
      expect(serve.output()).not.toContain('internal error was caught');
    },
    FAULT_TEST_TIMEOUT_MS,
  );
});

describe('aivory serve when a lock keeps the answer from being saved', () => {
  let server: ScriptedLlmServer | null = null;
  let serve: RunningServe | null = null;
  let client: TestSocket | null = null;
  afterAll(async () => {
    client?.close();
    await serve?.stop();
    await server?.close();
  });

  it(
    'ends the turn with the lock, then stores the answer as failed with it once released',
    async () => {
      server = await startScriptedLlmServer([LONG_ANSWER]);
      const home = makeDataDir();
      const databasePath = join(home, 'aivory.db');
      serve = await serveAt(home, {
        AIVORY_BASE_URL: server.baseUrl,
        AIVORY_MODEL: 'scripted-model',
      });
      const url = new URL(serve.url);
      client = await connectTestSocket(
        `ws://127.0.0.1:${url.port}/ws?token=${url.searchParams.get('token') ?? ''}`,
        { origin: `http://127.0.0.1:${url.port}` },
      );
      const socket = client;
      const turnEvent = (type: string) =>
        socket.waitForEvent((frame) => {
          const payload = frame.payload as { event?: { type?: string } };
          return frame.name === 'turn.event' && payload.event?.type === type;
        });
      const streaming = turnEvent('text-delta');
      const ended = turnEvent('turn-end');
      const sent = await socket.request('chat.send', { text: 'Write' });
      expect(sent.result.ok).toBe(true);
      const { messageId } = (sent.result as { value: Record<string, string> }).value;
      await streaming;
      await expect.poll(() => savedText(databasePath)).not.toBe('');
      const lock = await holdLock(databasePath, 'write');
      const end = (await ended) as {
        payload: { event: { stopReason: string; error?: { code: string; message: string } } };
      };
      expect(end.payload.event.stopReason).toBe('error');
      const message = end.payload.event.error?.message ?? '';
      expect(message).toMatch(
        /^The database .+ is locked by another program \(Aivory waited 5 s for it\): this answer could not be saved from word \d+/,
      );
      expect(storedEnd(databasePath, messageId ?? '').status).toBe('streaming');
      await lock.release();
      await expect
        .poll(() => storedEnd(databasePath, messageId ?? ''), {
          timeout: ENDED_WITHIN_MS,
          interval: 250,
        })
        .toEqual({ status: 'error', stopReason: 'error', errorMessage: message });
      expect(serve.child.exitCode).toBeNull();
    },
    FAULT_TEST_TIMEOUT_MS,
  );
});
