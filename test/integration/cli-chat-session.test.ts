/**
 * The interactive `aivory chat` and the chat output of issue 22, from the real CLI process
 * against the scripted model server: lines on standard input, the prompt on standard error as
 * the marker that a turn is over (no sleeps); Ctrl-C (SIGINT) during an answer stops it and the
 * prompt comes back, twice at the prompt quits; /new, /retry, --continue, the line with the id
 * to continue with, titles from the model, the reasoning on its own lines.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { SESSION_PROMPT } from '../../src/main/cli/chat-session';
import type { RecordedRequest, ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { ScriptedResponse } from '../support/llm-script';
import { AIVORY_BIN, cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';

/** The last user message of a chat request. */
function question(request: RecordedRequest): string {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const last = messages.findLast((message) => message.role === 'user');
  return typeof last?.content === 'string' ? last.content : '';
}

/** Answers by question: `answers[question]`, else an echo. */
function byQuestion(answers: Record<string, ScriptedResponse>) {
  return (request: RecordedRequest): ScriptedResponse =>
    answers[question(request)] ?? { content: `You said: ${question(request)}` };
}

interface Session {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  prompts(): number;
  send(line: string): void;
  /** Resolves once `condition` holds; fails if the process exits first. */
  until(condition: () => boolean, what: string): Promise<void>;
  exited: Promise<number | null>;
}

function startSession(args: string[], env: NodeJS.ProcessEnv): Session {
  const child = spawn(process.execPath, [AIVORY_BIN, 'chat', ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let ended = false;
  const watchers = new Set<() => void>();
  const notify = (): void => {
    for (const watcher of [...watchers]) watcher();
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    notify();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    notify();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      ended = true;
      notify();
      resolve(code);
    }),
  );
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    prompts: () => stderr.split(SESSION_PROMPT).length - 1,
    send: (line) => child.stdin.write(`${line}\n`),
    exited,
    until: (condition, what) =>
      new Promise<void>((resolve, reject) => {
        const watcher = (): void => {
          if (condition()) {
            watchers.delete(watcher);
            resolve();
          } else if (ended) {
            watchers.delete(watcher);
            reject(new Error(`exited before ${what}\nstdout: ${stdout}\nstderr: ${stderr}`));
          }
        };
        watchers.add(watcher);
        watcher();
      }),
  };
}

/** Several CLI processes per test on a loaded 2-core machine: a hang guard, not a speed check. */
const SESSION_TEST_TIMEOUT_MS = 120_000;

const CONTINUE_LINE = /conversation (\S+) · continue with: aivory chat --conversation (\S+)\n/;

