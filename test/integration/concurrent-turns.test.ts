/**
 * Two processes on one AIVORY_HOME (issue 21, item 10): while one `aivory chat` streams an answer,
 * a second `aivory chat --conversation ID` in the same conversation is refused at once — nothing
 * stored, nothing sent to the model — and once the first turn ends the conversation answers again
 * with the whole first answer as history. A turn claimed by a process killed with SIGKILL does not
 * block the conversation. The tests wait for markers (the first streamed text, the partial answer
 * on disk, process exits), never for fixed times.
 */
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { RecordedRequest, ScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, collect, makeDataDir, runCli, spawnCli } from '../support/run-cli';

const BUSY_LINE =
  'aivory: This conversation is answering in another window or process; wait for it to finish (or stop it there), then send again.\n';
/** `EXIT_BUSY` in src/main/cli/cli-errors.ts. */
const EXIT_BUSY = 4;
const FIRST_ANSWER = 'The first answer arrives slowly, piece by piece, and then it is complete.';
/** A hang guard, not a speed check: several CLI processes on a loaded 2-core machine. */
const CLI_TEST = { timeout: 90_000 };
/** How often the test looks at the database for the partial answer (a condition, not a sleep). */
const POLL_MS = 25;

/** Resolves with the conversation id once the child has streamed its first text. */
function firstStreamedText(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let conversationId = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const event = JSON.parse(line) as { type: string; conversationId?: string };
        if (event.type === 'turn-start') conversationId = event.conversationId ?? '';
        if (event.type === 'text-delta') resolve(conversationId);
      }
    });
    child.on('exit', () => reject(new Error('the first CLI exited before it streamed text')));
  });
}

