/**
 * MCP over HTTP connects only to addresses the service's rules checked, for every connection
 * (issue 11, findings 3 and 6): a local name (`mcp.lan`) is resolved through the app's resolver
 * and reaches the real server on 127.0.0.1; a name that answers differently at connect time
 * (DNS rebinding) is refused before any byte — or header — is sent; a `.internal` name that
 * resolves to the metadata address is refused. The resolver is scripted; the server is the real
 * server-everything on loopback; nothing else is contacted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import type { ResolvedAddress } from '../../src/main/core/ports';
import { FileSecretStore } from '../../src/main/adapters/secrets/file-secret-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { McpServices } from '../../src/main/services/mcp/mcp-services';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import { recordingLogger } from '../support/turn-harness';

let server: EverythingServer;
let home: string;
beforeAll(async () => {
  server = await startEverythingServer('streamableHttp');
  home = mkdtempSync(join(tmpdir(), 'aivory-mcp-pinned-'));
}, 120_000);
afterAll(async () => {
  await server.stop();
  rmSync(home, { recursive: true, force: true });
});

/** Answers each name with the next entry of its script (the last one repeats). */
function scriptedResolver(script: Record<string, ResolvedAddress[][]>) {
  const calls: string[] = [];
  return {
    calls,
    resolve: (hostname: string): Promise<ResolvedAddress[]> => {
      calls.push(hostname);
      const answers = script[hostname];
      if (!answers)
        return Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
      const seen = calls.filter((name) => name === hostname).length;
      return Promise.resolve(answers[Math.min(seen, answers.length) - 1] ?? []);
    },
  };
}

function services(resolver: ReturnType<typeof scriptedResolver>, name: string): McpServices {
  const directory = mkdtempSync(join(home, `${name}-`));
  let counter = 0;
  return new McpServices({
    store: openStore(join(directory, 'aivory.db')).mcp,
    secrets: new FileSecretStore(join(directory, 'secrets.json')),
    connector: createMcpConnector(),
    resolver,
    clock: { now: () => Date.now() },
    ids: { next: (prefix) => `${prefix}_${++counter}` },
    logger: recordingLogger(),
    allowLocalCommands: () => false,
  });
}

const LOOPBACK: ResolvedAddress[] = [{ address: '127.0.0.1', family: 4 }];
const METADATA: ResolvedAddress[] = [{ address: '169.254.169.254', family: 4 }];
const PUBLIC: ResolvedAddress[] = [{ address: '45.33.0.10', family: 4 }];
const signal = () => AbortSignal.timeout(30_000);

describe('MCP connections pinned to checked addresses', () => {
  it('a local name reaches the server through the checked address, asked again for the connection', async () => {
    const resolver = scriptedResolver({ 'mcp.lan': [LOOPBACK] });
    const mcp = services(resolver, 'lan');
    await mcp.add({
      name: 'Lan',
      url: `http://mcp.lan:${server.port}/mcp`,
      description: 'LAN service',
      headers: ['X-Token: secret-token-123456'],
    });
    const result = await mcp.test('Lan', signal());
    await mcp.close();
    expect(result).toMatchObject({ ok: true, message: expect.stringContaining('connected') });
    // Once for the check before connecting, then once per new connection.
    expect(resolver.calls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(resolver.calls)).toEqual(new Set(['mcp.lan']));
  }, 120_000);

  it('a name that rebinds between the check and the connection is refused before connecting', async () => {
    const resolver = scriptedResolver({
      'rebind.lan': [LOOPBACK, METADATA],
      'api.example-public.test': [PUBLIC, LOOPBACK],
    });
    const mcp = services(resolver, 'rebind');
    await mcp.add({
      name: 'Rebind',
      url: `http://rebind.lan:${server.port}/mcp`,
      description: 'rebinding',
      headers: ['X-Token: secret-token-123456'],
    });
    await mcp.add({
      name: 'Public',
      url: `http://api.example-public.test:${server.port}/mcp`,
      description: 'public name turning inward',
      headers: ['X-Token: secret-token-123456'],
    });
    const rebind = await mcp.test('Rebind', signal());
    const inward = await mcp.test('Public', signal());
    await mcp.close();
    expect(rebind).toMatchObject({ ok: false, message: expect.stringMatching(/link-local/) });
    expect(inward).toMatchObject({ ok: false, message: expect.stringMatching(/loopback/) });
  }, 120_000);

  it('a .internal name resolving to the metadata address is refused', async () => {
    const resolver = scriptedResolver({ 'metadata.google.internal': [METADATA] });
    const mcp = services(resolver, 'metadata');
    const added = mcp.add({
      name: 'Meta',
      url: 'http://metadata.google.internal/computeMetadata/v1/',
      description: 'metadata',
      headers: ['Metadata-Flavor: Google'],
    });
    await expect(
      added
        .then(() => mcp.test('Meta', signal()))
        .then((result) => {
          if (!result.ok) throw new Error(result.message);
          return result;
        }),
    ).rejects.toThrow(/link-local|metadata/);
    await mcp.close();
  }, 120_000);
});
