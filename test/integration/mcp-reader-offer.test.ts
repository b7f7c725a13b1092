/**
 * The model's resource reader (`<service>__read_resource`) is offered only for services whose
 * server said it has resources (the capabilities seen on its last connection, kept in the
 * database): against a real server with resources (test/support/mcp-watched-server.ts) and one
 * with tools only (test/support/mcp-counter-server.ts), both synced and enabled.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileArtifactSink } from '../../src/main/adapters/artifacts/file-artifact-sink';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { buildResourceReaders } from '../../src/main/services/mcp/mcp-resource-reader';
import { localMcpServices } from '../support/local-mcp-services';
import { startCounterServer } from '../support/mcp-counter-server';
import { startWatchedServer } from '../support/mcp-watched-server';

const home = mkdtempSync(join(tmpdir(), 'aivory-mcp-reader-offer-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('the resource reader is offered by capability', () => {
  it('offers it for a server with resources only', async () => {
    const [withResources, toolsOnly] = await Promise.all([
      startWatchedServer(),
      startCounterServer(),
    ]);
    const mcp = localMcpServices(home);
    const store = openStore(join(home, 'aivory.db')).mcp;
    try {
      const ids: string[] = [];
      for (const [name, url] of [
        ['clock', withResources.url],
        ['counter', toolsOnly.url],
      ] as const) {
        const { service } = await mcp.add({
          name,
          transport: 'streamable-http',
          url,
          description: `The ${name} server`,
        });
        ids.push(service.id);
        await mcp.sync(name, { accept: true, signal: AbortSignal.timeout(20_000) });
        mcp.setEnabled(name, true);
      }
      expect(store.getServerFeatures(ids[0] ?? '')).toMatchObject({
        resources: true,
        resourceSubscribe: true,
      });
      expect(store.getServerFeatures(ids[1] ?? '')).toMatchObject({
        tools: true,
        resources: false,
      });
      const readers = buildResourceReaders(
        {
          services: mcp,
          store,
          artifacts: new FileArtifactSink(join(home, 'artifacts')),
          scratchConversationId: 'scratch',
        },
        ids,
        new Set(),
      );
      expect(readers.map((reader) => reader.tool.name)).toEqual(['clock__read_resource']);
    } finally {
      await mcp.close();
      await withResources.close();
      await toolsOnly.close();
    }
  }, 120_000);
});
