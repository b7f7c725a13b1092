/**
 * A damaged database is never written (issue 42, item 5), with real files, the real `aivory`
 * and a real `aivory serve`. Bytes of a table's page are flipped in a database the app made:
 * once one process has found the damage, every door refuses to write — `aivory chat` started
 * next (the file's bytes unchanged, no request to the model), a running `aivory serve`'s
 * `chat.send` — with the damaged message. Damage found only during a write (a page only the end
 * of a turn touches) stops the writing there, and the message does not claim the file is as it
 * was.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTestSocket } from '../support/host/ws-test-client';
import type { TestSocket } from '../support/host/ws-test-client';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';
import type { CliResult } from '../support/run-cli';
import { serveAt } from '../e2e/helpers/serve-process';
import type { RunningServe } from '../e2e/helpers/serve-process';

const TEST_TIMEOUT_MS = 120_000;
const ANSWER = { content: 'An answer long enough to take a few pages. '.repeat(80) };
const RECOVER = 'run aivory doctor to see how to recover.';

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * Flips the first bytes of the page that roots `table` (its b-tree page header): SQLite then
 * reads the table as malformed; flipping them again repairs it. The file must have no WAL
 * content (the app checkpoints it when its last connection closes).
 */
function flipTablePage(
  databasePath: string,
  table: string,
  { expectDamage = true }: { expectDamage?: boolean } = {},
): void {
  const database = new Database(databasePath, { readonly: true });
  const { rootpage } = database
    .prepare<[string], { rootpage: number }>('SELECT rootpage FROM sqlite_schema WHERE name = ?')
    .get(table) ?? { rootpage: 0 };
  const pageSize = Number(database.pragma('page_size', { simple: true }));
  database.close();
  expect(rootpage).toBeGreaterThan(1);
  const descriptor = openSync(databasePath, 'r+');
  try {
    const offset = (rootpage - 1) * pageSize;
    const header = Buffer.alloc(8);
    readSync(descriptor, header, 0, header.length, offset);
    writeSync(
      descriptor,
      header.map((byte) => byte ^ 0xff),
      0,
      header.length,
      offset,
    );
  } finally {
    closeSync(descriptor);
  }
  const check = new Database(databasePath, { readonly: true });
  try {
    const verdict = String(check.pragma('integrity_check(1)', { simple: true }));
    if (expectDamage) expect(verdict).not.toBe('ok');
    else expect(verdict).toBe('ok');
  } finally {
    check.close();
  }
}

/** The damaged message as `aivory` prints it: what was found, where the copy is. */
const DAMAGED =
  /^aivory: The database (\S+) is damaged \(([^)]*)\)\. (.+) and saved a copy as (\S+\.damaged-\d{8}T\d{6}Z); run aivory doctor to see how to recover\.\n$/;

function damagedMessage(result: CliResult): { kept: string; copy: string } {
  const match = DAMAGED.exec(result.stderr);
  expect(match, result.stderr).not.toBeNull();
  return { kept: match?.[3] ?? '', copy: match?.[4] ?? '' };
}

/** A data folder where `aivory chat` has answered once; returns the conversation's id. */
async function chattedHome(
  server: ScriptedLlmServer,
): Promise<{ home: string; env: NodeJS.ProcessEnv; conversationId: string }> {
  const home = makeDataDir();
  const env = cliEnv(home, { AIVORY_BASE_URL: server.baseUrl, AIVORY_MODEL: 'scripted-model' });
  const first = await runCli(['chat', 'Hello'], env);
  expect(first.code).toBe(0);
  const conversationId = /conversation (conv_\S+)/.exec(first.stderr)?.[1] ?? '';
  expect(conversationId).not.toBe('');
  expect(existsSync(join(home, 'aivory.db-wal'))).toBe(false);
  return { home, env, conversationId };
}

