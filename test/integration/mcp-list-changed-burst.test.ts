/**
 * A burst of list_changed notifications costs a bounded amount of work (issue 37, item 6):
 * against a real SDK server over stdio (test/support/mcp-chatty-server.ts) that sends 100
 * tools/list_changed, 100 prompts/list_changed and 100 resources/list_changed in one go, the
 * service lists the tools again at most twice (one listing in flight, one queued; the count is
 * the server's own) and tells the windows to reload a list at most twice. Before, each
 * announcement listed the tools (100 listings of what may be megabytes) and sent an event.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { McpCallOptions } from '../../src/main/core/ports';
import { CHATTY_SCRIPT } from '../support/mcp-chatty-server';
import { localMcpServices } from '../support/local-mcp-services';
import { recordingLogger } from '../support/turn-harness';

const home = mkdtempSync(join(tmpdir(), 'aivory-mcp-burst-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const CHECKED = 'MCP tools/list_changed: the tools';
const BURST = 100;

function call(signal: AbortSignal): McpCallOptions {
  return { signal, timeoutMs: 30_000, maxTotalTimeoutMs: 60_000, maxOutputChars: 10_000 };
}

describe('a burst of list_changed notifications', () => {
  it('lists the tools and reloads the lists a bounded number of times', async () => {
    const logger = recordingLogger();
    const mcp = localMcpServices(home, { logger });
    const checks = () => logger.entries.filter((entry) => entry.message.startsWith(CHECKED));
    const reloads: string[] = [];
    mcp.onLibraryChanged((id) => reloads.push(id));
    try {
      await mcp.add({
        name: 'chatty',
        transport: 'stdio',
        command: process.execPath,
        args: ['--import', 'tsx', CHATTY_SCRIPT],
        description: 'Announces changes.',
      });
      const signal = AbortSignal.timeout(60_000);
      await mcp.sync('chatty', { accept: true, signal });
      const service = mcp.get('chatty');
      const listed = async () =>
        Number(
          (
            await mcp.withSession(service, signal, (session) =>
              session.callTool('lists', {}, call(signal)),
            )
          ).text,
        );
      expect(await listed()).toBe(1);

      // The notifications come before the call's answer on the same stream: when it returns,
      // every one of them has been heard.
      await mcp.withSession(service, signal, (session) =>
        session.callTool('burst', { count: BURST }, call(signal)),
      );
      // One listing at once and one after it, 2 s apart (a third only if the burst itself
      // outlasted that interval); the rest coalesced into them.
      await vi.waitFor(() => expect(checks().length).toBeGreaterThanOrEqual(2), {
        timeout: 30_000,
      });
      await vi.waitFor(() => expect(reloads.length).toBeGreaterThanOrEqual(2), {
        timeout: 30_000,
      });
      // The server's own count: the sync's listing and at most three after the burst.
      expect(await listed()).toBeLessThanOrEqual(1 + 3);
      expect(checks().length).toBeLessThanOrEqual(3);
      expect(reloads.length).toBeLessThanOrEqual(3);
      expect(new Set(reloads)).toEqual(new Set([service.id]));
      expect(mcp.get('chatty').stale).toBe(false);
    } finally {
      await mcp.close();
    }
  }, 120_000);
});
