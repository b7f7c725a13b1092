/**
 * MCP elicitation from the CLI against the real server-everything: `aivory mcp call` of
 * `trigger-elicitation-request` without a terminal (decline by default; `--elicit
 * accept-defaults` declines because the required name has no default), on a (fake) terminal
 * field by field — a wrong email asked again, empty answers taking the defaults — and
 * `trigger-url-elicitation`, opened only after y. And `aivory chat`: a model's call of the tool
 * is answered by the user at the terminal, and the model sees only what the server returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as runCliInProcess } from '../../src/main/cli/main';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { fakeTerminal } from '../support/fake-terminal';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

describe('aivory mcp call and a server that asks the user', () => {
  let server: EverythingServer;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    server = await startEverythingServer('streamableHttp');
    env = cliEnv(makeDataDir());
    const add = ['mcp', 'add', '--name', 'everything', '--url', server.url];
    expect((await runCli([...add, '--description', 'Test utilities.'], env)).code).toBe(0);
    const synced = await runCli(['mcp', 'sync', 'everything'], env);
    // The client offers elicitation, so the server lists its elicitation tools.
    expect(synced.stdout).toContain('+ trigger-elicitation-request: added');
    expect(synced.stdout).toContain('+ trigger-url-elicitation: added');
    expect((await runCli(['mcp', 'accept', 'everything'], env)).code).toBe(0);
    expect((await runCli(['mcp', 'enable', 'everything'], env)).code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await server.stop();
  });

  it('declines without a terminal; accept-defaults declines a required field without default', async () => {
    const call = ['mcp', 'call', 'everything', 'trigger-elicitation-request', '{}'];
    const declined = await runCli(call, env);
    expect(declined.code).toBe(0);
    expect(declined.stderr).toContain(
      'MCP server "everything" (a third-party server, not Aivory) asks for information:\n  Please provide inputs for the following fields:',
    );
    expect(declined.stderr).toContain('Declined (no terminal to ask');
    expect(declined.stdout).toContain('User declined to provide the requested information.');

    const defaults = await runCli([...call, '--elicit', 'accept-defaults'], env);
    expect(defaults.stderr).toContain('Declined: "name" has no usable default');
    expect(defaults.stdout).toContain('"action": "decline"');

    const wrong = await runCli([...call, '--elicit', 'sometimes'], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--elicit must be ask, decline or accept-defaults.');
  }, 120_000);

  it('asks field by field on a terminal, asks again after a wrong value, applies defaults', async () => {
    const terminal = fakeTerminal(env, [
      'Ada Lovelace', // name (required)
      'y', // check
      '', // firstLine: its default
      'not-an-email', // email: refused…
      'ada@example.com', // …then fine
      '', // homepage
      '', // birthdate
      '101', // integer: above the maximum…
      '7', // …then fine
      '', // number: default
      '2', // untitled single select: Rachel
      '1,3', // multi select: Guitar, Violin
      '', // titled single select: default
      '', // titled multi select: default
      'Dogs', // legacy titled enum by its label
      'y', // send
    ]);
    const code = await runCliInProcess(
      ['mcp', 'call', 'everything', 'trigger-elicitation-request', '{}'],
      terminal.io,
    );
    expect(terminal.stderr()).toContain('✗ not an email address; try again.');
    expect(terminal.stderr()).toContain('✗ at most 100; try again.');
    expect(terminal.stderr()).toContain('1) Monica');
    expect(terminal.questions).toContain('Integer [integer; 1 to 100; default: 42]: ');
    expect(code).toBe(0);
    const raw = JSON.parse(terminal.stdout().split('Raw result: ')[1] ?? '{}') as {
      action: string;
      content: Record<string, unknown>;
    };
    expect(raw).toEqual({
      action: 'accept',
      content: {
        name: 'Ada Lovelace',
        check: true,
        firstLine: 'It was a dark and stormy night.',
        email: 'ada@example.com',
        integer: 7,
        number: 3.14,
        untitledSingleSelectEnum: 'Rachel',
        untitledMultipleSelectEnum: ['Guitar', 'Violin'],
        titledSingleSelectEnum: 'hero-1',
        titledMultipleSelectEnum: ['fish-1'],
        legacyTitledEnum: 'pet-2',
      },
    });
  }, 120_000);

  it('"decline" ends the form; a URL opens only after y', async () => {
    const declining = fakeTerminal(env, ['decline']);
    await runCliInProcess(
      ['mcp', 'call', 'everything', 'trigger-elicitation-request', '{}'],
      declining.io,
    );
    expect(declining.stdout()).toContain('"action": "decline"');

    const args = JSON.stringify({
      url: 'https://auth.example.com/connect?x=1',
      message: 'Link it',
    });
    const refusing = fakeTerminal(env, ['']);
    await runCliInProcess(
      ['mcp', 'call', 'everything', 'trigger-url-elicitation', args],
      refusing.io,
    );
    expect(refusing.stderr()).toContain(
      'asks you to open a web page:\n  Link it\n  URL: https://auth.example.com/connect?x=1\n  Site: https://auth.example.com\n',
    );
    expect(refusing.opened).toEqual([]);
    expect(refusing.stdout()).toContain('decline');

    const opening = fakeTerminal(env, ['y']);
    await runCliInProcess(
      ['mcp', 'call', 'everything', 'trigger-url-elicitation', args],
      opening.io,
    );
    expect(opening.opened).toEqual(['https://auth.example.com/connect?x=1']);
    expect(opening.stdout()).toContain('accept');

    const piped = await runCli(['mcp', 'call', 'everything', 'trigger-url-elicitation', args], env);
    expect(piped.stdout).toContain('decline');
  }, 120_000);

  it("aivory chat: the user answers the server during the model's call (declined without a terminal)", async () => {
    await runCli(['mcp', 'approval', 'everything', 'trigger-elicitation-request', 'allow'], env);
    const call = JSON.stringify({ name: 'everything__trigger-elicitation-request', arguments: {} });
    const llm = await startScriptedLlmServer([
      { content: `<tool_call>${call}</tool_call>` },
      { content: 'Done.' },
      { content: `<tool_call>${call}</tool_call>` },
      { content: 'Done again.' },
    ]);
    try {
      const chat = [
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
        'everything',
        'Ask me',
      ];
      const answers = ['Grace Hopper', ...Array.from({ length: 13 }, () => ''), 'y'];
      const terminal = fakeTerminal(env, answers);
      expect(await runCliInProcess(chat, terminal.io)).toBe(0);
      expect(terminal.stderr()).toContain('MCP server "everything" (a third-party server');
      const first = JSON.stringify(llm.requests[1]?.body.messages);
      expect(first).toContain('Name: Grace Hopper');
      // The first request, before the call, cannot hold what the user typed afterwards.
      expect(JSON.stringify(llm.requests[0]?.body.messages)).not.toContain('Grace Hopper');

      const piped = await runCli(chat, env);
      expect(piped.code).toBe(0);
      expect(piped.stderr).toContain('Declined (no terminal to ask');
      expect(JSON.stringify(llm.requests[3]?.body.messages)).toContain('User declined');
    } finally {
      await llm.close();
    }
  }, 90_000);
});
