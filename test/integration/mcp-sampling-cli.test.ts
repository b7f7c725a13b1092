/**
 * MCP sampling from the CLI against the real server-everything and the scripted LLM server:
 * `aivory mcp call` of `trigger-sampling-request` with `--sampling deny` (refused, the model is
 * not asked), `--sampling allow` (the default model answers without tools; its reply is in the
 * tool's result), no model configured (denied, saying why), a (fake) terminal answering "a"
 * (always: the next call does not ask). And `aivory chat`: the model's call triggers sampling,
 * the conversation's model answers it, and the turn's model reads only the tool's result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as runCliInProcess } from '../../src/main/cli/main';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { fakeTerminal } from '../support/fake-terminal';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

describe('aivory mcp call / chat and a server that asks for sampling', () => {
  let server: EverythingServer;
  let env: NodeJS.ProcessEnv;
  let llm: ScriptedLlmServer;
  const replies: string[] = [];
  beforeAll(async () => {
    server = await startEverythingServer('streamableHttp');
    llm = await startScriptedLlmServer(() => ({
      content: replies.shift() ?? 'unexpected',
      usage: { prompt_tokens: 1000, completion_tokens: 10, total_tokens: 1010 },
    }));
    env = cliEnv(makeDataDir());
    const add = ['mcp', 'add', '--name', 'everything', '--url', server.url];
    expect((await runCli([...add, '--description', 'Test utilities.'], env)).code).toBe(0);
    const synced = await runCli(['mcp', 'sync', 'everything'], env);
    // The client offers sampling, so the server lists its sampling tool.
    expect(synced.stdout).toContain('+ trigger-sampling-request: added');
    expect((await runCli(['mcp', 'accept', 'everything'], env)).code).toBe(0);
    expect((await runCli(['mcp', 'enable', 'everything'], env)).code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await llm.close();
    await server.stop();
  });

  const args = JSON.stringify({ prompt: 'Summarise MCP', maxTokens: 50 });
  const call = ['mcp', 'call', 'everything', 'trigger-sampling-request', args];

  it('--sampling deny: refused before the model; no terminal denies by default', async () => {
    const before = llm.requests.length;
    const denied = await runCli([...call, '--sampling', 'deny'], env);
    expect(denied.stdout + denied.stderr).toContain('User rejected sampling request');
    const piped = await runCli(call, { ...env, AIVORY_BASE_URL: llm.baseUrl, AIVORY_MODEL: 'm' });
    expect(piped.stdout + piped.stderr).toContain('User rejected sampling request');
    expect(llm.requests.length).toBe(before);
  }, 120_000);

  it('--sampling allow: the default model answers without tools; no model: denied, saying why', async () => {
    replies.push('MCP is a protocol.');
    const modelEnv = { ...env, AIVORY_BASE_URL: llm.baseUrl, AIVORY_MODEL: 'sampler-model' };
    const allowed = await runCli([...call, '--sampling', 'allow'], modelEnv);
    expect(allowed.stdout).toContain('MCP is a protocol.');
    expect(allowed.stdout).toContain('"model": "sampler-model"');
    expect(allowed.stderr).toContain('MCP server "everything" (a third-party server, not Aivory)');
    const body = llm.requests.at(-1)?.body ?? {};
    expect(body.tools).toBeUndefined();
    expect(body.max_tokens ?? body.max_completion_tokens).toBe(50);
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a helpful test server.' },
      { role: 'user', content: 'Resource trigger-sampling-request context: Summarise MCP' },
    ]);

    const noModel = await runCli([...call, '--sampling', 'allow'], env);
    expect(noModel.stderr).toContain('denied: no model to answer');
    expect(noModel.stdout + noModel.stderr).toContain('User rejected sampling request');
  }, 120_000);

  it('on a terminal: "a" allows this server always; the next call does not ask', async () => {
    replies.push('first', 'second');
    const modelEnv = { ...env, AIVORY_BASE_URL: llm.baseUrl, AIVORY_MODEL: 'm' };
    const first = fakeTerminal(modelEnv, ['a']);
    await runCliInProcess(call, first.io);
    expect(first.stderr()).toContain('Model: m · at most 50 tokens');
    expect(first.stderr()).toContain('Summarise MCP');
    expect(first.stdout()).toContain('first');
    const second = fakeTerminal(modelEnv, []);
    await runCliInProcess(call, second.io);
    expect(second.questions).toEqual([]);
    expect(second.stdout()).toContain('second');
    const settings = await runCli(['settings', 'show'], env);
    expect(settings.stdout).toMatch(/"samplingAlwaysAllow": \[\s*"/);
    // --sampling deny still refuses an always-allowed server.
    const denied = await runCli([...call, '--sampling', 'deny'], modelEnv);
    expect(denied.stdout + denied.stderr).toContain('User rejected sampling request');
    // Revoked with the settings command: the next call asks again.
    const cleared = await runCli(['settings', 'set', 'mcp.samplingAlwaysAllow', '[]'], env);
    expect(cleared.code).toBe(0);
    replies.push('third');
    const third = fakeTerminal(modelEnv, ['y']);
    await runCliInProcess(call, third.io);
    expect(third.questions).toHaveLength(1);
    expect(third.stdout()).toContain('third');
  }, 120_000);

  it("aivory chat: the model's call samples the conversation's model; the turn reads the tool result", async () => {
    await runCli(['mcp', 'approval', 'everything', 'trigger-sampling-request', 'allow'], env);
    const toolCall = JSON.stringify({
      name: 'everything__trigger-sampling-request',
      arguments: { prompt: 'Name a colour' },
    });
    const start = llm.requests.length;
    replies.push(`<tool_call>${toolCall}</tool_call>`, 'Teal.', 'The server heard: teal.');
    const chat = [
      'chat',
      '--base-url',
      llm.baseUrl,
      '--model',
      'chat-model',
      '--tool-mode',
      'prompt',
      '--tools',
      'none',
      '--mcp',
      'everything',
      '--sampling',
      'allow',
      '--json',
      'Ask the server',
    ];
    const result = await runCli(chat, env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('The server heard: teal.');
    // The sampling's tokens are the turn's too: two rounds and one sampling request.
    const end = result.stdout
      .split('\n')
      .filter((line) => line.includes('"turn-end"'))
      .map((line) => JSON.parse(line) as { usage?: unknown })[0];
    expect(end?.usage).toEqual({ inputTokens: 3000, outputTokens: 30 });
    const [round1, sampling, round2] = llm.requests.slice(start);
    expect(round1?.body.model).toBe('chat-model');
    expect(sampling?.body.model).toBe('chat-model');
    expect(sampling?.body.tools).toBeUndefined();
    // Only the server's messages: no app system prompt, no conversation.
    expect(JSON.stringify(sampling?.body.messages)).not.toContain('Ask the server');
    expect(JSON.stringify(round2?.body.messages)).toContain('LLM sampling result');
    expect(JSON.stringify(round2?.body.messages)).toContain('Teal.');
  }, 90_000);
});
