/**
 * Argument completion (`completion/complete`) and resource subscriptions (`resources/subscribe`,
 * `notifications/resources/updated`) against real servers: server-everything over Streamable HTTP
 * (its completable prompt, its resource template's completion, its subscriptions), the SDK's
 * server without completions (test/support/mcp-resource-server.ts), and a server whose resource
 * changes by itself while watched (test/support/mcp-watched-server.ts) for the service layer's
 * watches: updates, one subscription per URI, unsubscribe when the last watcher leaves, and a
 * new subscription when the session is replaced.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import type { McpSession } from '../../src/main/core/ports';
import type { McpWatchEvent } from '../../src/main/services/mcp/mcp-resource-watch';
import { localMcpServices } from '../support/local-mcp-services';
import { startEverythingServer } from '../support/mcp-everything-server';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startResourceServer } from '../support/mcp-resource-server';
import { CLOCK_URI, startWatchedServer } from '../support/mcp-watched-server';

const never = new AbortController().signal;
const connector = createMcpConnector();
const home = mkdtempSync(join(tmpdir(), 'aivory-mcp-watch-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('server-everything: completion and subscriptions', () => {
  let server: EverythingServer;
  let session: McpSession;
  beforeAll(async () => {
    server = await startEverythingServer('streamableHttp');
    session = await connector.connect(
      { transport: 'streamable-http', url: server.url, headers: {} },
      { signal: never, timeoutMs: 20_000 },
    );
  }, 40_000);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('reads what the server offers', () => {
    expect(session.features).toEqual({
      tools: true,
      prompts: true,
      resources: true,
      resourceSubscribe: true,
      completions: true,
    });
  });

  it("completes a prompt's arguments, narrowed by the other arguments", async () => {
    const prompt = { type: 'prompt', name: 'completable-prompt' } as const;
    expect(await session.complete(prompt, { name: 'department', value: 'E' }, {}, never)).toEqual({
      values: ['Engineering'],
      hasMore: false,
      total: 1,
    });
    const all = await session.complete(prompt, { name: 'department', value: '' }, {}, never);
    expect(all.values).toEqual(['Engineering', 'Sales', 'Marketing', 'Support']);
    const names = await session.complete(
      prompt,
      { name: 'name', value: '' },
      { department: 'Sales', name: 'ignored: the argument itself' },
      never,
    );
    expect(names.values).toEqual(['David', 'Eve', 'Frank']);
  });

  it("completes a resource template's variable", async () => {
    const template = {
      type: 'resource',
      uri: 'demo://resource/dynamic/text/{resourceId}',
    } as const;
    const found = await session.complete(template, { name: 'resourceId', value: '7' }, {}, never);
    expect(found.values).toEqual(['7']);
    const none = await session.complete(template, { name: 'resourceId', value: 'x' }, {}, never);
    expect(none.values).toEqual([]);
  });

  it('hears notifications/resources/updated for a subscribed resource', async () => {
    const uri = 'demo://resource/dynamic/text/1';
    const updated: string[] = [];
    session.onResourceUpdated((changed) => updated.push(changed));
    expect(await session.subscribeResource(uri, never)).toBe(true);
    // server-everything sends updates once its toggle tool ran in this session: one at once.
    await session.callTool(
      'toggle-subscriber-updates',
      {},
      {
        signal: never,
        timeoutMs: 10_000,
        maxTotalTimeoutMs: 10_000,
        maxOutputChars: 10_000,
      },
    );
    await vi.waitFor(() => expect(updated).toContain(uri), { timeout: 10_000 });
    await session.unsubscribeResource(uri, never);
  });
});

describe('a server without completions or subscriptions', () => {
  it('asks nothing and suggests nothing; a subscription is refused', async () => {
    const server = await startResourceServer();
    const session = await connector.connect(
      { transport: 'streamable-http', url: server.url, headers: {} },
      { signal: never, timeoutMs: 20_000 },
    );
    try {
      expect(session.features.completions).toBe(false);
      expect(session.features.resourceSubscribe).toBe(false);
      expect(
        await session.complete({ type: 'prompt', name: 'x' }, { name: 'a', value: '' }, {}, never),
      ).toEqual({ values: [], hasMore: false, total: null });
      expect(await session.subscribeResource('test://notes/meeting.md', never)).toBe(false);
    } finally {
      await session.close();
      await server.close();
    }
  }, 30_000);
});

describe('watched resources on the shared session', () => {
  it('tells each watcher, subscribes once, unsubscribes with the last, and again after a reconnect', async () => {
    const server = await startWatchedServer({ intervalMs: 100 });
    const mcp = localMcpServices(home);
    try {
      await mcp.add({
        name: 'clock',
        transport: 'streamable-http',
        url: server.url,
        description: 'A resource that changes',
      });
      const library = await mcp.library('clock', AbortSignal.timeout(20_000));
      expect(library.subscribe).toBe(true);
      expect(library.completions).toBe(false);
      const first: McpWatchEvent[] = [];
      const second: McpWatchEvent[] = [];
      const signal = AbortSignal.timeout(20_000);
      const one = await mcp.watchResource('clock', CLOCK_URI, (event) => first.push(event), signal);
      const two = await mcp.watchResource('clock', CLOCK_URI, (e) => second.push(e), signal);
      expect(server.requests).toEqual(['subscribe']);
      await vi.waitFor(() => expect(second.length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
      expect(first.every((event) => event.kind === 'updated')).toBe(true);
      expect(await mcp.readResource('clock', CLOCK_URI, signal)).toMatch(/^tick [1-9]\d*$/);

      // The session is replaced (an edit closes it): the watch subscribes on the new one and
      // tells its watchers to read again.
      const before = first.length;
      await mcp.update('clock', { description: 'A resource that changes, edited' });
      await vi.waitFor(() => expect(server.requests).toEqual(['subscribe', 'subscribe']), {
        timeout: 10_000,
      });
      await vi.waitFor(() => expect(first.length).toBeGreaterThan(before + 1), {
        timeout: 10_000,
      });

      expect(await mcp.unwatchResource(one)).toBe(true);
      expect(server.requests).toEqual(['subscribe', 'subscribe']);
      expect(await mcp.unwatchResource(two)).toBe(true);
      expect(server.requests).toEqual(['subscribe', 'subscribe', 'unsubscribe']);
      expect(server.subscribed()).toBe(0);
      expect(await mcp.unwatchResource(two)).toBe(false);
    } finally {
      await mcp.close();
      await server.close();
    }
  }, 120_000);

  it('refuses to watch a resource of a server without subscriptions', async () => {
    const server = await startResourceServer();
    const mcp = localMcpServices(mkdtempSync(join(home, 'plain-')));
    try {
      await mcp.add({
        name: 'plain',
        transport: 'streamable-http',
        url: server.url,
        description: 'No subscriptions',
      });
      await expect(
        mcp.watchResource('plain', 'test://notes/meeting.md', () => undefined, never),
      ).rejects.toThrow('"plain" does not offer resource subscriptions');
    } finally {
      await mcp.close();
      await server.close();
    }
  }, 30_000);
});
