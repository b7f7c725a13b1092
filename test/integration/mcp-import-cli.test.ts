/**
 * `aivory mcp import` / `export` / `add --enable` from the real CLI against the real
 * @modelcontextprotocol/server-everything, over stdio and Streamable HTTP: the four config shapes
 * users already have (Claude Desktop, .mcp.json, Cursor, VS Code with inputs and JSONC), secrets
 * in the secret store and never in the database, each service tested and synced with its tools
 * held for review, then a working call once accepted; export round-trips without secrets;
 * malformed files give one line and exit 2.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EverythingServer } from '../support/mcp-everything-server';
import { EVERYTHING_SCRIPT, startEverythingServer } from '../support/mcp-everything-server';
import { AIVORY_BIN, cliEnv, makeDataDir, runCli } from '../support/run-cli';

const ENV_SECRET = 'env-secret-value-0123456789';
const HEADER_SECRET = 'sk-header-secret-abcdefghijkl';
const INPUT_SECRET = 'input-secret-zyxwvutsrqpo';
const SHELL_SECRET = 'shell-env-secret-55555555';

interface Listed {
  name: string;
  transport: string;
  url: string | null;
  command: string | null;
  args: string[];
  enabled: boolean;
  testState: string;
  syncedAt: number | null;
  toolCount: number;
  callableCount: number;
  env: { name: string; value: string }[];
  headers: { name: string; value: string }[];
}

async function homeWithLocalCommands(extra: Record<string, string> = {}) {
  const home = makeDataDir();
  const env = cliEnv(home, extra);
  expect((await runCli(['settings', 'set', 'mcp.allowLocalCommands', 'true'], env)).code).toBe(0);
  return { home, env };
}

async function list(env: NodeJS.ProcessEnv): Promise<Listed[]> {
  return JSON.parse((await runCli(['mcp', 'list', '--json'], env)).stdout) as Listed[];
}

function configFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'aivory-import-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Secrets are in secrets.json and nowhere in the database file. */
function expectSecretStored(home: string, secret: string): void {
  expect(readFileSync(join(home, 'aivory.db')).includes(secret)).toBe(false);
  expect(readFileSync(join(home, 'secrets.json'), 'utf8')).toContain(secret);
}