describe('a database found damaged', () => {
  let server: ScriptedLlmServer | null = null;
  let serve: RunningServe | null = null;
  let client: TestSocket | null = null;
  afterEach(async () => {
    client?.close();
    client = null;
    await serve?.stop();
    serve = null;
    await server?.close();
    server = null;
  });

  it(
    'is not written by the next aivory chat: refused, no model request, the file unchanged',
    async () => {
      server = await startScriptedLlmServer([ANSWER, ANSWER]);
      const { home, env } = await chattedHome(server);
      const databasePath = join(home, 'aivory.db');
      flipTablePage(databasePath, 'conversations');
      const damagedBytes = sha256(databasePath);

      const listed = await runCli(['conversations', 'list'], env);
      expect(listed.code).toBe(1);
      const found = damagedMessage(listed);
      expect(found.kept).toBe('Aivory has not changed it');
      expect(existsSync(`${databasePath}.damaged`)).toBe(true);

      const chat = await runCli(['chat', 'Hello again'], env);
      expect(chat.code).toBe(1);
      expect(damagedMessage(chat)).toEqual(found);
      expect(chat.stdout).toBe('');
      expect(server.requests).toHaveLength(1);
      expect(sha256(databasePath)).toBe(damagedBytes);

      // Reads that still work go on working; writes of every kind are refused.
      const memories = await runCli(['memories', 'list'], env);
      expect(memories.code).toBe(0);
      const saved = await runCli(
        ['models', 'add', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'other'],
        env,
      );
      expect(saved.code).toBe(1);
      expect(damagedMessage(saved)).toEqual(found);
      expect(sha256(databasePath)).toBe(damagedBytes);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'is not written by a running aivory serve: chat.send gets the damage, the file unchanged',
    async () => {
      server = await startScriptedLlmServer([ANSWER, ANSWER]);
      const { home, env, conversationId } = await chattedHome(server);
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
      flipTablePage(databasePath, 'conversations');
      const damagedBytes = sha256(databasePath);
      // Another process finds the damage; serve, running since before, learns it from there.
      const listed = await runCli(['conversations', 'list'], env);
      const found = damagedMessage(listed);

      const sent = await client.request('chat.send', { text: 'Hello again', conversationId });
      expect(sent.result).toMatchObject({ ok: false, error: { code: 'storage' } });
      const error = (sent.result as { error: { message: string } }).error;
      expect(error.message).toBe(
        `The database ${databasePath} is damaged (${/\(([^)]*)\)/.exec(listed.stderr)?.[1] ?? ''}). ` +
          `${found.kept} and saved a copy as ${found.copy}; ${RECOVER}`,
      );
      const fresh = await client.request('chat.send', { text: 'A new conversation' });
      expect(fresh.result).toMatchObject({ ok: false, error: { code: 'storage' } });
      expect(server.requests).toHaveLength(1);
      expect(sha256(databasePath)).toBe(damagedBytes);
      expect(serve.child.exitCode).toBeNull();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'is written again once the user repaired it in place (doctor) or put another file there',
    async () => {
      server = await startScriptedLlmServer([ANSWER, ANSWER, ANSWER]);
      const { home, env } = await chattedHome(server);
      const databasePath = join(home, 'aivory.db');
      flipTablePage(databasePath, 'conversations');
      expect((await runCli(['conversations', 'list'], env)).code).toBe(1);
      expect((await runCli(['chat', 'Refused'], env)).code).toBe(1);

      // Repaired in place (the same file): doctor reads every page back and lifts the refusal.
      flipTablePage(databasePath, 'conversations', { expectDamage: false });
      const doctor = await runCli(['doctor'], env);
      expect(doctor.stdout).toContain('✓ database: every page reads back intact');
      expect(existsSync(`${databasePath}.damaged`)).toBe(false);
      expect((await runCli(['chat', 'Written again'], env)).code).toBe(0);

      // Damaged again, then moved away to start afresh (doctor's other way out): a new file.
      flipTablePage(databasePath, 'conversations');
      expect((await runCli(['conversations', 'list'], env)).code).toBe(1);
      renameSync(databasePath, join(home, 'moved-away.db'));
      const fresh = await runCli(['chat', 'A fresh start'], env);
      expect(fresh.code).toBe(0);
      expect(existsSync(`${databasePath}.damaged`)).toBe(false);
      const asked = JSON.stringify(server.requests.map((request) => request.body));
      expect(asked).toContain('A fresh start');
      expect(asked).not.toContain('Refused');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'only during a write stops writing there and says the file was written to',
    async () => {
      server = await startScriptedLlmServer([ANSWER, ANSWER, ANSWER]);
      const { home, env, conversationId } = await chattedHome(server);
      const databasePath = join(home, 'aivory.db');
      // Only the end of a turn reads this table: a listing does not find the damage.
      flipTablePage(databasePath, 'turn_records');
      const listed = await runCli(['conversations', 'list'], env);
      expect(listed.code).toBe(0);

      const chat = await runCli(['chat', '--conversation', conversationId, 'Hello again'], env);
      expect(chat.code).toBe(1);
      expect(chat.stderr).toContain(`The database ${databasePath} is damaged`);
      expect(chat.stderr).toContain(
        'Aivory had written to it before the damage showed; it has stopped writing to it and saved a copy as',
      );
      expect(chat.stderr).not.toContain('has not changed it');
      expect(existsSync(`${databasePath}.damaged`)).toBe(true);
      const afterFinding = sha256(databasePath);

      const again = await runCli(['chat', '--conversation', conversationId, 'And again'], env);
      expect(again.code).toBe(1);
      expect(damagedMessage(again).kept).toBe('Aivory has not changed it');
      expect(server.requests).toHaveLength(2);
      expect(sha256(databasePath)).toBe(afterFinding);
    },
    TEST_TIMEOUT_MS,
  );
});
