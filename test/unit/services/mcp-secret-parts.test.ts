/**
 * Issue 37, item 4: a secret inside an imported URL or argument (a password `${input:…}`, a
 * `${env:…}` named like a secret, a value that looks like a key) is kept in the secret store: the
 * plan masks it, the stored row, the listing and the export hold a placeholder, the launcher and
 * the connection get the value, messages name it `••••`, and removing or editing the service
 * drops it from the secret store.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../src/main/adapters/secrets/file-secret-store';
import { openStore } from '../../../src/main/adapters/sqlite/sqlite-store';
import type { McpConnector, McpEndpoint } from '../../../src/main/core/ports';
import { McpError } from '../../../src/main/core/ports';
import { planMcpImport } from '../../../src/main/services/mcp/mcp-config-import';
import { exportMcpConfig } from '../../../src/main/services/mcp/mcp-config-export';
import { importServices } from '../../../src/main/services/mcp/mcp-import';
import { McpServices } from '../../../src/main/services/mcp/mcp-services';
import { fakeMcpSession } from '../../support/fake-mcp-session';
import { recordingLogger } from '../../support/turn-harness';

const KEY = 'input-password-0123456789';
const TOKEN = 'shell-token-abcdefghijkl';

const CONFIG = JSON.stringify({
  inputs: [{ id: 'key', description: 'key', password: true }],
  servers: {
    local: {
      type: 'stdio',
      command: 'npx',
      args: [
        '-y',
        'server',
        '--api-key=${input:key}',
        '--token',
        '${env:API_TOKEN}',
        '${userHome}',
      ],
    },
    remote: {
      type: 'http',
      url: 'https://mcp.example.com/mcp/${input:key}/sse?t=${env:API_TOKEN}',
    },
  },
});

function fixture(failWith?: (endpoint: McpEndpoint) => Error) {
  const directory = mkdtempSync(join(tmpdir(), 'aivory-mcp-parts-'));
  const database = join(directory, 'aivory.db');
  const store = openStore(database);
  const endpoints: McpEndpoint[] = [];
  const connector: McpConnector = {
    connect: (endpoint) => {
      endpoints.push(endpoint);
      if (failWith) return Promise.reject(failWith(endpoint));
      return Promise.resolve(fakeMcpSession({ listTools: () => Promise.resolve([]) }));
    },
    signIn: () => Promise.reject(new Error('no sign-in in this test')),
  };
  let counter = 0;
  const secrets = new FileSecretStore(join(directory, 'secrets.json'));
  const services = new McpServices({
    store: store.mcp,
    secrets,
    connector,
    resolver: { resolve: () => Promise.resolve([{ address: '45.33.0.1', family: 4 }]) },
    clock: { now: () => 1_000 + counter },
    ids: { next: (prefix) => `${prefix}_${++counter}` },
    logger: recordingLogger(),
    allowLocalCommands: () => true,
  });
  const plan = planMcpImport(CONFIG, {
    existingNames: [],
    env: { API_TOKEN: TOKEN, HOME: '/home/me' },
    inputs: { key: KEY },
    allowLocalCommands: true,
  });
  return { store, services, endpoints, plan, database, directory, secrets };
}

const signal = () => new AbortController().signal;
const database = (path: string) => readFileSync(path).toString('latin1');

describe('secret parts of imported URLs and arguments', () => {
  it('the plan keeps them apart and shows them masked', () => {
    const { plan } = fixture();
    const [local, remote] = plan.entries;
    expect(local?.args).toEqual([
      '-y',
      'server',
      '--api-key=$(secret:0)',
      '--token',
      '$(secret:1)',
      '/home/me',
    ]);
    expect(local?.secretParts).toEqual([KEY, TOKEN]);
    expect(local?.shownArgs).toEqual([
      '-y',
      'server',
      '--api-key=inp…6789',
      '--token',
      'she…ijkl',
      '/home/me',
    ]);
    expect(remote?.url).toBe('https://mcp.example.com/mcp/$(secret:0)/sse?t=$(secret:1)');
    expect(remote?.shownUrl).toBe('https://mcp.example.com/mcp/inp…6789/sse?t=she…ijkl');
    expect(JSON.stringify([local?.shownArgs, remote?.shownUrl])).not.toMatch(/0123456|abcdefg/);
  });

  it('stores placeholders, never the value; lists, exports and launches accordingly', async () => {
    const { plan, services, store, endpoints, database: file, directory } = fixture();
    const results = await importServices(services, plan.entries, { signal });
    expect(results.map((result) => result.ok)).toEqual([true, true]);
    const local = store.mcp.getService('local');
    const remote = store.mcp.getService('remote');
    expect(local?.args[2]).toMatch(/^--api-key=\$\(secret:mcp\.mcp_\d+\.value\.[a-z0-9]+\.0\)$/);
    expect(remote?.url).toMatch(
      /^https:\/\/mcp\.example\.com\/mcp\/\$\(secret:mcp\.mcp_\d+\.value\.[a-z0-9]+\.0\)\/sse\?t=\$\(secret:/,
    );
    // The row, the listing and the export: no value anywhere.
    for (const text of [
      database(file),
      JSON.stringify(await services.list()),
      JSON.stringify(exportMcpConfig(store.mcp.listServices())),
    ]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(TOKEN);
    }
    expect(readFileSync(join(directory, 'secrets.json'), 'utf8')).toContain(KEY);
    const exported = exportMcpConfig(store.mcp.listServices());
    expect(exported.config.mcpServers.local).toMatchObject({
      args: [
        '-y',
        'server',
        '--api-key=<secret: not exported>',
        '--token',
        '<secret: not exported>',
        '/home/me',
      ],
    });
    expect(exported.config.mcpServers.remote).toMatchObject({
      url: 'https://mcp.example.com/mcp/<secret: not exported>/sse?t=<secret: not exported>',
    });
    expect(exported.omitted).toEqual(['local: argument 3', 'local: argument 5', 'remote: url']);
    // What runs and what is reached: the values.
    const stdio = endpoints.find((endpoint) => endpoint.transport === 'stdio');
    const http = endpoints.find((endpoint) => endpoint.transport !== 'stdio');
    expect(stdio).toMatchObject({
      args: ['-y', 'server', `--api-key=${KEY}`, '--token', TOKEN, '/home/me'],
    });
    expect(http).toMatchObject({
      url: `https://mcp.example.com/mcp/${KEY}/sse?t=${TOKEN}`,
      hiddenParts: [KEY, TOKEN],
    });
  });

  it('names them •••• in a connection error', async () => {
    const { plan, services } = fixture(
      (endpoint) =>
        new McpError(
          'not-found',
          `${endpoint.transport === 'stdio' ? 'x' : endpoint.url.replace(/\?.*/, '')} answered 404`,
        ),
    );
    const [result] = await importServices(services, plan.entries.slice(1), { signal });
    expect(result?.ok).toBe(false);
    expect(result?.message).toContain('https://mcp.example.com/mcp/••••/sse answered 404');
    expect(result?.message).not.toContain(KEY);
  });

  it('drops them from the secret store with the service, or when an edit leaves them out', async () => {
    const { plan, services, directory } = fixture();
    await importServices(services, plan.entries, { signal });
    const secretsFile = () => readFileSync(join(directory, 'secrets.json'), 'utf8');
    await services.update('local', { args: ['-y', 'server'] });
    await services.remove('remote');
    expect(secretsFile()).not.toContain(KEY);
    expect(secretsFile()).not.toContain(TOKEN);
  });

  it('lifts secrets typed into the arguments of aivory mcp add and edit', async () => {
    const { services, store, directory, database: file } = fixture();
    const LITERAL = 'sk-live-typed-0123456789abcdef';
    const PASSWORD = 'hunter2-but-longer';
    await services.add({
      name: 'typed',
      description: 'd',
      command: 'npx',
      args: ['-y', 'server', '--api-key', LITERAL, `--password=${PASSWORD}`, '--port', '8080'],
    });
    const saved = store.mcp.getService('typed');
    expect(saved?.args.slice(0, 3)).toEqual(['-y', 'server', '--api-key']);
    expect(saved?.args[3]).toMatch(/^\$\(secret:mcp\./);
    expect(saved?.args[4]).toMatch(/^--password=\$\(secret:mcp\./);
    expect(saved?.args.slice(5)).toEqual(['--port', '8080']);
    expect(database(file)).not.toContain(LITERAL);
    expect(database(file)).not.toContain(PASSWORD);
    const secretsFile = readFileSync(join(directory, 'secrets.json'), 'utf8');
    expect(secretsFile).toContain(LITERAL);
    expect(secretsFile).toContain(PASSWORD);
    // An edit that types a new key stores it the same way, and drops the old one.
    const NEXT = 'sk-live-next-abcdefghijklmnop';
    await services.update('typed', { args: ['-y', 'server', '--api-key', NEXT] });
    expect(database(file)).not.toContain(NEXT);
    const after = readFileSync(join(directory, 'secrets.json'), 'utf8');
    expect(after).toContain(NEXT);
    expect(after).not.toContain(LITERAL);
  });
});