describe('aivory chat, interactive', () => {
  let server: ScriptedLlmServer | null = null;
  const sessions: Session[] = [];
  afterEach(async () => {
    for (const session of sessions.splice(0)) session.child.kill('SIGKILL');
    await server?.close();
    server = null;
  });

  function open(args: string[], env: NodeJS.ProcessEnv): Session {
    const session = startSession(args, env);
    sessions.push(session);
    return session;
  }

  it(
    'runs a turn per line in one conversation, /new starts another, titles come from the model, /quit quits',
    async () => {
      server = await startScriptedLlmServer(
        byQuestion({ Hello: { content: 'Hi there!' }, 'And you?': { content: 'Fine.' } }),
        {
          titles: (request) => ({
            content: question(request).includes('Hello') ? '"Greetings."' : 'Second topic',
          }),
        },
      );
      const home = makeDataDir();
      const chat = open(['--base-url', server.baseUrl, '--model', 'scripted-model'], cliEnv(home));
      await chat.until(() => chat.prompts() === 1, 'the first prompt');
      chat.send('Hello');
      await chat.until(() => chat.prompts() === 2, 'the prompt after the first answer');
      expect(chat.stdout()).toBe('Hi there!\n');
      chat.send('And you?');
      await chat.until(() => chat.prompts() === 3, 'the prompt after the second answer');
      expect(chat.stdout()).toBe('Hi there!\nFine.\n');
      // The second turn carried the first as history: one conversation.
      const second = server.requests.at(-1)?.body.messages as { content: string }[];
      expect(second.map((message) => message.content)).toEqual(
        expect.arrayContaining(['Hello', 'Hi there!', 'And you?']),
      );

      chat.send('/new');
      await chat.until(() => chat.prompts() === 4, 'the prompt after /new');
      chat.send('Another thing');
      await chat.until(() => chat.prompts() === 5, 'the prompt after the new conversation');
      expect(chat.stdout()).toContain('You said: Another thing\n');
      const fresh = server.requests.at(-1)?.body.messages as { role: string }[];
      expect(fresh.filter((message) => message.role === 'user')).toHaveLength(1);

      chat.send('/quit');
      expect(await chat.exited).toBe(0);
      // One title request per conversation, after its first answer only.
      expect(server.titleRequests).toHaveLength(2);
      const [, id] = CONTINUE_LINE.exec(chat.stderr()) ?? [];
      const list = await runCli(['conversations', 'list', '--json'], cliEnv(home));
      const conversations = JSON.parse(list.stdout) as { id: string; title: string }[];
      expect(conversations.map((conversation) => conversation.title).sort()).toEqual([
        'Greetings',
        'Second topic',
      ]);
      expect(conversations.find((conversation) => conversation.title === 'Second topic')?.id).toBe(
        id,
      );
    },
    SESSION_TEST_TIMEOUT_MS,
  );

  it(
    'Ctrl-C stops the answer being written and the prompt comes back; /retry answers again; Ctrl-C twice at the prompt quits',
    async () => {
      let long = 0;
      server = await startScriptedLlmServer((request) => {
        if (question(request) !== 'Tell me a long story') return { content: 'Unexpected.' };
        long += 1;
        // The first answer hangs after its first words until the CLI goes away.
        return long === 1
          ? { content: 'Once upon a time, there was a long story.', hangAfterChunks: 3 }
          : { content: 'The end.' };
      });
      const home = makeDataDir();
      const chat = open(['--base-url', server.baseUrl, '--model', 'scripted-model'], cliEnv(home));
      await chat.until(() => chat.prompts() === 1, 'the first prompt');
      chat.send('Tell me a long story');
      await chat.until(() => chat.stdout().includes('Once up'), 'the first words');
      chat.child.kill('SIGINT');
      await chat.until(() => chat.prompts() === 2, 'the prompt after Ctrl-C');
      await server.whenAborted(1);
      expect(chat.stderr()).toContain('[stopped]');
      expect(chat.child.exitCode).toBeNull();

      chat.send('/retry');
      await chat.until(() => chat.prompts() === 3, 'the prompt after /retry');
      expect(chat.stdout()).toMatch(/The end\.\n$/);

      chat.child.kill('SIGINT');
      await chat.until(() => chat.stderr().includes('Ctrl-C again or Ctrl-D to quit'), 'the hint');
      chat.child.kill('SIGINT');
      expect(await chat.exited).toBe(0);
      const [, id] = CONTINUE_LINE.exec(chat.stderr()) ?? [];
      const shown = await runCli(
        ['conversations', 'export', String(id), '--format', 'json'],
        cliEnv(home),
      );
      const document = JSON.parse(shown.stdout) as {
        messages: { role: string; status: string; parts: { kind: string; text?: string }[] }[];
      };
      // The stopped answer was replaced by the retry's.
      expect(document.messages.map((message) => [message.role, message.status])).toEqual([
        ['user', 'complete'],
        ['assistant', 'complete'],
      ]);
      expect(document.messages[1]?.parts[0]?.text).toBe('The end.');
    },
    SESSION_TEST_TIMEOUT_MS,
  );

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(
      `${signal} stops the answer being written and ends the session (Ctrl-C would not)`,
      async () => {
        server = await startScriptedLlmServer(() => ({
          content: 'Once upon a time, there was a long story.',
          hangAfterChunks: 3,
        }));
        const home = makeDataDir();
        const chat = open(
          ['--base-url', server.baseUrl, '--model', 'scripted-model'],
          cliEnv(home),
        );
        await chat.until(() => chat.prompts() === 1, 'the first prompt');
        chat.send('Tell me a long story');
        await chat.until(() => chat.stdout().includes('Once up'), 'the first words');
        chat.child.kill(signal);
        await chat.exited;
        await server.whenAborted(1);
        // No prompt after the stopped answer: the session ended.
        expect(chat.prompts()).toBe(1);
        const listed = await runCli(['conversations', 'list', '--json'], cliEnv(home));
        const [conversation] = JSON.parse(listed.stdout) as { id: string }[];
        const shown = await runCli(
          ['conversations', 'export', conversation?.id ?? 'missing', '--format', 'json'],
          cliEnv(home),
        );
        const document = JSON.parse(shown.stdout) as {
          messages: { role: string; status: string }[];
        };
        expect(document.messages.map((message) => [message.role, message.status])).toEqual([
          ['user', 'complete'],
          ['assistant', 'canceled'],
        ]);
      },
      SESSION_TEST_TIMEOUT_MS,
    );
  }

  it(
    'Ctrl-D (end of input) quits; /retry of a complete answer writes a new version',
    async () => {
      let count = 0;
      server = await startScriptedLlmServer(() => ({ content: `Answer ${++count}.` }));
      const home = makeDataDir();
      const chat = open(['--base-url', server.baseUrl, '--model', 'scripted-model'], cliEnv(home));
      await chat.until(() => chat.prompts() === 1, 'the first prompt');
      chat.send('Question');
      await chat.until(() => chat.prompts() === 2, 'the first answer');
      chat.send('/retry');
      await chat.until(() => chat.prompts() === 3, 'the new version');
      expect(chat.stdout()).toBe('Answer 1.\nAnswer 2.\n');
      chat.child.stdin.end();
      expect(await chat.exited).toBe(0);
      const [, id] = CONTINUE_LINE.exec(chat.stderr()) ?? [];
      const shown = await runCli(['conversations', 'show', String(id)], cliEnv(home));
      expect(shown.stdout).toContain('[version 2/2]');
    },
    SESSION_TEST_TIMEOUT_MS,
  );

  it(
    'prints the id to continue with after a one-shot turn (not with --json); --continue goes on with the latest conversation',
    async () => {
      server = await startScriptedLlmServer(
        byQuestion({ First: { content: 'One.' }, Second: { content: 'Two.' } }),
      );
      const home = makeDataDir();
      const base = ['chat', '--base-url', server.baseUrl, '--model', 'scripted-model'];
      const first = await runCli([...base, 'First'], cliEnv(home));
      expect(first.code).toBe(0);
      expect(first.stdout).toBe('One.\n');
      const [line, id, again] = CONTINUE_LINE.exec(first.stderr) ?? [];
      expect(line).toBeDefined();
      expect(again).toBe(id);
      expect(first.stderr.endsWith(line ?? '-')).toBe(true);

      const json = await runCli([...base, '--json', 'Other'], cliEnv(home));
      expect(json.stderr).toBe('');
      const otherId = String(jsonLines(json.stdout)[0]?.conversationId);

      // --continue: the conversation with the latest activity (the --json one), one-shot.
      const third = await runCli([...base, '--continue', 'Third'], cliEnv(home));
      expect(CONTINUE_LINE.exec(third.stderr)?.[1]).toBe(otherId);

      // --conversation ID without a message: interactive, with that conversation's history.
      const chat = open(
        ['--base-url', server.baseUrl, '--model', 'scripted-model', '--conversation', String(id)],
        cliEnv(home),
      );
      await chat.until(() => chat.prompts() === 1, 'the prompt');
      expect(chat.stderr()).toContain(`Continuing "First" (${id})`);
      chat.send('Second');
      await chat.until(() => chat.prompts() === 2, 'the answer');
      expect(chat.stdout()).toBe('Two.\n');
      const history = server.requests.at(-1)?.body.messages as { content: string }[];
      expect(history.map((message) => message.content)).toEqual(
        expect.arrayContaining(['First', 'One.', 'Second']),
      );
      chat.send('/quit');
      expect(await chat.exited).toBe(0);

      // Interactive --continue picks the same latest conversation (now the one just used).
      const latest = open(
        ['--base-url', server.baseUrl, '--model', 'scripted-model', '--continue'],
        cliEnv(home),
      );
      await latest.until(() => latest.prompts() === 1, 'the prompt');
      expect(latest.stderr()).toContain(`(${id})`);
      latest.child.stdin.end();
      expect(await latest.exited).toBe(0);

      const both = await runCli(
        [...base, '--continue', '--conversation', String(id), 'x'],
        cliEnv(home),
      );
      expect(both.code).toBe(2);
      const none = await runCli([...base, '--continue', 'x'], cliEnv(makeDataDir()));
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('no conversation to continue');
    },
    SESSION_TEST_TIMEOUT_MS,
  );

  it(
    '/model switches to a saved model, /tools chooses the tools, /help and unknown commands',
    async () => {
      server = await startScriptedLlmServer((request) => ({
        content: `From ${String(request.body.model)}.`,
      }));
      const home = makeDataDir();
      const added = await runCli(
        [
          'models',
          'add',
          '--base-url',
          server.baseUrl,
          '--model',
          'other-model',
          '--label',
          'Other',
        ],
        cliEnv(home),
      );
      expect(added.code, added.stderr).toBe(0);
      const chat = open(['--base-url', server.baseUrl, '--model', 'scripted-model'], cliEnv(home));
      await chat.until(() => chat.prompts() === 1, 'the first prompt');
      chat.send('/help');
      await chat.until(() => chat.prompts() === 2, 'the help');
      expect(chat.stderr()).toContain('/retry');
      chat.send('/model');
      await chat.until(() => chat.prompts() === 3, 'the model list');
      expect(chat.stderr()).toContain('Model: scripted-model at');
      expect(chat.stderr()).toMatch(/\S+\tOther\tother-model/);
      chat.send('/model Other');
      await chat.until(() => chat.prompts() === 4, 'the switch');
      chat.send('/tools none');
      await chat.until(() => chat.prompts() === 5, 'the tools');
      expect(chat.stderr()).toContain('No tools (chosen for this session).');
      chat.send('Hi');
      await chat.until(() => chat.prompts() === 6, 'the answer');
      expect(chat.stdout()).toBe('From other-model.\n');
      expect(server.requests.at(-1)?.body.tools).toBeUndefined();
      chat.send('/tools default');
      await chat.until(() => chat.prompts() === 7, 'the default tools');
      expect(chat.stderr()).toMatch(/Tools \(the model's defaults\): .*save_memory/);
      chat.send('/bogus');
      await chat.until(() => chat.prompts() === 8, 'the unknown command');
      expect(chat.stderr()).toContain('unknown command /bogus; /help lists them.');
      chat.send('/model Missing');
      await chat.until(() => chat.prompts() === 9, 'the missing model');
      expect(chat.stderr()).toContain('No saved model "Missing"');
      chat.send('/quit');
      expect(await chat.exited).toBe(0);
    },
    SESSION_TEST_TIMEOUT_MS,
  );

  it(
    '--show-reasoning ends the reasoning on its own line, a blank line before the answer',
    async () => {
      server = await startScriptedLlmServer(() => ({
        reasoning: 'I think about tea.',
        content: 'Green tea.',
      }));
      const home = makeDataDir();
      // Both streams into one pipe, in the order they were written, as a terminal shows them.
      const child = spawn(
        'sh',
        [
          '-c',
          '"$0" "$1" chat --show-reasoning --base-url "$2" --model scripted-model "Tea?" 2>&1',
          process.execPath,
          AIVORY_BIN,
          server.baseUrl,
        ],
        { env: cliEnv(home), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      expect(output).toContain('[reasoning]\nI think about tea.\n\nGreen tea.\n');
    },
    SESSION_TEST_TIMEOUT_MS,
  );
});
