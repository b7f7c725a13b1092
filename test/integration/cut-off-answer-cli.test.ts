/**
 * What the real `aivory` does when the model server's answer is cut off (the stream closes with
 * neither a finish reason nor `[DONE]`) or refused with a bare status: it says so in words and
 * exits non-zero, and the cut answer is stored as failed with what arrived kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

const ANSWER = 'The first half of the answer, and then the second half.';

describe('aivory chat: a cut-off answer and a bare status', () => {
  let server: ScriptedLlmServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('a stream cut before it finished: the text so far, the reason, exit 3, stored as failed', async () => {
    // Chunk 0 carries the role; chunks 1–4 the first 28 characters (7 each).
    server = await startScriptedLlmServer([{ content: ANSWER, closeAfterChunks: 5 }]);
    const home = makeDataDir();
    const env = cliEnv(home, {
      AIVORY_BASE_URL: server.baseUrl,
      AIVORY_MODEL: 'scripted-model',
      AIVORY_TOOL_MODE: 'native',
    });
    const result = await runCli(['chat', 'Tell me everything'], env);
    expect(result.stdout).toBe(`${ANSWER.slice(0, 28)}\n`);
    expect(result.stderr.trim().split('\n').at(-1)).toBe(
      `aivory: The model's answer was cut off: the model server at ${server.baseUrl} closed the connection before it finished. What arrived is kept; retry for the whole answer.`,
    );
    expect(result.code).toBe(3);

    const list = await runCli(['conversations', 'list'], env);
    const conversationId = list.stdout.split('\t')[0] ?? '';
    const shown = await runCli(['conversations', 'show', conversationId], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('assistant [error]');
    expect(shown.stdout).toContain(ANSWER.slice(0, 28));
  });

  it('a bare 429 is said in words', async () => {
    server = await startScriptedLlmServer(() => ({ status: 429, bareStatus: true }));
    const env = cliEnv(makeDataDir(), {
      AIVORY_BASE_URL: server.baseUrl,
      AIVORY_MODEL: 'scripted-model',
    });
    const result = await runCli(['chat', 'Hello'], env);
    expect(result.stderr.trim().split('\n').at(-1)).toBe(
      `aivory: The model server at ${server.baseUrl} answered 429 Too Many Requests with no explanation; wait a moment and retry.`,
    );
    expect(result.code).toBe(1);
  });
});