describe('aivory mcp import / export with server-everything', () => {
  let http: EverythingServer;
  beforeAll(async () => {
    http = await startEverythingServer('streamableHttp');
  }, 120_000);
  afterAll(async () => {
    await http.stop();
  });

  it('imports a Claude Desktop config (stdio, env secret) and calls it once accepted', async () => {
    const { home, env } = await homeWithLocalCommands();
    const file = configFile(
      'claude_desktop_config.json',
      JSON.stringify({
        mcpServers: {
          everything: {
            command: process.execPath,
            args: [EVERYTHING_SCRIPT, 'stdio'],
            env: { DEMO_TOKEN: ENV_SECRET },
          },
        },
      }),
    );
    const imported = await runCli(['mcp', 'import', file, '--yes'], env);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(
      'mcpServers config (Claude Desktop, .mcp.json, Cursor): 1 to add, 0 skipped.',
    );
    expect(imported.stdout).toContain('env DEMO_TOKEN = env…6789 (from the file)');
    expect(imported.stdout).not.toContain(ENV_SECRET);
    expect(imported.stdout).toMatch(/✓ everything: ok, \d+ tools held for review/);
    expectSecretStored(home, ENV_SECRET);
    const [service] = await list(env);
    expect(service).toMatchObject({
      name: 'everything',
      transport: 'stdio',
      enabled: false,
      testState: 'connected',
      callableCount: 0,
    });
    expect(service?.toolCount).toBeGreaterThan(3);

    const held = await runCli(['mcp', 'call', 'everything', 'echo', '{"message":"hi"}'], env);
    expect(held.code).toBe(2);
    expect(held.stderr).toContain('cannot be called');
    expect((await runCli(['mcp', 'accept', 'everything'], env)).code).toBe(0);
    expect((await runCli(['mcp', 'enable', 'everything'], env)).code).toBe(0);
    const echo = await runCli(['mcp', 'call', 'everything', 'echo', '{"message":"imported"}'], env);
    expect(echo).toMatchObject({ code: 0, stdout: 'Echo: imported\n' });
    // The env secret reached the server's process.
    const printed = await runCli(['mcp', 'call', 'everything', 'get-env', '{}'], env);
    expect(printed.stdout).toContain(ENV_SECRET);
  }, 120_000);

  it('imports .mcp.json and .cursor/mcp.json (HTTP, header secrets, ${env:…}) and exports them back', async () => {
    const { home, env } = await homeWithLocalCommands({ CURSOR_TOKEN: SHELL_SECRET });
    const mcpJson = configFile(
      '.mcp.json',
      JSON.stringify({
        mcpServers: {
          'remote everything': {
            type: 'http',
            url: http.url,
            headers: { Authorization: `Bearer ${HEADER_SECRET}` },
          },
          local: { command: process.execPath, args: [EVERYTHING_SCRIPT, 'stdio'] },
          'bad url': { type: 'http', url: 'ftp://example.com/mcp' },
          odd: { type: 'websocket', url: 'ws://127.0.0.1:1/' },
        },
      }),
    );
    const imported = await runCli(['mcp', 'import', mcpJson, '--yes'], env);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('2 to add, 2 skipped.');
    expect(imported.stdout).toContain('header Authorization = Bea…ijkl (from the file)');
    expect(imported.stdout).toContain(
      '- bad url: skipped: An MCP service URL must start with http:// or https://',
    );
    expect(imported.stdout).toContain(
      '- odd: skipped: transport type "websocket" is not supported',
    );
    expect(imported.stdout).toMatch(/✓ remote everything: ok, \d+ tools held for review/);
    expect(imported.stdout).toMatch(/✓ local: ok, \d+ tools held for review/);
    expectSecretStored(home, HEADER_SECRET);
    expect((await runCli(['mcp', 'accept', 'remote everything'], env)).code).toBe(0);
    expect((await runCli(['mcp', 'enable', 'remote everything'], env)).code).toBe(0);
    const echo = await runCli(
      ['mcp', 'call', 'remote everything', 'echo', '{"message":"over http"}'],
      env,
    );
    expect(echo).toMatchObject({ code: 0, stdout: 'Echo: over http\n' });

    // Cursor: the URL only, a header from the user's environment; a name taken is skipped.
    const cursor = configFile(
      'mcp.json',
      `{ "mcpServers": { "cursor-everything": { "url": "${http.url}", "headers": { "X-Api-Key": "\${env:CURSOR_TOKEN}" } }, "local": { "command": "node" } } }`,
    );
    const second = await runCli(['mcp', 'import', cursor, '--yes'], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('header X-Api-Key = she…5555 (from environment CURSOR_TOKEN)');
    expect(second.stdout).toContain('- local: skipped: a service named "local" exists already');
    expect(second.stdout).toMatch(/✓ cursor-everything: ok, \d+ tools held for review/);
    expectSecretStored(home, SHELL_SECRET);

    // Export: the same mcpServers shape, secrets left out (names kept), a note on stderr.
    const exported = await runCli(['mcp', 'export'], env);
    expect(exported.code).toBe(0);
    expect(exported.stdout).not.toContain(HEADER_SECRET);
    expect(exported.stdout).not.toContain(SHELL_SECRET);
    expect(exported.stderr).toContain('secrets are not exported');
    expect(exported.stderr).toContain('remote everything: Authorization');
    const config = JSON.parse(exported.stdout) as { mcpServers: Record<string, unknown> };
    expect(config.mcpServers['remote everything']).toEqual({
      type: 'http',
      url: http.url,
      headers: { Authorization: '<secret: not exported>' },
    });
    expect(config.mcpServers.local).toEqual({
      command: process.execPath,
      args: [EVERYTHING_SCRIPT, 'stdio'],
    });

    // …and back into a fresh home: the same services, minus the secrets.
    const fresh = await homeWithLocalCommands();
    const file = join(fresh.home, 'export.json');
    expect((await runCli(['mcp', 'export', '--file', file], env)).code).toBe(0);
    const back = await runCli(['mcp', 'import', file, '--yes'], fresh.env);
    expect(back.code).toBe(0);
    const shape = (services: Listed[]) =>
      services
        .map((service) => ({
          name: service.name,
          transport: service.transport,
          url: service.url,
          command: service.command,
          args: service.args,
          env: service.env.map((entry) => entry.name),
          headers: service.headers.map((entry) => entry.name),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
    expect(shape(await list(fresh.env))).toEqual(shape(await list(env)));
    expect(readFileSync(join(fresh.home, 'secrets.json'), 'utf8')).not.toContain(HEADER_SECRET);
  }, 180_000);

  it('imports a VS Code config with JSONC, inputs and variables', async () => {
    const { home, env } = await homeWithLocalCommands();
    const text = `{
  // VS Code allows comments and trailing commas.
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "Everything API key", "password": true },
    { "type": "promptString", "id": "unanswered", "description": "Never given", "password": true },
  ],
  "servers": {
    "vs-stdio": {
      "type": "stdio",
      "command": "${process.execPath}",
      "args": ["${EVERYTHING_SCRIPT}", "stdio"],
      "env": { "API_KEY": "\${input:api-key}" },
    },
    "vs-http": {
      "type": "http",
      "url": "${http.url}",
      "headers": { "Authorization": "Bearer \${input:api-key}" },
    },
    "needs-answer": { "type": "http", "url": "${http.url}", "headers": { "X-Key": "\${input:unanswered}" } },
    "workspace": { "command": "node", "args": ["\${workspaceFolder}/server.js"] },
  },
}`;
    const file = configFile('mcp.json', text);
    // Without a terminal or --input, the entries needing an answer are skipped, saying why.
    const dry = await runCli(['mcp', 'import', file], env);
    expect(dry.code).toBe(1);
    expect(dry.stdout).toContain('- vs-stdio: skipped: no value for ${input:api-key}');
    expect(dry.stdout).toContain(
      '- workspace: skipped: argument 1 uses ${workspaceFolder}, a variable this app cannot fill in',
    );
    expect(dry.stdout).toContain('Nothing to import.');

    const imported = await runCli(
      ['mcp', 'import', file, '--yes', '--input', `api-key=${INPUT_SECRET}`],
      env,
    );
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('VS Code config (servers): 2 to add, 2 skipped.');
    expect(imported.stdout).toContain('env API_KEY = inp…rqpo (from input api-key)');
    expect(imported.stdout).toContain('- needs-answer: skipped: no value for ${input:unanswered}');
    expect(imported.stdout).not.toContain(INPUT_SECRET);
    expect(imported.stdout).toMatch(/✓ vs-stdio: ok, \d+ tools held for review/);
    expect(imported.stdout).toMatch(/✓ vs-http: ok, \d+ tools held for review/);
    expectSecretStored(home, INPUT_SECRET);
    expect((await runCli(['mcp', 'accept', 'vs-stdio'], env)).code).toBe(0);
    expect((await runCli(['mcp', 'enable', 'vs-stdio'], env)).code).toBe(0);
    const printed = await runCli(['mcp', 'call', 'vs-stdio', 'get-env', '{}'], env);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain(INPUT_SECRET);
  }, 120_000);

  it('refuses malformed files in one line with exit 2, and prints a short usage', async () => {
    const { env } = await homeWithLocalCommands();
    const broken = configFile(
      'claude_desktop_config.json',
      '{\n  "mcpServers": {\n    "a": { "command": "x" ,, }\n}',
    );
    const result = await runCli(['mcp', 'import', broken], env);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/not valid JSON: .+ at line 3, column \d+\./);
    const other = await runCli(['mcp', 'import', '-'], env, { input: '{"tools": []}' });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('Not an MCP config: expected an object with "mcpServers"');
    const usage = await runCli(['mcp', 'import'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: aivory mcp import FILE|-');
    for (const line of usage.stderr.split('\n')) expect(line.length).toBeLessThan(120);
    expect(await list(env)).toEqual([]);
  }, 120_000);

  it('import --enable: one review of every service, one answer, all enabled and callable', async () => {
    const { env } = await homeWithLocalCommands();
    const file = configFile(
      'claude_desktop_config.json',
      JSON.stringify({
        mcpServers: {
          'local tools': { command: process.execPath, args: [EVERYTHING_SCRIPT, 'stdio'] },
          'remote tools': { type: 'http', url: http.url },
        },
      }),
    );
    // Without a terminal and without --yes nothing is imported: the import itself asks first.
    const held = await runCli(['mcp', 'import', file, '--enable'], env, { input: '' });
    expect(held.code).toBe(2);
    expect(held.stderr).toContain('Add --yes to import without a terminal');
    const imported = await runCli(['mcp', 'import', file, '--yes', '--enable'], env);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/✓ local tools: ok, \d+ tools\n/);
    expect(imported.stdout).not.toContain('held for review');
    // The review: each service's tools, then one line for all of them.
    expect(imported.stdout).toMatch(/\nlocal tools: \d+ tools\n(.+\n)*?\+ echo: added/);
    expect(imported.stdout).toMatch(/\nremote tools: \d+ tools\n/);
    expect(imported.stdout).toMatch(
      /Accepted the \d+ tools of 2 services; enabled: local tools, remote tools\./,
    );
    const services = await list(env);
    expect(services.map((service) => [service.name, service.enabled])).toEqual([
      ['local tools', true],
      ['remote tools', true],
    ]);
    for (const service of services) expect(service.callableCount).toBe(service.toolCount);
    for (const name of ['local tools', 'remote tools']) {
      const echo = await runCli(['mcp', 'call', name, 'echo', '{"message":"both"}'], env);
      expect(echo).toMatchObject({ code: 0, stdout: 'Echo: both\n' });
    }
  }, 120_000);

  it('adds a URL and enables it in one command (add --enable --yes)', async () => {
    const { env } = await homeWithLocalCommands();
    const added = await runCli(
      [
        'mcp',
        'add',
        '--name',
        'quick',
        '--url',
        http.url,
        '--description',
        'Test tools.',
        '--enable',
        '--yes',
      ],
      env,
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/✓ connected: connected to .+: \d+ tools/);
    expect(added.stdout).toContain('+ echo: added');
    expect(added.stdout).toMatch(/Accepted \d+ tools; quick is enabled\./);
    const echo = await runCli(['mcp', 'call', 'quick', 'echo', '{"message":"one flow"}'], env);
    expect(echo).toMatchObject({ code: 0, stdout: 'Echo: one flow\n' });
    // Without a terminal and without --yes it stops before accepting, saying how to go on.
    const held = await runCli(
      [
        'mcp',
        'add',
        '--name',
        'held',
        '--url',
        http.url,
        '--description',
        'Test tools.',
        '--enable',
      ],
      env,
    );
    expect(held.code).toBe(0);
    expect(held.stdout).toContain('Not enabled: no terminal to confirm on.');
    expect((await list(env)).find((service) => service.name === 'held')).toMatchObject({
      enabled: false,
      callableCount: 0,
    });
  }, 120_000);
});

/** Runs the CLI on a pseudo-terminal (util-linux `script`), answering each prompt as it shows. */
function runOnTerminal(
  args: string[],
  env: NodeJS.ProcessEnv,
  answers: [RegExp, string][],
): Promise<{ code: number | null; output: string }> {
  const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, AIVORY_BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let seen = 0;
  let next = 0;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    const answer = answers[next];
    if (answer && answer[0].test(output.slice(seen))) {
      seen = output.length;
      next += 1;
      child.stdin.write(`${answer[1]}\r`);
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      child.stdin.destroy();
      resolve({ code, output });
    });
  });
}

describe('aivory mcp import and add --enable on a terminal', () => {
  let http: EverythingServer;
  beforeAll(async () => {
    http = await startEverythingServer('streamableHttp');
  }, 120_000);
  afterAll(async () => {
    await http.stop();
  });

  it('asks a password input without echoing it, then asks to import', async () => {
    const { home, env } = await homeWithLocalCommands();
    const file = configFile(
      'mcp.json',
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'key', description: 'Server key', password: true }],
        servers: {
          asked: { type: 'http', url: http.url, headers: { 'X-Key': '${input:key}' } },
        },
      }),
    );
    const run = await runOnTerminal(['mcp', 'import', file], env, [
      [/Server key: /, INPUT_SECRET],
      [/Import 1 service\? \[y\/N\] /, 'y'],
    ]);
    expect(run.code).toBe(0);
    expect(run.output).toContain('header X-Key = inp…rqpo (from input key)');
    expect(run.output).toMatch(/✓ asked: ok, \d+ tools held for review/);
    expect(run.output).not.toContain(INPUT_SECRET);
    expectSecretStored(home, INPUT_SECRET);
  }, 120_000);

  it('add --enable shows the tools and enables once the user accepts', async () => {
    const { env } = await homeWithLocalCommands();
    const run = await runOnTerminal(
      [
        'mcp',
        'add',
        '--name',
        'tty',
        '--url',
        http.url,
        '--description',
        'Test tools.',
        '--enable',
      ],
      env,
      [[/Accept these tools and enable tty\? \[y\/N\] /, 'y']],
    );
    expect(run.code).toBe(0);
    expect(run.output).toContain('+ echo: added');
    expect(run.output).toMatch(/Accepted \d+ tools; tty is enabled\./);
    expect((await list(env))[0]).toMatchObject({ name: 'tty', enabled: true });
  }, 120_000);
});
