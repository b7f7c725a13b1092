/**
 * Loader variables through the service layer over a real SQLite store and secret file: `add`
 * and `update` refuse one the user did not allow for the service, store the allowance when given,
 * and hand the launcher only what was allowed — a service saved before (or edited around) the
 * allowance gets no allowance from the store.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../src/main/adapters/secrets/file-secret-store';
import { openStore } from '../../../src/main/adapters/sqlite/sqlite-store';
import type { McpConnector, McpEndpoint } from '../../../src/main/core/ports';
import { McpServices } from '../../../src/main/services/mcp/mcp-services';
import { fakeMcpSession } from '../../support/fake-mcp-session';
import { recordingLogger } from '../../support/turn-harness';

const PAYLOAD = '--import=data:text/javascript,globalThis.x=1';

function fixture() {
  const directory = mkdtempSync(join(tmpdir(), 'aivory-mcp-loader-'));
  const store = openStore(join(directory, 'aivory.db'));
  const endpoints: McpEndpoint[] = [];
  const connector: McpConnector = {
    connect: (endpoint) => {
      endpoints.push(endpoint);
      return Promise.resolve(fakeMcpSession({ listTools: () => Promise.resolve([]) }));
    },
    signIn: () => Promise.reject(new Error('no sign-in in this test')),
  };
  let counter = 0;
  const services = new McpServices({
    store: store.mcp,
    secrets: new FileSecretStore(join(directory, 'secrets.json')),
    connector,
    resolver: { resolve: () => Promise.resolve([{ address: '45.33.0.1', family: 4 }]) },
    clock: { now: () => 1_000 + counter },
    ids: { next: (prefix) => `${prefix}_${++counter}` },
    logger: recordingLogger(),
    allowLocalCommands: () => true,
  });
  return { store, services, endpoints };
}

const base = { name: 'memory', description: 'd', command: 'npx', args: ['-y', 'server-memory'] };

describe('loader variables in a service', () => {
  it('refuses one the user did not allow, on add and on edit', async () => {
    const { services, store } = fixture();
    await expect(
      services.add({ ...base, env: [`NODE_OPTIONS=${PAYLOAD}`, 'DEBUG=1'] }),
    ).rejects.toThrow(
      'NODE_OPTIONS is a loader variable (Node.js loads and runs the modules it names (--require, --import)): it is refused unless you allow it for this service',
    );
    expect(store.mcp.listServices()).toEqual([]);
    await services.add({ ...base, env: ['DEBUG=1'] });
    await expect(services.update('memory', { env: ['LD_PRELOAD=/tmp/x.so'] })).rejects.toThrow(
      /LD_PRELOAD is a loader variable/,
    );
    // An allowance for a variable the env does not set is a mistake, said so.
    await expect(
      services.update('memory', { env: ['DEBUG=2'], allowLoaderEnv: ['LD_PRELOAD'] }),
    ).rejects.toThrow(/sets no such loader variable/);
  });

  it('stores the allowance and hands the launcher only what was allowed', async () => {
    const { services, store, endpoints } = fixture();
    await services.add({
      ...base,
      env: [`NODE_OPTIONS=${PAYLOAD}`, 'DEBUG=1'],
      allowLoaderEnv: ['NODE_OPTIONS'],
    });
    expect(store.mcp.getService('memory')?.env).toEqual([
      expect.objectContaining({ name: 'NODE_OPTIONS', loaderAllowed: true }),
      expect.not.objectContaining({ loaderAllowed: true }),
    ]);
    await services.test('memory', new AbortController().signal);
    expect(endpoints[0]).toMatchObject({
      transport: 'stdio',
      env: { NODE_OPTIONS: PAYLOAD, DEBUG: '1' },
      allowedLoaderEnv: ['NODE_OPTIONS'],
    });
  });

  it('a service stored with a loader variable but no allowance is not allowed it', async () => {
    const { services, store, endpoints } = fixture();
    await services.add({ ...base, env: ['DEBUG=1'] });
    const service = store.mcp.getService('memory');
    if (!service) throw new Error('not added');
    // As a service saved before loader variables were refused: the variable, no allowance.
    store.mcp.updateConfig(service.id, {
      ...service,
      env: [...service.env, { name: 'PYTHONSTARTUP', secretRef: service.env[0]?.secretRef ?? '' }],
    });
    await services.test('memory', new AbortController().signal);
    expect(endpoints[0]).toMatchObject({ allowedLoaderEnv: [] });
    // `edit --allow-loader-env` allows what is saved, without entering it again.
    await services.update('memory', { allowLoaderEnv: ['PYTHONSTARTUP'] });
    await services.test('memory', new AbortController().signal);
    expect(endpoints[1]).toMatchObject({ allowedLoaderEnv: ['PYTHONSTARTUP'] });
  });
});
