/**
 * A model server that answers 429 with a long `Retry-After` (issue 37, item 7): the SDK slept
 * for the whole hour, deaf to Ctrl-C and to Stop. Now a wait of more than a minute is refused at
 * once with "retry later", a shorter one is shown while it lasts, and Ctrl-C (a real `aivory
 * chat` sent SIGINT) or Stop (`chat.cancel` in a real `aivory serve`) ends it at once, the answer
 * stored as canceled.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectTestSocket } from '../support/host/ws-test-client';
import type { TestSocket } from '../support/host/ws-test-client';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { Script, ScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, collect, jsonLines, makeDataDir, runCli, spawnCli } from '../support/run-cli';
import { serveAt } from '../e2e/helpers/serve-process';
import type { RunningServe } from '../e2e/helpers/serve-process';

/** A wait inside the cap (45 s): honoured, so only Ctrl-C or Stop ends it early. */
const RATE_LIMITED: Script = [
  { status: 429, errorMessage: 'slow down', headers: { 'retry-after': '45' } },
  { content: 'never sent' },
];
/** Well under the 45 s the server asks: the wait was cut short, not sat out. */
const PROMPTLY_MS = 15_000;
const TEST_TIMEOUT_MS = 60_000;

let server: ScriptedLlmServer | null = null;
let serve: RunningServe | null = null;
let socket: TestSocket | null = null;
afterEach(async () => {
  socket?.close();
  socket = null;
  await serve?.stop();
  serve = null;
  await server?.close();
  server = null;
});

/** The stored answers of a conversation, read by a fresh `aivory` process. */
async function storedAnswers(home: string, conversationId: string): Promise<string[]> {
  const exported = await runCli(
    ['conversations', 'export', conversationId, '--format', 'json'],
    cliEnv(home),
  );
  const document = JSON.parse(exported.stdout) as { messages: { role: string; status: string }[] };
  return document.messages
    .filter((message) => message.role === 'assistant')
    .map((message) => message.status);
}

