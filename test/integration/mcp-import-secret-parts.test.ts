/**
 * Issue 37, item 4, through the real CLI and the real @modelcontextprotocol/server-everything:
 * secrets substituted inside an imported URL (a password `${input:…}`, a `${env:…}` named like a
 * secret) or argument reach the server — the stdio server starts only if its argument was filled
 * in, the HTTP one is reached at its URL — yet appear in none of the plan, `mcp list`, the
 * database, `mcp export`, or the message of a URL that fails (a key in the path).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EverythingServer } from '../support/mcp-everything-server';
import { EVERYTHING_SCRIPT, startEverythingServer } from '../support/mcp-everything-server';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

const KEY = 'url-password-key-0123456789';
const TOKEN = 'shell-api-token-abcdefghij';

describe('aivory mcp import: secrets in URLs and arguments', () => {
  let http: EverythingServer;
  beforeAll(async () => {
    http = await startEverythingServer('streamableHttp');
  }, 120_000);
  afterAll(async () => {
    await http.stop();
  });

  it('keeps them in the secret store and out of every listing', async () => {
    const home = makeDataDir();
    const env = cliEnv(home, { API_TOKEN: TOKEN });
    expect((await runCli(['settings', 'set', 'mcp.allowLocalCommands', 'true'], env)).code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'aivory-parts-'));
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        inputs: [
          { id: 'key', description: 'key', password: true },
          { id: 'script', description: 'the server script', password: true },
        ],
        servers: {
          // Starts only if the argument (a password input: the script's path) is filled in.
          local: {
            type: 'stdio',
            command: process.execPath,
            args: ['${input:script}', 'stdio', '--api-key=${input:key}'],
          },
          remote: { type: 'http', url: `${http.url}?key=\${input:key}&token=\${env:API_TOKEN}` },
          // A key in the path: the server answers 404, and the message hides it.
          wrong: { type: 'http', url: `${http.url}/\${input:key}` },
        },
      }),
    );
    const imported = await runCli(
      [
        'mcp',
        'import',
        file,
        '--yes',
        '--input',
        `key=${KEY}`,
        '--input',
        `script=${EVERYTHING_SCRIPT}`,
      ],
      env,
    );
    expect(imported.stdout).toMatch(/✓ local: ok, \d+ tools held for review/);
    expect(imported.stdout).toMatch(/✓ remote: ok, \d+ tools held for review/);
    expect(imported.stdout).toMatch(/✗ wrong: failed: .*\/mcp\/••••/);
    expect(imported.stdout).toContain(
      `+ remote\tstreamable-http\t${http.url}?key=url…6789&token=she…ghij`,
    );
    const surfaces = {
      plan: imported.stdout + imported.stderr,
      list: (await runCli(['mcp', 'list', '--json'], env)).stdout,
      listText: (await runCli(['mcp', 'list'], env)).stdout,
      exported: await runCli(['mcp', 'export'], env),
      database: readFileSync(join(home, 'aivory.db')).toString('latin1'),
    };
    for (const [surface, text] of Object.entries({
      ...surfaces,
      exported: surfaces.exported.stdout + surfaces.exported.stderr,
    })) {
      expect(text, surface).not.toContain(KEY);
      expect(text, surface).not.toContain(TOKEN);
      expect(text, surface).not.toContain(EVERYTHING_SCRIPT);
    }
    expect(surfaces.list).toContain('$(secret:mcp.');
    const config = JSON.parse(surfaces.exported.stdout) as {
      mcpServers: Record<string, { args?: string[]; url?: string }>;
    };
    expect(config.mcpServers.local?.args).toEqual([
      '<secret: not exported>',
      'stdio',
      '--api-key=<secret: not exported>',
    ]);
    expect(config.mcpServers.remote?.url).toBe(
      `${http.url}?key=<secret: not exported>&token=<secret: not exported>`,
    );
    expect(surfaces.exported.stderr).toContain('local: argument 1');
    const secrets = readFileSync(join(home, 'secrets.json'), 'utf8');
    for (const value of [KEY, TOKEN, EVERYTHING_SCRIPT]) expect(secrets).toContain(value);
    // Still started from the store alone, in a later command.
    expect((await runCli(['mcp', 'test', 'local'], env)).code).toBe(0);
  }, 180_000);
});
