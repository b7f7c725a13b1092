/**
 * The roots logic of the MCP service layer over a real SQLite store, with a scripted connector:
 * what the connection is given (no `roots` option while nothing is shared, the stored folders read
 * at each request), and what a change does to a live connection (told when it announced roots;
 * closed and reopened when it did not, or when telling it fails; nothing without one).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../src/main/adapters/secrets/file-secret-store';
import { openStore } from '../../../src/main/adapters/sqlite/sqlite-store';
import type { McpConnectOptions, McpSession } from '../../../src/main/core/ports';
import { McpServices } from '../../../src/main/services/mcp/mcp-services';
import { recordingLogger } from '../../support/turn-harness';

const directory = realpathSync(mkdtempSync(join(tmpdir(), 'aivory-mcp-roots-unit-')));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface FakeConnection {
  options: McpConnectOptions;
  notified: number;
  closed: boolean;
}

function fixture(label: string, rootsChanged: (announced: boolean) => Promise<boolean>) {
  const home = join(directory, label);
  mkdirSync(home);
  const connections: FakeConnection[] = [];
  const logger = recordingLogger();
  const services = new McpServices({
    store: openStore(join(home, 'aivory.db')).mcp,
    secrets: new FileSecretStore(join(home, 'secrets.json')),
    connector: {
      signIn: () => Promise.reject(new Error('no sign-in in this test')),
      connect: (_endpoint, options) => {
        const connection: FakeConnection = { options, notified: 0, closed: false };
        connections.push(connection);
        const session: McpSession = {
          serverName: 'fake',
          serverVersion: '1',
          listTools: () => Promise.resolve([]),
          callTool: () => Promise.reject(new Error('no calls')),
          listPrompts: () => Promise.resolve([]),
          getPrompt: () => Promise.resolve(''),
          listResources: () => Promise.resolve([]),
          readResource: () => Promise.resolve(''),
          readResourceContents: () => Promise.resolve({ text: '', blobs: [], texts: [] }),
          listResourceTemplates: () => Promise.resolve([]),
          onToolsChanged: () => undefined,
          onLibraryChanged: () => undefined,
          onClose: () => undefined,
          rootsChanged: async () => {
            connection.notified += 1;
            return rootsChanged(options.roots !== undefined);
          },
          close: () => {
            connection.closed = true;
            return Promise.resolve();
          },
        };
        return Promise.resolve(session);
      },
    },
    resolver: { resolve: () => Promise.resolve([{ address: '45.33.0.1', family: 4 }]) },
    clock: { now: () => 1_000 },
    ids: { next: (prefix) => `${prefix}_${connections.length}_${label}` },
    logger,
    allowLocalCommands: () => false,
  });
  const folder = (name: string) => {
    const path = join(home, name);
    mkdirSync(path);
    return path;
  };
  return { services, connections, logger, folder };
}

async function connect(services: McpServices): Promise<McpSession> {
  return services.session(services.get('files'), AbortSignal.timeout(5_000));
}

const SERVICE = {
  name: 'files',
  transport: 'streamable-http' as const,
  url: 'https://mcp.example.com/mcp',
  description: 'Files',
};

describe('MCP roots in the service layer', () => {
  it('announces roots only while some are shared, reading the store at each request', async () => {
    const { services, connections, folder } = fixture('options', (announced) =>
      Promise.resolve(announced),
    );
    await services.add(SERVICE);
    // Nothing shared, nothing live: adding opens no connection.
    const notes = folder('notes');
    await services.addRoot('files', notes, 'Notes');
    expect(connections).toHaveLength(0);
    await connect(services);
    const roots = connections[0]?.options.roots;
    expect(roots).toBeDefined();
    expect(await roots?.()).toEqual([{ path: notes, name: 'Notes' }]);

    // A live connection that announced roots is told, and its source sees the new list.
    const photos = folder('photos');
    await services.addRoot('files', photos);
    expect(connections).toHaveLength(1);
    expect(connections[0]).toMatchObject({ notified: 1, closed: false });
    expect(await roots?.()).toEqual([{ path: notes, name: 'Notes' }, { path: photos }]);
    await services.removeRoot('files', notes);
    await services.removeRoot('files', photos);
    expect(connections[0]).toMatchObject({ notified: 3, closed: false });
    expect(await roots?.()).toEqual([]);

    // A new connection of a service sharing nothing does not announce roots.
    await services.test('files', AbortSignal.timeout(5_000));
    expect(connections[1]?.options.roots).toBeUndefined();
    await services.close();
  });

  it('closes a connection that did not announce roots; the next use announces them', async () => {
    const { services, connections, folder } = fixture('reopen', (announced) =>
      Promise.resolve(announced),
    );
    await services.add(SERVICE);
    const first = await connect(services);
    expect(connections[0]?.options.roots).toBeUndefined();
    await services.addRoot('files', folder('notes'));
    expect(connections[0]).toMatchObject({ notified: 1, closed: true });
    const second = await connect(services);
    expect(second).not.toBe(first);
    expect(connections[1]?.options.roots).toBeDefined();
    await services.close();
  });

  it('closes a connection that cannot be told (the next use reads the new list)', async () => {
    const { services, connections, folder, logger } = fixture('failing', () =>
      Promise.reject(new Error('stream gone')),
    );
    await services.add(SERVICE);
    await services.addRoot('files', folder('notes'));
    await connect(services);
    await services.addRoot('files', folder('photos'));
    expect(connections[0]).toMatchObject({ notified: 1, closed: true });
    expect(JSON.stringify(logger.entries)).toContain('stream gone');
    await services.close();
  });

  it('removes a folder deleted since it was shared, by its stored path', async () => {
    const { services, folder } = fixture('deleted', () => Promise.resolve(true));
    await services.add(SERVICE);
    const gone = folder('gone');
    await services.addRoot('files', gone);
    rmSync(gone, { recursive: true });
    expect(await services.removeRoot('files', gone)).toEqual([]);
    await services.close();
  });
});
