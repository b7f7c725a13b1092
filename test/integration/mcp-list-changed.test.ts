/**
 * tools/list_changed against the real server-everything over stdio, which announces a change on
 * every connection (it registers more tools once initialized) although its tools stay the same:
 * the service lists them again and stays fresh when they match the last sync.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { EVERYTHING_SCRIPT } from '../support/mcp-everything-server';
import { localMcpServices } from '../support/local-mcp-services';
import { recordingLogger } from '../support/turn-harness';

const home = mkdtempSync(join(tmpdir(), 'aivory-mcp-list-changed-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const CHECKED = 'MCP tools/list_changed: the tools';

describe('tools/list_changed with server-everything', () => {
  it('keeps the service fresh when the announced tools match the last sync', async () => {
    const logger = recordingLogger();
    const mcp = localMcpServices(home, { logger });
    const checks = () => logger.entries.filter((entry) => entry.message.startsWith(CHECKED));
    const stale: string[] = [];
    mcp.onStale((id) => stale.push(id));
    try {
      await mcp.add({
        name: 'everything',
        transport: 'stdio',
        command: process.execPath,
        args: [EVERYTHING_SCRIPT, 'stdio'],
        description: 'The reference server',
      });
      const signal = AbortSignal.timeout(30_000);
      const synced = await mcp.sync('everything', { accept: true, signal });
      expect(synced.toolCount).toBeGreaterThan(10);
      // The first connection's announcement may race the sync itself; wait for its check.
      await vi.waitFor(() => expect(checks().length).toBeGreaterThan(0), { timeout: 20_000 });
      stale.length = 0;
      const before = checks().length;
      // A new connection (an edit closes the shared session; the test opens another):
      // server-everything announces a change again.
      await mcp.update('everything', { description: 'The reference server, edited' });
      expect((await mcp.test('everything', signal)).ok).toBe(true);
      await vi.waitFor(() => expect(checks().length).toBeGreaterThan(before), {
        timeout: 20_000,
      });
      expect(checks().at(-1)?.message).toBe(
        'MCP tools/list_changed: the tools match the last sync',
      );
      expect(stale).toEqual([]);
      expect(mcp.get('everything').stale).toBe(false);
      expect(mcp.diff('everything')).toEqual([]);
    } finally {
      await mcp.close();
    }
  }, 90_000);
});