/** Resolves once the streaming answer in `home`'s database holds some text (flushed to disk). */
async function partialAnswerOnDisk(home: string): Promise<string> {
  const database = new Database(join(home, 'aivory.db'), { readonly: true, fileMustExist: true });
  try {
    for (;;) {
      const row = database
        .prepare<[], { data: string }>(
          `SELECT p.data FROM message_parts p JOIN messages m ON m.id = p.message_id
           WHERE m.status = 'streaming' AND p.kind = 'text'`,
        )
        .get();
      const text = row ? (JSON.parse(row.data) as { text?: string }).text : undefined;
      if (text) return text;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    database.close();
  }
}

/** The chat-completion requests the scripted model received. */
function completions(server: ScriptedLlmServer): RecordedRequest[] {
  return server.requests.filter((request) => request.path === '/v1/chat/completions');
}

/** The (role, content) pairs a request sent as history. */
function sentMessages(request: RecordedRequest | undefined): { role: string; content: string }[] {
  const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
  return messages.map((message) => ({
    role: message.role,
    content: typeof message.content === 'string' ? message.content : JSON.stringify(message),
  }));
}

/** Every stored message of the conversation (all versions), oldest first. */
function storedMessages(
  home: string,
  conversationId: string,
): { role: string; status: string; parentRole: string | null; text: string }[] {
  const database = new Database(join(home, 'aivory.db'), { readonly: true, fileMustExist: true });
  try {
    return database
      .prepare<
        [string],
        { role: string; status: string; parent_role: string | null; text: string | null }
      >(
        `SELECT m.role, m.status, parent.role AS parent_role,
           (SELECT group_concat(json_extract(p.data, '$.text'), '') FROM message_parts p
             WHERE p.message_id = m.id AND p.kind = 'text') AS text
         FROM messages m LEFT JOIN messages parent ON parent.id = m.parent_id
         WHERE m.conversation_id = ? ORDER BY m.seq`,
      )
      .all(conversationId)
      .map((row) => ({
        role: row.role,
        status: row.status,
        parentRole: row.parent_role,
        text: row.text ?? '',
      }));
  } finally {
    database.close();
  }
}

describe('turns of one conversation in two processes', () => {
  let server: ScriptedLlmServer | null = null;
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    children.length = 0;
    await server?.close();
    server = null;
  });

  it(
    'refuses a second turn while the first streams, and never sends its partial answer',
    CLI_TEST,
    async () => {
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      server = await startScriptedLlmServer((_request, index) =>
        index === 0
          ? { content: FIRST_ANSWER, chunkSize: 6, pauseAfterChunks: { count: 4, until: released } }
          : { content: `Answer number ${index + 1}.` },
      );
      const home = makeDataDir();
      const model = ['--base-url', server.baseUrl, '--model', 'scripted-model'];
      const first = spawnCli(['chat', '--json', ...model, 'First question'], cliEnv(home));
      children.push(first);
      const firstDone = collect(first);
      const conversationId = await firstStreamedText(first);
      const partial = await partialAnswerOnDisk(home);
      expect(FIRST_ANSWER.startsWith(partial) && partial.length < FIRST_ANSWER.length).toBe(true);

      const second = await runCli(
        ['chat', ...model, '--conversation', conversationId, 'Second question'],
        cliEnv(home),
      );
      // Nothing the second process could have sent carries the partial answer.
      for (const request of completions(server).slice(1)) {
        expect(sentMessages(request)).not.toContainEqual({ role: 'assistant', content: partial });
      }
      expect(second.stderr).toBe(BUSY_LINE);
      expect(second.code).toBe(EXIT_BUSY);
      expect(second.stdout).toBe('');
      expect(completions(server)).toHaveLength(1);

      release();
      const firstResult = await firstDone;
      expect(firstResult.code).toBe(0);
      const third = await runCli(
        ['chat', ...model, '--conversation', conversationId, 'Third question'],
        cliEnv(home),
      );
      expect(third.stderr).not.toContain('aivory:');
      expect(third.code).toBe(0);

      const history = sentMessages(completions(server)[1]).filter(
        (entry) => entry.role !== 'system',
      );
      expect(history).toEqual([
        { role: 'user', content: 'First question' },
        { role: 'assistant', content: FIRST_ANSWER },
        { role: 'user', content: 'Third question' },
      ]);
      expect(storedMessages(home, conversationId)).toEqual([
        { role: 'user', status: 'complete', parentRole: null, text: 'First question' },
        { role: 'assistant', status: 'complete', parentRole: 'user', text: FIRST_ANSWER },
        { role: 'user', status: 'complete', parentRole: 'assistant', text: 'Third question' },
        { role: 'assistant', status: 'complete', parentRole: 'user', text: 'Answer number 2.' },
      ]);
    },
  );

  it('does not let a turn killed with SIGKILL block the conversation', CLI_TEST, async () => {
    const never = new Promise<void>(() => undefined);
    server = await startScriptedLlmServer((_request, index) =>
      index === 0
        ? { content: FIRST_ANSWER, chunkSize: 6, pauseAfterChunks: { count: 4, until: never } }
        : { content: 'Answered after the crash.' },
    );
    const home = makeDataDir();
    const model = ['--base-url', server.baseUrl, '--model', 'scripted-model'];
    const first = spawnCli(['chat', '--json', ...model, 'First question'], cliEnv(home));
    children.push(first);
    const firstDone = collect(first);
    const conversationId = await firstStreamedText(first);
    const partial = await partialAnswerOnDisk(home);
    first.kill('SIGKILL');
    expect((await firstDone).signal).toBe('SIGKILL');

    const next = await runCli(
      ['chat', ...model, '--conversation', conversationId, 'Still there?'],
      cliEnv(home),
    );
    expect(next.stderr).not.toContain('aivory:');
    expect(next.code).toBe(0);
    expect(next.stdout).toContain('Answered after the crash.');
    expect(storedMessages(home, conversationId)).toEqual([
      { role: 'user', status: 'complete', parentRole: null, text: 'First question' },
      { role: 'assistant', status: 'interrupted', parentRole: 'user', text: partial },
      { role: 'user', status: 'complete', parentRole: 'assistant', text: 'Still there?' },
      {
        role: 'assistant',
        status: 'complete',
        parentRole: 'user',
        text: 'Answered after the crash.',
      },
    ]);
  });
});
