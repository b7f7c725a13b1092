/**
 * "URL elicitation required" (-32042) from the CLI against a real local MCP server: `aivory mcp
 * call` without a terminal prints the link and the tool result says the user must open it (no
 * retry); on a (fake) terminal the link opens after y, and the CLI waits — the server's
 * completion notification after the browser's visit ends the wait, or Enter does — and the call
 * is tried again. And `aivory chat`: the model's call reaches the same question, and without a
 * terminal the model reads that it cannot open the link itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as runCliInProcess } from '../../src/main/cli/main';
import type { UrlRequiredServer } from '../support/mcp-url-required-server';
import { LINK_MESSAGE, startUrlRequiredServer } from '../support/mcp-url-required-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { TerminalAnswer } from '../support/fake-terminal';
import { fakeTerminal } from '../support/fake-terminal';
import { addEnabledMcpService } from '../support/mcp-cli-setup';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

const line =
  (text: string): TerminalAnswer =>
  () =>
    Promise.resolve(text);

describe('aivory mcp call / chat and a server that needs a link opened first', () => {
  let server: UrlRequiredServer;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    server = await startUrlRequiredServer();
    env = cliEnv(makeDataDir());
    await addEnabledMcpService(env, {
      name: 'accounts',
      url: server.url,
      description: 'Linked accounts.',
    });
  }, 120_000);
  afterAll(async () => {
    await server.stop();
  });

  it('without a terminal: the link printed, the result says the user must open it', async () => {
    const before = server.calls['link-account'] ?? 0;
    const piped = await runCli(['mcp', 'call', 'accounts', 'link-account', '{}'], env);
    expect(piped.stderr).toContain(
      `MCP server "accounts" (a third-party server, not Aivory) needs you to open a web page before the tool can run:\n  ${LINK_MESSAGE}\n  URL: ${server.origin}/link/`,
    );
    expect(piped.stderr).toContain(
      'Declined (no terminal to ask). Run the command on a terminal to be asked, or open the URL yourself and run it again.',
    );
    expect(piped.stderr).not.toContain('accept-defaults');
    expect(piped.stdout).toContain(
      `The MCP server needs the user to open a link (${server.origin}) before this tool can run, which you cannot do for them; the user did not (declined).`,
    );
    expect(server.calls['link-account']).toBe(before + 1);
  }, 120_000);

  it("on a terminal: opened after y; the server's completion ends the wait; tried again", async () => {
    const before = server.calls['link-account'] ?? 0;
    let waited = '';
    const terminal = fakeTerminal(env, [
      line('y'),
      // The browser visits the page; the server then says it is complete, which ends the wait.
      (question, signal) => {
        waited = question;
        void server.visit(terminal.opened[0] ?? '');
        return new Promise((_, reject) => {
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        });
      },
    ]);
    const code = await runCliInProcess(
      ['mcp', 'call', 'accounts', 'link-account', '{}'],
      terminal.io,
    );
    expect(code).toBe(0);
    expect(terminal.opened[0]).toMatch(new RegExp(`^${server.origin}/link/link-`));
    expect(waited).toContain('press Enter to try the tool again');
    expect(terminal.stderr()).toContain('"accounts" says this step is done.');
    expect(terminal.stdout()).toContain('Account linked.');
    expect(server.calls['link-account']).toBe(before + 2);
  }, 120_000);

  it('on a terminal: Enter after the visit (no notification) tries again; "cancel" does not', async () => {
    const before = server.calls['link-account'] ?? 0;
    const terminal = fakeTerminal(env, [
      line('y'),
      async () => {
        await server.visit(`${terminal.opened[0]}?silent=1`);
        return '';
      },
    ]);
    await runCliInProcess(['mcp', 'call', 'accounts', 'link-account', '{}'], terminal.io);
    expect(terminal.stdout()).toContain('Account linked.');
    expect(server.calls['link-account']).toBe(before + 2);

    const canceling = fakeTerminal(env, [line('y'), line('cancel')]);
    await runCliInProcess(['mcp', 'call', 'accounts', 'always-link', '{}'], canceling.io);
    expect(canceling.stdout()).toContain('the user did not (canceled)');
    expect(server.calls['always-link']).toBe(1);
  }, 120_000);

  it('aivory chat without a terminal: the model reads that it cannot open the link', async () => {
    await runCli(['mcp', 'approval', 'accounts', 'always-link', 'allow'], env);
    const call = JSON.stringify({ name: 'accounts__always-link', arguments: {} });
    const llm = await startScriptedLlmServer([
      { content: `<tool_call>${call}</tool_call>` },
      { content: 'You need to open the link yourself.' },
    ]);
    try {
      const chat = ['chat', '--base-url', llm.baseUrl, '--model', 'm', '--tool-mode', 'prompt'];
      const piped = await runCli([...chat, '--tools', 'none', '--mcp', 'accounts', 'Link me'], env);
      expect(piped.code).toBe(0);
      expect(piped.stderr).toContain('needs you to open a web page before the tool can run');
      const second = JSON.stringify(llm.requests[1]?.body.messages);
      expect(second).toContain(
        `The MCP server needs the user to open a link (${server.origin}) before this tool can run, which you cannot do for them`,
      );
      // The link itself (it may carry a one-time token) never reaches the model.
      expect(second).not.toContain('/link/always-');
      expect(server.calls['always-link']).toBe(2);
    } finally {
      await llm.close();
    }
  }, 90_000);
});
