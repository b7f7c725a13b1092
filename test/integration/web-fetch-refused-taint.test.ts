/**
 * A web_fetch the address rules refuse reads nothing, so it does not mark the turn as having
 * read untrusted content: the real `aivory chat` against the scripted model, whose call names
 * only addresses the guard refuses before any request (loopback, cloud metadata).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';

const REFUSED_URLS = ['http://127.0.0.1/admin', 'http://169.254.169.254/latest/meta-data/'];

describe('web_fetch refused by the address rules', () => {
  let server: ScriptedLlmServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('does not taint the turn: no notice, no turn-tainted event', async () => {
    server = await startScriptedLlmServer((request) =>
      JSON.stringify(request.body.messages).includes('Could not fetch')
        ? { content: 'Both addresses were refused.' }
        : {
            toolCalls: [{ name: 'web_fetch', arguments: JSON.stringify({ urls: REFUSED_URLS }) }],
          },
    );
    const env = cliEnv(makeDataDir(), {
      AIVORY_BASE_URL: server.baseUrl,
      AIVORY_MODEL: 'scripted-model',
      AIVORY_TOOL_MODE: 'native',
    });
    const json = await runCli(['chat', '--json', '--tools', 'web_fetch', 'Read these'], env);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const events = jsonLines(json.stdout);
    const result = events.find((event) => event.type === 'tool-result');
    expect(JSON.stringify(result)).toContain('127.0.0.1 is a loopback address');
    expect(JSON.stringify(result)).toContain('cloud metadata service');
    expect(events.map((event) => event.type)).not.toContain('turn-tainted');
    expect(events.at(-1)).toMatchObject({ type: 'turn-end', stopReason: 'completed' });

    const human = await runCli(['chat', '--tools', 'web_fetch', 'Read these'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe('Both addresses were refused.\n');
    expect(human.stderr).toContain('web_fetch');
    expect(human.stderr).not.toContain('untrusted content');
  });
});
