import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';

const REMEMBER =
  '<tool_call>{"name":"save_memory","arguments":{"memory_text":"The user likes green tea"}}</tool_call>';

describe('aivory CLI', () => {
  let home: string;
  let server: ScriptedLlmServer | null = null;

  beforeEach(() => {
    home = makeDataDir();
  });
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('--help documents every subcommand', async () => {
    const result = await runCli(['--help'], cliEnv(home));
    expect(result.code).toBe(0);
    for (const command of [
      'chat',
      'tool NAME JSON',
      'conversations list',
      'conversations show ID',
      'conversations export ID',
      'models add',
      'tools',
    ]) {
      expect(result.stdout).toContain(`aivory ${command}`);
    }
  });

  it('chat --json in prompt mode: one event per line, type first, ending with turn-end; the turn is stored', async () => {
    server = await startScriptedLlmServer([
      { content: `Noting that.${REMEMBER}` },
      { content: 'I will remember that you like green tea.' },
    ]);
    const result = await runCli(
      [
        'chat',
        '--json',
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        '--tool-mode',
        'prompt',
        'Remember: I like green tea',
      ],
      cliEnv(home),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    for (const line of lines) expect(line.startsWith('{"type":"')).toBe(true);
    const events = jsonLines(result.stdout);
    expect(events[0]?.type).toBe('turn-start');
    expect(events.at(-1)).toMatchObject({
      type: 'turn-end',
      stopReason: 'completed',
      toolCalls: { save_memory: 1 },
    });
    expect(events.map((event) => event.type)).toContain('tool-result');
    expect(server.requests[0]?.body.stop).toEqual(['</tool_call>']);
    const text = events
      .filter((event) => event.type === 'text-delta')
      .map((event) => event.text)
      .join('');
    expect(text).toBe('Noting that.I will remember that you like green tea.');

    const conversationId = String(events[0]?.conversationId);
    const list = await runCli(['conversations', 'list'], cliEnv(home));
    expect(list.stdout).toContain(conversationId);
    expect(list.stdout).toContain('Remember: I like green tea');

    const exported = await runCli(
      ['conversations', 'export', conversationId, '--format', 'json'],
      cliEnv(home),
    );
    const document = JSON.parse(exported.stdout) as {
      messages: { role: string; status: string; parts: { kind: string }[] }[];
    };
    expect(document.messages.map((message) => [message.role, message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(document.messages[1]?.parts.map((part) => part.kind)).toEqual([
      'text',
      'tool-call',
      'tool-result',
      'text',
    ]);

    const markdown = await runCli(['conversations', 'export', conversationId], cliEnv(home));
    expect(markdown.stdout).toContain('**Tool call** `save_memory`');
    // --output writes the same text to the file (whole, through a temporary file beside it).
    const output = join(home, 'out.md');
    const written = await runCli(
      ['conversations', 'export', conversationId, '--output', output],
      cliEnv(home),
    );
    expect([written.code, written.stdout]).toEqual([0, '']);
    expect(readFileSync(output, 'utf8')).toBe(markdown.stdout);
    expect(readdirSync(home).filter((name) => name.startsWith('out.md'))).toEqual(['out.md']);

    // The memory is in the next turn's system prompt, and --conversation continues with history.
    await server.close();
    server = await startScriptedLlmServer([{ content: 'Green tea.' }]);
    const next = await runCli(
      [
        'chat',
        '--conversation',
        conversationId,
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        'What do I like?',
      ],
      cliEnv(home),
    );
    expect(next.code).toBe(0);
    expect(next.stdout).toBe('Green tea.\n');
    const messages = server.requests[0]?.body.messages as { role: string; content: string }[];
    expect(messages[0]?.content).toContain('- The user likes green tea');
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
    expect(messages[2]?.content).toBe('Noting that.\n\nI will remember that you like green tea.');
  });

  it('native mode from environment variables, with human output and a trace on stderr', async () => {
    server = await startScriptedLlmServer([
      { toolCalls: [{ name: 'save_memory', arguments: '{"memory_text":"Lives in Oslo"}' }] },
      { content: 'Saved.' },
    ]);
    const result = await runCli(
      ['chat', 'Remember I live in Oslo'],
      cliEnv(home, {
        AIVORY_BASE_URL: server.baseUrl,
        AIVORY_MODEL: 'scripted-model',
        AIVORY_TOOL_MODE: 'native',
      }),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Saved.\n');
    expect(result.stderr).toContain('→ save_memory {"memory_text":"Lives in Oslo"}');
    expect(result.stderr).toContain('✓ save_memory ok');
    const tools = server.requests[0]?.body.tools as { function: { name: string } }[];
    expect(tools.map((tool) => tool.function.name)).toEqual([
      'save_memory',
      'use_skill',
      'web_fetch',
    ]);
  });

  it('configuration and connection errors exit non-zero with one line', async () => {
    const missing = await runCli(['chat', 'hello'], cliEnv(home));
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^aivory: No model configured/);

    server = await startScriptedLlmServer([]);
    const closedPort = new URL(server.baseUrl).port;
    await server.close();
    server = null;
    const refused = await runCli(
      ['chat', '--base-url', `http://127.0.0.1:${closedPort}/v1`, '--model', 'x', 'hello'],
      cliEnv(home),
    );
    expect(refused.code).toBe(3);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(
      /^aivory: Cannot reach the model server at http:\/\/127\.0\.0\.1:\d+\/v1/,
    );

    const badMode = await runCli(
      ['chat', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'x', '--tool-mode', 'magic', 'hi'],
      cliEnv(home),
    );
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toBe('aivory: Tool mode must be "native" or "prompt", not "magic".\n');
  });

  it('a saved default model supplies base URL, model and key; the key is stored 0600 and shown masked', async () => {
    server = await startScriptedLlmServer([{ content: 'Authorized.' }], {
      apiKey: 'sk-test-1234567890abcdef',
    });
    const added = await runCli(
      [
        'models',
        'add',
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        '--api-key',
        'sk-test-1234567890abcdef',
        '--tool-mode',
        'prompt',
      ],
      cliEnv(home),
    );
    expect(added.code).toBe(0);
    const list = await runCli(['models', 'list'], cliEnv(home));
    expect(list.stdout).toContain('sk-…cdef');
    expect(list.stdout).not.toContain('1234567890');
    const chat = await runCli(['chat', 'hi'], cliEnv(home));
    expect(chat.stdout).toBe('Authorized.\n');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test-1234567890abcdef');
    expect(server.requests[0]?.body.stop).toEqual(['</tool_call>']);
    const { statSync } = await import('node:fs');
    expect(statSync(`${home}/secrets.json`).mode & 0o777).toBe(0o600);
  });

  it('aivory tool runs a tool with the same validation; bad input exits 2', async () => {
    const ok = await runCli(
      ['tool', 'save_memory', '{"memory_text":"Prefers metric units"}'],
      cliEnv(home),
    );
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('Saved to long-term memory (ACTIVE): Prefers metric units\n');
    const badJson = await runCli(['tool', 'save_memory', '{"memory_text":'], cliEnv(home));
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/^aivory: The arguments are not valid JSON/);
    const invalid = await runCli(['tool', 'save_memory', '{}'], cliEnv(home));
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toBe(
      'aivory: Invalid arguments for save_memory: "memory_text" must be a non-empty string\n',
    );
    const unknown = await runCli(['tool', 'nope', '{}'], cliEnv(home));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'aivory: Tool "nope" does not exist. Available tools: save_memory, use_skill, web_fetch, python_execute, fetch_image, aivory_web_search, image_generate.\n',
    );
  });

  it('settings: show defaults, set a validated field, refuse out-of-range values with the field name', async () => {
    const shown = await runCli(['settings'], cliEnv(home));
    expect(JSON.parse(shown.stdout)).toMatchObject({
      sandbox: { execTimeoutSeconds: 120, idleReapSeconds: 1800, memoryMiB: 2048 },
    });
    const tooLittle = await runCli(['settings', 'set', 'sandbox.memoryMiB', '100'], cliEnv(home));
    expect(tooLittle.code).toBe(2);
    expect(tooLittle.stderr).toMatch(/^aivory: Invalid setting sandbox\.memoryMiB: /);
    const set = await runCli(
      ['settings', 'set', 'sandbox.execTimeoutSeconds', '300'],
      cliEnv(home),
    );
    expect(set.code).toBe(0);
    const tooBig = await runCli(
      ['settings', 'set', 'sandbox.execTimeoutSeconds', '900'],
      cliEnv(home),
    );
    expect(tooBig.code).toBe(2);
    expect(tooBig.stderr).toMatch(/^aivory: Invalid setting sandbox\.execTimeoutSeconds: /);
    const unknown = await runCli(['settings', 'set', 'sandbox.nope', '1'], cliEnv(home));
    expect(unknown.code).toBe(2);
    const after = await runCli(['settings', 'show'], cliEnv(home));
    expect(JSON.parse(after.stdout).sandbox.execTimeoutSeconds).toBe(300);
  });

  it('doctor explains the model server and each tool, including why python_execute is hidden', async () => {
    server = await startScriptedLlmServer([], { models: ['scripted-model', 'other'] });
    const result = await runCli(
      ['doctor', '--base-url', server.baseUrl, '--model', 'scripted-model'],
      cliEnv(home),
    );
    expect(result.stdout).toContain(
      `✓ model: scripted-model @ ${server.baseUrl} (native tool mode) — server reachable, model listed`,
    );
    expect(result.stdout).toContain('✓ tool save_memory: available');
    expect(result.stdout).toContain(
      '✗ tool python_execute: 请先配置沙盒: the local sandbox is switched off (AIVORY_LOCAL_SANDBOX=0)',
    );
    expect(result.code).toBe(0);
    const offline = await runCli(['doctor'], cliEnv(home));
    expect(offline.code).toBe(1);
    expect(offline.stdout).toContain('✗ model: No model configured.');
  });

  it('doctor lists sandbox workspaces kept in their containers because they could not be saved', async () => {
    const archives = mkdtempSync(join(tmpdir(), 'aivory-kept-'));
    const containerId = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2';
    writeFileSync(
      join(archives, 'sessions.json'),
      JSON.stringify({
        [containerId]: {
          conversation: 'conv-full',
          started_at: '2026-12-02T10:00:00.000Z',
          kept: {
            since: '2026-12-02T11:30:00.000Z',
            error: 'ENOSPC: no space left on device, write',
          },
        },
        f00d: { conversation: 'conv-live', started_at: '2026-12-02T10:00:00.000Z' },
      }),
    );
    const result = await runCli(['doctor'], cliEnv(home, { SANDBOX_ARCHIVE_DIR: archives }));
    expect(result.stdout).toContain(
      '✗ sandbox files of conversation conv-full: not saved; kept in the running container a1b2c3d4e5f6 since 2026-12-02T11:30:00.000Z (ENOSPC: no space left on device, write).\n' +
        '  The files exist only in that container: do not remove it (docker rm) or restart Docker until they are saved.\n' +
        `  Free disk space for ${archives} (or fix the archive store), then start Aivory again: it saves them at start,\n` +
        '  and opening the conversation takes the container over with its files.\n',
    );
    expect(result.stdout).not.toContain('conv-live');
    expect(result.code).toBe(1);
    // Nothing kept: no such line.
    const none = await runCli(
      ['doctor'],
      cliEnv(home, { SANDBOX_ARCHIVE_DIR: mkdtempSync(join(tmpdir(), 'aivory-none-')) }),
    );
    expect(none.stdout).not.toContain('sandbox files of conversation');
  });

  it('search is offered only when configured; its key goes to the secret store and is shown masked', async () => {
    const hidden = await runCli(['tools'], cliEnv(home));
    expect(hidden.stdout).toMatch(/aivory_web_search\thidden\tWeb search is disabled/);
    const saved = await runCli(
      ['settings', 'set-key', 'search.apiKey', 'brave-key-1234567890abcdef'],
      cliEnv(home),
    );
    expect(saved.stdout).toBe('search.apiKey saved (bra…cdef)\n');
    await runCli(['settings', 'set', 'search.provider', 'brave'], cliEnv(home));
    const shown = await runCli(['settings', 'show'], cliEnv(home));
    expect(shown.stdout).not.toContain('1234567890');
    const offered = await runCli(['tools'], cliEnv(home));
    expect(offered.stdout).toMatch(/aivory_web_search\tavailable/);
    await runCli(['settings', 'clear-key', 'search.apiKey'], cliEnv(home));
    expect((await runCli(['tools'], cliEnv(home))).stdout).toMatch(
      /aivory_web_search\thidden\tBrave Search needs an API key/,
    );
  });
});
