/**
 * A conversation's own tool switches from the real CLI: `aivory conversations tools ID --off …`
 * changes what the next turn of that conversation offers, and only that conversation.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';

describe('aivory conversations tools', () => {
  let server: ScriptedLlmServer | null = null;
  let other: ScriptedLlmServer | null = null;
  afterEach(async () => {
    await server?.close();
    await other?.close();
    other = null;
  });

  it('switches tools per conversation over the model defaults', async () => {
    server = await startScriptedLlmServer([{ content: 'a' }, { content: 'b' }, { content: 'c' }]);
    const env = cliEnv(makeDataDir());
    const base = [
      'chat',
      '--json',
      '--base-url',
      server.baseUrl,
      '--model',
      'm',
      '--tool-mode',
      'prompt',
    ];
    const offers = (index: number, name: string) =>
      (
        (server?.requests[index]?.body.messages as { content: string }[])[0]?.content ?? ''
      ).includes(`### ${name}\n`);
    const first = await runCli([...base, 'hello'], env);
    const id = String(jsonLines(first.stdout)[0]?.conversationId);
    expect(offers(0, 'save_memory')).toBe(true);

    const switched = await runCli(['conversations', 'tools', id, '--off', 'save_memory'], env);
    expect(switched.code).toBe(0);
    expect(switched.stdout).toMatch(/^✗ save_memory\s+switched off for this conversation$/m);
    expect(switched.stdout).toMatch(/^✓ use_skill\s+in the model's defaults$/m);
    expect(switched.stdout).toMatch(/^✓ web_fetch\s+in the model's defaults$/m);

    await runCli([...base, '--conversation', id, 'again'], env);
    expect(offers(1, 'save_memory')).toBe(false);
    expect(offers(1, 'use_skill')).toBe(true);
    await runCli([...base, 'elsewhere'], env);
    expect(offers(2, 'save_memory')).toBe(true);

    const json = await runCli(['conversations', 'tools', id, '--reset', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ toggles: {} });
    const bad = await runCli(['conversations', 'tools', id, '--on', 'x', '--off', 'x'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('x is both --on and --off.');
  }, 120_000);

  it('a tool switched on for a conversation reaches its next turn, outside the model defaults', async () => {
    server = await startScriptedLlmServer([{ content: 'a' }, { content: 'b' }, { content: 'c' }]);
    const env = cliEnv(makeDataDir());
    const added = await runCli(
      [
        'models',
        'add',
        '--base-url',
        server.baseUrl,
        '--model',
        'm',
        '--tool-mode',
        'prompt',
        '--tools',
        'save_memory',
        '--default',
      ],
      env,
    );
    expect(added.code).toBe(0);
    const offers = (index: number, name: string) =>
      (
        (server?.requests[index]?.body.messages as { content: string }[])[0]?.content ?? ''
      ).includes(`### ${name}\n`);
    const first = await runCli(['chat', '--json', 'hello'], env);
    const id = String(jsonLines(first.stdout)[0]?.conversationId);
    expect([offers(0, 'save_memory'), offers(0, 'web_fetch')]).toEqual([true, false]);

    const switched = await runCli(['conversations', 'tools', id, '--on', 'web_fetch'], env);
    expect(switched.stdout).toMatch(/^✓ web_fetch\s+switched on for this conversation$/m);
    await runCli(['chat', '--json', '--conversation', id, 'fetch something'], env);
    expect([offers(1, 'save_memory'), offers(1, 'web_fetch')]).toEqual([true, true]);

    // A one-off --tools is exactly this turn's tools; the conversation's switches stay.
    await runCli(['chat', '--json', '--conversation', id, '--tools', 'save_memory', 'x'], env);
    expect([offers(2, 'save_memory'), offers(2, 'web_fetch')]).toEqual([true, false]);
  }, 120_000);

  it('a conversation continues with the saved model it last used, whatever the default now is', async () => {
    server = await startScriptedLlmServer([{ content: 'from A' }, { content: 'again A' }]);
    other = await startScriptedLlmServer([{ content: 'from B' }]);
    const env = cliEnv(makeDataDir());
    const add = async (url: string, name: string, extra: string[]) =>
      (
        await runCli(
          ['models', 'add', '--base-url', url, '--model', name, '--tools', 'save_memory', ...extra],
          env,
        )
      ).stdout.trim();
    const a = await add(server.baseUrl, 'model-a', ['--default']);
    const b = await add(other.baseUrl, 'model-b', ['--tools', 'web_fetch']);
    const first = await runCli(['chat', '--json', 'hello'], env);
    const id = String(jsonLines(first.stdout)[0]?.conversationId);
    expect((await runCli(['models', 'default', b], env)).code).toBe(0);

    // The conversation's tools are described by the model it will really use (A: save_memory).
    const tools = await runCli(['conversations', 'tools', id], env);
    expect(tools.stdout).toMatch(/^✓ save_memory\s+in the model's defaults$/m);
    expect(tools.stdout).not.toMatch(/^✓ web_fetch/m);
    const again = await runCli(['chat', '--json', '--conversation', id, 'more'], env);
    expect(again.code).toBe(0);
    expect(server.requests.map((request) => request.body.model)).toEqual(['model-a', 'model-a']);
    expect(other.requests).toHaveLength(0);

    // A new conversation takes the default (now B).
    await runCli(['chat', '--json', 'new one'], env);
    expect(other.requests.map((request) => request.body.model)).toEqual(['model-b']);
    expect(a).not.toBe(b);
  }, 120_000);
});
