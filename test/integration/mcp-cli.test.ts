/**
 * MCP from the real CLI against the real @modelcontextprotocol/server-everything: add (header
 * stored as a secret, shown masked), test, sync with a diff that must be accepted, enable,
 * approvals, direct calls (text and image), and a chat turn in which a scripted model calls the
 * namespaced tool.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EverythingServer } from '../support/mcp-everything-server';
import { EVERYTHING_SCRIPT, startEverythingServer } from '../support/mcp-everything-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';

const SECRET = 'sk-mcp-secret-value-123456789';
const STDIO_CHILD = resolve('test/support/mcp-stdio-child.ts');

describe('aivory mcp with server-everything', () => {
  let server: EverythingServer;
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    server = await startEverythingServer('streamableHttp');
    home = makeDataDir();
    env = cliEnv(home);
  }, 120_000);
  afterAll(async () => {
    await server.stop();
  });

  it('adds, tests, syncs, accepts, enables, calls — and a model calls it in a turn', async () => {
    const missing = await runCli(['mcp', 'add', '--name', 'everything', '--url', server.url], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('a tool description is required');

    const added = await runCli(
      [
        'mcp',
        'add',
        '--name',
        'everything',
        '--url',
        server.url,
        '--description',
        'Test utilities: echo, sums and a tiny image.',
        '--header',
        `Authorization: Bearer ${SECRET}`,
        '--timeout',
        '30',
      ],
      env,
    );
    expect(added.code).toBe(0);
    expect(added.stderr).toContain('127.0.0.1 is on this machine or your local network');
    const listed = JSON.parse((await runCli(['mcp', 'list', '--json'], env)).stdout) as {
      headers: { name: string; value: string }[];
      testState: string;
      syncedAt: number | null;
    }[];
    expect(listed[0]).toMatchObject({ testState: 'untested', syncedAt: null });
    expect(listed[0]?.headers[0]?.name).toBe('Authorization');
    expect(listed[0]?.headers[0]?.value).not.toContain(SECRET);
    // The value lives in the secret store, never in the database.
    expect(readFileSync(join(home, 'aivory.db')).includes(SECRET)).toBe(false);

    const early = await runCli(['mcp', 'enable', 'everything'], env);
    expect(early.code).toBe(2);
    expect(early.stderr).toContain('has never been synced');

    expect((await runCli(['doctor'], env)).stdout).toContain(
      '✗ mcp everything: never synced: aivory mcp sync everything',
    );
    const tested = await runCli(['mcp', 'test', 'everything'], env);
    expect(tested.stdout).toMatch(/^✓ connected: connected to .+: \d+ tools/);

    const synced = await runCli(['mcp', 'sync', 'everything'], env);
    expect(synced.stdout).toMatch(/^Found \d+ tools\./);
    expect(synced.stdout).toContain('+ echo: added');
    expect(synced.stdout).toContain('cannot be called until you accept');
    const notYet = await runCli(['mcp', 'call', 'everything', 'echo', '{"message":"hi"}'], env);
    expect(notYet.code).toBe(2);
    expect(notYet.stderr).toContain('cannot be called');

    expect((await runCli(['mcp', 'accept', 'everything'], env)).code).toBe(0);
    expect((await runCli(['mcp', 'enable', 'everything'], env)).code).toBe(0);
    const resync = await runCli(['mcp', 'sync', 'everything'], env);
    expect(resync.stdout).toContain('No changes since the accepted snapshot.');

    expect((await runCli(['doctor'], env)).stdout).toMatch(
      /✓ mcp everything: (\d+) of \1 tools callable\n/,
    );

    // Prompts and resources, for the composer.
    const prompts = await runCli(['mcp', 'prompts', 'everything'], env);
    expect(prompts.stdout).toMatch(/^simple-prompt\t/m);
    expect(prompts.stdout).toMatch(/^args-prompt\tcity/m);
    const prompt = await runCli(['mcp', 'prompt', 'everything', 'args-prompt', 'city=Oslo'], env);
    expect(prompt.stdout).toContain("What's weather in Oslo");
    const resources = await runCli(['mcp', 'resources', 'everything'], env);
    const uri = /^(demo:\/\/resource\/static\/document\/\S+)\t/m.exec(resources.stdout)?.[1];
    expect(uri).toBeDefined();
    const resource = await runCli(['mcp', 'resource', 'everything', uri ?? ''], env);
    expect(resource.code).toBe(0);
    expect(resource.stdout.length).toBeGreaterThan(10);
    // Resource templates are listed; a binary resource read through one is saved as a file.
    expect(resources.stdout).toMatch(
      /^demo:\/\/resource\/dynamic\/blob\/\{resourceId\}\t.*\(template\)$/m,
    );
    const blob = await runCli(
      ['mcp', 'resource', 'everything', 'demo://resource/dynamic/blob/7'],
      env,
    );
    expect(blob.code).toBe(0);
    expect(blob.stdout).toContain('binary resource demo://resource/dynamic/blob/7');
    const saved = /📎 everything-resource-1\.bin → (.+)\n/.exec(blob.stderr)?.[1];
    expect(saved).toBeDefined();
    expect(readFileSync(saved ?? '', 'utf8')).toMatch(/^Resource 7: This is a base64 blob/);

    // echo says it is read-only: it runs without a prompt.
    const echo = await runCli(['mcp', 'call', 'everything', 'echo', '{"message":"hi"}'], env);
    expect(echo.stdout).toBe('Echo: hi\n');
    const image = await runCli(['mcp', 'call', 'everything', 'get-tiny-image', '{}'], env);
    expect(image.code).toBe(0);
    expect(image.stderr).toMatch(/📎 everything-get-tiny-image-1\.png → /);

    // A tool that does not exist is named as such, with the tools the service has.
    const nosuch = await runCli(['mcp', 'call', 'everything', 'nosuch', '{}'], env);
    expect(nosuch.code).toBe(2);
    expect(nosuch.stderr).toMatch(
      /Service everything has no tool named nosuch\. Its tools: .*echo/,
    );
    expect(nosuch.stderr).not.toContain('must be enabled');

    // `mcp call` is the user's own action: a tool set to "ask" runs without a prompt (no
    // terminal here, and no --approve), while "deny" still refuses, saying why.
    await runCli(['mcp', 'approval', 'everything', 'echo', 'ask'], env);
    const asked = await runCli(['mcp', 'call', 'everything', 'echo', '{"message":"x"}'], env);
    expect(asked).toMatchObject({ code: 0, stdout: 'Echo: x\n', stderr: '' });
    await runCli(['mcp', 'approval', 'everything', 'echo', 'deny'], env);
    const denied = await runCli(['mcp', 'call', 'everything', 'echo', '{"message":"x"}'], env);
    expect(denied.code).toBe(1);
    expect(denied.stdout).toContain(
      'echo of "everything" is blocked: its approval policy is "deny"',
    );
    await runCli(['mcp', 'approval', 'everything', 'echo', 'default'], env);

    const llm = await startScriptedLlmServer([
      {
        content:
          '<tool_call>{"name":"everything__echo","arguments":{"message":"from the model"}}</tool_call>',
      },
      { content: 'It echoed.' },
    ]);
    try {
      const chat = await runCli(
        [
          'chat',
          '--json',
          '--base-url',
          llm.baseUrl,
          '--model',
          'm',
          '--tool-mode',
          'prompt',
          '--tools',
          'none',
          '--mcp',
          'everything',
          'Echo something',
        ],
        env,
      );
      const result = jsonLines(chat.stdout).find((event) => event.type === 'tool-result') as {
        name: string;
        status: string;
        output: string;
      };
      expect(result).toMatchObject({ name: 'everything__echo', status: 'ok' });
      expect(result.output).toContain('Echo: from the model');
      const system = (llm.requests[0]?.body.messages as { content: string }[])[0]?.content ?? '';
      expect(system).toContain('### everything__echo\n');
      expect(system).toContain('Test utilities: echo, sums and a tiny image.');
    } finally {
      await llm.close();
    }

    // A model's MCP defaults show why a checked service would not run.
    const modelId = (
      await runCli(
        ['models', 'add', '--base-url', llm.baseUrl, '--model', 'm', '--mcp', 'everything'],
        env,
      )
    ).stdout.trim();
    expect((await runCli(['models', 'list'], env)).stdout).toMatch(/mcp: everything\n/);
    await runCli(['mcp', 'disable', 'everything'], env);
    expect((await runCli(['models', 'list'], env)).stdout).toMatch(/mcp: everything \(已停用\)\n/);

    const removed = await runCli(['mcp', 'remove', 'everything'], env);
    expect(removed.code).toBe(0);
    expect(JSON.parse((await runCli(['mcp', 'list', '--json'], env)).stdout)).toEqual([]);
    expect((await runCli(['models', 'list'], env)).stdout).toMatch(/mcp: mcp_[\w-]+ \(已删除\)\n/);
    expect((await runCli(['models', 'mcp', modelId, '--clear'], env)).stdout).toBe(
      'mcp: all enabled\n',
    );
  }, 240_000);

  it('takes option values starting with "-", names with spaces, and says when a server offers no prompts', async () => {
    const local = cliEnv(makeDataDir());
    await runCli(['settings', 'set', 'mcp.allowLocalCommands', 'true'], local);
    const name = "Notes Ω/2 it's";
    // `--arg --import`: node:util parseArgs alone calls this "ambiguous".
    const added = await runCli(
      [
        'mcp',
        'add',
        '--name',
        name,
        '--command',
        process.execPath,
        '--arg',
        '--import',
        '--arg',
        'tsx',
        '--arg',
        STDIO_CHILD,
        '--description',
        'A tiny stdio server.',
      ],
      local,
    );
    expect(added.code).toBe(0);
    const word = `'Notes Ω/2 it'\\''s'`;
    expect(added.stdout).toContain(
      `Next: aivory mcp test ${word}, then aivory mcp sync ${word} --accept, then aivory mcp enable ${word}.`,
    );
    expect(added.stderr).toContain(`runs "${process.execPath} --import tsx ${STDIO_CHILD}"`);
    expect((await runCli(['mcp', 'sync', name, '--accept'], local)).code).toBe(0);
    expect((await runCli(['mcp', 'enable', name], local)).code).toBe(0);

    const prompts = await runCli(['mcp', 'prompts', name], local);
    expect(prompts).toMatchObject({ code: 0, stdout: `${name} offers no prompts.\n` });
    const resources = await runCli(['mcp', 'resources', name], local);
    expect(resources.stdout).toBe(`${name} offers no resources.\n`);

    const llm = await startScriptedLlmServer([{ content: 'Nothing to call.' }]);
    try {
      const chat = await runCli(
        [
          'chat',
          '--base-url',
          llm.baseUrl,
          '--model',
          'm',
          '--tool-mode',
          'prompt',
          '--tools',
          'none',
          '--mcp',
          ` ${name} ,`,
          'Hello',
        ],
        local,
      );
      expect(chat.code).toBe(0);
      const system = (llm.requests[0]?.body.messages as { content: string }[])[0]?.content ?? '';
      expect(system).toMatch(/### \S+__echo\n/);
    } finally {
      await llm.close();
    }
  }, 120_000);

  it('runs a local command (stdio) server only once allowed, and keeps its stderr in a log', async () => {
    const local = cliEnv(makeDataDir());
    const add = [
      'mcp',
      'add',
      '--name',
      'local',
      '--command',
      process.execPath,
      '--arg',
      EVERYTHING_SCRIPT,
      '--arg',
      'stdio',
      '--description',
      'Local test server.',
    ];
    const refused = await runCli(add, local);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('aivory settings set mcp.allowLocalCommands true');
    await runCli(['settings', 'set', 'mcp.allowLocalCommands', 'true'], local);
    const added = await runCli(add, local);
    expect(added.stderr).toContain(
      `runs "${process.execPath} ${EVERYTHING_SCRIPT} stdio" on your machine`,
    );
    expect((await runCli(['mcp', 'sync', 'local', '--accept'], local)).code).toBe(0);
    await runCli(['mcp', 'enable', 'local'], local);
    const sum = await runCli(['mcp', 'call', 'local', 'get-sum', '{"a":2,"b":40}'], local);
    expect(sum.stdout).toContain('42');
    const logs = readdirSync(join(String(local.AIVORY_HOME), 'logs', 'mcp'));
    expect(logs).toHaveLength(1);
    expect(
      readFileSync(join(String(local.AIVORY_HOME), 'logs', 'mcp', logs[0] ?? ''), 'utf8'),
    ).not.toBe('');
  }, 120_000);
});