describe('aivory chat and a long Retry-After', () => {
  it(
    'refuses a wait of an hour at once, saying how long the server asked',
    async () => {
      server = await startScriptedLlmServer([
        { status: 429, errorMessage: 'slow down', headers: { 'retry-after': '3600' } },
        { content: 'never sent' },
      ]);
      const started = Date.now();
      const result = await runCli(
        ['chat', '--json', '--base-url', server.baseUrl, '--model', 'scripted-model', 'Hi'],
        cliEnv(makeDataDir()),
      );
      expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
      expect(result.code).toBe(1);
      const end = jsonLines(result.stdout).at(-1);
      expect(end).toMatchObject({
        type: 'turn-end',
        stopReason: 'error',
        error: {
          code: 'provider',
          message:
            `The model server at ${server.baseUrl} answered HTTP 429 Too Many Requests and ` +
            'asks to wait 60 min before the next request; retry later.',
        },
      });
      expect(server.requests).toHaveLength(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'shows the wait, and Ctrl-C ends it at once with the answer stored as canceled',
    async () => {
      server = await startScriptedLlmServer(RATE_LIMITED);
      const home = makeDataDir();
      const child = spawnCli(
        ['chat', '--base-url', server.baseUrl, '--model', 'scripted-model', 'Hi'],
        cliEnv(home),
      );
      const finished = collect(child);
      let stderr = '';
      await new Promise<void>((resolve, reject) => {
        child.stderr?.on('data', (chunk: string) => {
          stderr += chunk;
          if (stderr.includes('trying again in')) resolve();
        });
        child.once('exit', () => reject(new Error(`aivory chat ended first: ${stderr}`)));
      });
      const interruptedAt = Date.now();
      child.kill('SIGINT');
      const result = await finished;
      expect(Date.now() - interruptedAt).toBeLessThan(PROMPTLY_MS);
      expect(result.stderr).toContain(
        'the model server answered HTTP 429; trying again in 45 s (Ctrl-C stops)',
      );
      expect(result.stderr).toContain('aivory: canceled');
      expect(result.code).toBe(130);
      expect(server.requests).toHaveLength(1);
      const listed = await runCli(['conversations', 'list', '--json'], cliEnv(home));
      const [conversation] = JSON.parse(listed.stdout) as { id: string }[];
      expect(await storedAnswers(home, conversation?.id ?? '')).toEqual(['canceled']);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('aivory serve and a long Retry-After', () => {
  it(
    'sends the wait to the page, and Stop ends the turn at once (turn-end, canceled)',
    async () => {
      server = await startScriptedLlmServer(RATE_LIMITED);
      const home = makeDataDir();
      serve = await serveAt(home, {
        AIVORY_BASE_URL: server.baseUrl,
        AIVORY_MODEL: 'scripted-model',
      });
      const url = new URL(serve.url);
      socket = await connectTestSocket(
        `ws://127.0.0.1:${url.port}/ws?token=${url.searchParams.get('token') ?? ''}`,
        { origin: `http://127.0.0.1:${url.port}` },
      );
      const client = socket;
      const turnEvent = (type: string) =>
        client.waitForEvent((frame) => {
          const payload = frame.payload as { event?: { type?: string } };
          return frame.name === 'turn.event' && payload.event?.type === type;
        });
      const waiting = turnEvent('model-wait');
      const sent = await client.request('chat.send', { text: 'Hi' });
      expect(sent.result.ok).toBe(true);
      const { turnId, conversationId } = (sent.result as { value: Record<string, string> }).value;
      const wait = (await waiting) as { payload: { event: Record<string, unknown> } };
      expect(wait.payload.event).toEqual({
        type: 'model-wait',
        turnId,
        waitMs: 45_000,
        status: 429,
      });

      const ended = turnEvent('turn-end');
      const stoppedAt = Date.now();
      const canceled = await client.request('chat.cancel', { turnId });
      expect(canceled.result).toEqual({ ok: true, value: { canceled: true } });
      const end = (await ended) as { payload: { event: { stopReason: string } } };
      expect(Date.now() - stoppedAt).toBeLessThan(PROMPTLY_MS);
      expect(end.payload.event.stopReason).toBe('canceled');
      expect(server.requests).toHaveLength(1);
      expect(await storedAnswers(home, conversationId ?? '')).toEqual(['canceled']);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'SIGTERM during the wait stops serve at once, the answer stored as interrupted',
    async () => {
      server = await startScriptedLlmServer(RATE_LIMITED);
      const home = makeDataDir();
      const running = await serveAt(home, {
        AIVORY_BASE_URL: server.baseUrl,
        AIVORY_MODEL: 'scripted-model',
      });
      serve = running;
      const url = new URL(running.url);
      socket = await connectTestSocket(
        `ws://127.0.0.1:${url.port}/ws?token=${url.searchParams.get('token') ?? ''}`,
        { origin: `http://127.0.0.1:${url.port}` },
      );
      const client = socket;
      const waiting = client.waitForEvent((frame) => {
        const payload = frame.payload as { event?: { type?: string } };
        return frame.name === 'turn.event' && payload.event?.type === 'model-wait';
      });
      const sent = await client.request('chat.send', { text: 'Hi' });
      const { conversationId } = (sent.result as { value: Record<string, string> }).value;
      await waiting;

      const exited = new Promise<number | null>((resolve) => running.child.once('exit', resolve));
      const stoppedAt = Date.now();
      running.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(PROMPTLY_MS);
      // Closed by serve itself, not by the entry's last resort 10 s later.
      expect(running.output()).not.toContain('was still open');
      expect(server.requests).toHaveLength(1);
      expect(await storedAnswers(home, conversationId ?? '')).toEqual(['interrupted']);
    },
    TEST_TIMEOUT_MS,
  );
});
