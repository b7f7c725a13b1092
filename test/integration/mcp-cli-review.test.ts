/**
 * What the user reads from the real CLI against the real server-everything. `aivory mcp sync` /
 * `mcp diff` show what changed, not only that it changed: the accepted snapshot is rewritten in
 * the database (as if the server had served other tools when the user accepted), and the next
 * sync prints the old and the new description and the schema's added property. A prompt or
 * resource the server refuses shows the server's message, not "An internal error occurred".
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

describe('aivory mcp with server-everything: what the user reads', () => {
  let server: EverythingServer;
  beforeAll(async () => {
    server = await startEverythingServer('streamableHttp');
  }, 120_000);
  afterAll(async () => {
    await server.stop();
  });

  it('prints the old and the new description and the schema changes', async () => {
    const home = makeDataDir();
    const env = cliEnv(home);
    const add = ['mcp', 'add', '--name', 'everything', '--url', server.url];
    expect((await runCli([...add, '--description', 'Test utilities.'], env)).code).toBe(0);
    const first = await runCli(['mcp', 'sync', 'everything', '--accept'], env);
    expect(first.stdout).toContain('+ echo: added\n    description: Echoes back the input string');

    // What the user accepted back then: another description, and no `message` parameter.
    const store = openStore(join(home, 'aivory.db'));
    const service = store.mcp.getService('everything');
    if (!service) throw new Error('no service');
    const tools = store.mcp.listTools(service.id).flatMap((record) => record.latest ?? []);
    store.mcp.saveLatest(
      service.id,
      tools.map((tool) =>
        tool.name === 'echo'
          ? {
              ...tool,
              description: 'Repeats a message.\u202e',
              inputSchema: { type: 'object', properties: {} },
            }
          : tool,
      ),
    );
    store.mcp.acceptLatest(service.id);
    store.close();

    const synced = await runCli(['mcp', 'sync', 'everything'], env);
    expect(synced.code).toBe(0);
    const expected = [
      '~ echo: description, schema changed',
      '    description before: Repeats a message.',
      '    description now:    Echoes back the input string',
      '    schema:',
      '      + message (string, required)',
    ].join('\n');
    expect(synced.stdout).toContain(expected);
    expect(synced.stdout).not.toContain('\u202e');
    const diff = await runCli(['mcp', 'diff', 'everything'], env);
    expect(diff.stdout).toContain(expected);
  }, 120_000);

  it("shows the server's message for an unknown prompt or resource", async () => {
    const env = cliEnv(makeDataDir());
    const add = ['mcp', 'add', '--name', 'everything', '--url', server.url];
    expect((await runCli([...add, '--description', 'Test utilities.'], env)).code).toBe(0);
    const prompt = await runCli(['mcp', 'prompt', 'everything', 'no-such-prompt'], env);
    // The server answered with an error: a failed request, not "cannot connect" (3).
    expect(prompt.code).toBe(1);
    expect(prompt.stderr).not.toContain('internal error');
    expect(prompt.stderr).toContain(
      `"everything": ${new URL(server.url).origin} answered prompts/get with an error: Prompt no-such-prompt not found`,
    );
    const resource = await runCli(['mcp', 'resource', 'everything', 'demo://no/such'], env);
    expect(resource.code).toBe(1);
    expect(resource.stderr).not.toContain('internal error');
    expect(resource.stderr).toContain(
      'answered resources/read with an error: Resource demo://no/such not found',
    );
  }, 120_000);
});
