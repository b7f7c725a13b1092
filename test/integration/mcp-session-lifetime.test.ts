/**
 * When the shared MCP session of a service ends and comes back (McpConnections), with real
 * servers: a stateful SDK server that answers an unknown session with 404 and has no event
 * stream (so only the next request learns of a restart), and server-everything. The state of a
 * session lasts from call to call; a restarted server costs the next call one reconnection, not
 * an error; a session unused for the idle period (short here) closes by itself — never while a
 * call runs on it — and the next use opens a new one; removing the service closes it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import { createSystemResolver } from '../../src/main/adapters/fetch/host-resolver';
import { FileSecretStore } from '../../src/main/adapters/secrets/file-secret-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { McpSession } from '../../src/main/core/ports';
import type { McpSessionEnd } from '../../src/main/services/mcp/mcp-connections';
import { McpServices } from '../../src/main/services/mcp/mcp-services';
import type { CounterServer } from '../support/mcp-counter-server';
import { spawnCounterServer } from '../support/mcp-counter-server';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import { recordingLogger } from '../support/turn-harness';

const signal = () => AbortSignal.timeout(30_000);

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'aivory-mcp-lifetime-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** McpServices over a fresh store, with its session ends recorded in order. */
function services(name: string, idleCloseMs?: number) {
  const directory = mkdtempSync(join(home, `${name}-`));
  let counter = 0;
  const logger = recordingLogger();
  const mcp = new McpServices({
    store: openStore(join(directory, 'aivory.db')).mcp,
    secrets: new FileSecretStore(join(directory, 'secrets.json')),
    connector: createMcpConnector(),
    resolver: createSystemResolver(),
    clock: { now: () => Date.now() },
    ids: { next: (prefix) => `${prefix}_${++counter}` },
    logger,
    allowLocalCommands: () => false,
    ...(idleCloseMs === undefined ? {} : { idleCloseMs }),
  });
  const ends: McpSessionEnd[] = [];
  const waiters: { why: McpSessionEnd; resolve: () => void }[] = [];
  mcp.onSessionEnd((_id, why) => {
    ends.push(why);
    for (const waiter of waiters.splice(0)) {
      if (waiter.why === why) waiter.resolve();
      else waiters.push(waiter);
    }
  });
  /** Resolves at the next end of a session for `why` (an event, not a sleep). */
  const nextEnd = (why: McpSessionEnd) =>
    new Promise<void>((resolve) => waiters.push({ why, resolve }));
  return { mcp, ends, nextEnd, logger };
}

async function call(mcp: McpServices, name: string, tool: string, args = {}): Promise<string> {
  const service = mcp.get(name);
  const result = await mcp.withSession(service, signal(), (session: McpSession) =>
    session.callTool(tool, args, {
      signal: signal(),
      timeoutMs: 20_000,
      maxTotalTimeoutMs: 20_000,
      maxOutputChars: 10_000,
    }),
  );
  expect(result.isError).toBe(false);
  return result.text;
}

describe('a stateful server restarted between calls', () => {
  let server: CounterServer;
  beforeAll(async () => {
    server = await spawnCounterServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('keeps its state from call to call; after a restart the next call reconnects once', async () => {
    const { mcp, ends, logger } = services('restart');
    try {
      await mcp.add({ name: 'Counter', url: server.url, description: 'counts' });
      expect(await call(mcp, 'Counter', 'count')).toBe('call 1 in this session');
      expect(await call(mcp, 'Counter', 'count')).toBe('call 2 in this session');
      expect(server.sessionIds).toHaveLength(1);

      await server.close();
      server = await spawnCounterServer(server.port);
      // The client cannot know yet: no event stream told it. The call finds out, and succeeds.
      expect(await call(mcp, 'Counter', 'count')).toBe('call 1 in this session');
      expect(server.unknownSessions()).toBe(1);
      expect(server.sessionIds).toHaveLength(1);
      expect(ends).toEqual(['lost']);
      expect(logger.entries.map((entry) => entry.message)).toContain(
        'MCP session gone: reconnecting once',
      );
      expect(await call(mcp, 'Counter', 'count')).toBe('call 2 in this session');
    } finally {
      await mcp.close();
    }
  }, 120_000);

  it('a server that stays down: one reconnection attempt, then a clear error', async () => {
    const { mcp, logger } = services('down');
    try {
      await mcp.add({ name: 'Counter', url: server.url, description: 'counts' });
      expect(await call(mcp, 'Counter', 'count')).toBe('call 1 in this session');
      const port = server.port;
      await server.close();
      await expect(call(mcp, 'Counter', 'count')).rejects.toThrow(
        /refused the connection; is the server running\?/,
      );
      const retries = logger.entries.filter(
        (entry) => entry.message === 'MCP session gone: reconnecting once',
      );
      expect(retries).toHaveLength(1);
      server = await spawnCounterServer(port);
    } finally {
      await mcp.close();
    }
  }, 120_000);
});

describe('idle sessions', () => {
  let everything: EverythingServer;
  beforeAll(async () => {
    everything = await startEverythingServer('streamableHttp');
  }, 120_000);
  afterAll(async () => {
    await everything.stop();
  });

  it('a session unused for the idle period closes; never while a call runs; the next use reopens', async () => {
    const { mcp, ends, nextEnd } = services('idle', 300);
    try {
      await mcp.add({ name: 'Everything', url: everything.url, description: 'tools' });
      expect(await call(mcp, 'Everything', 'echo', { message: 'open' })).toBe('Echo: open');
      const idle = nextEnd('idle');
      // The idle period runs now; a call started in it, running three times as long (progress
      // every 0.3 s), holds the session open until it ends.
      let callEnded = false;
      const long = call(mcp, 'Everything', 'trigger-long-running-operation', {
        duration: 0.9,
        steps: 3,
      }).then((text) => {
        callEnded = true;
        return text;
      });
      await idle;
      expect(callEnded).toBe(true);
      expect(await long).toMatch(/Long running operation completed/);
      expect(ends).toEqual(['idle']);
      expect(mcp.liveSession('Everything')).toBe(false);
      expect(everything.sessionIds()).toHaveLength(1);

      // The next use opens a new session, which idles out in its turn.
      const again = nextEnd('idle');
      expect(await call(mcp, 'Everything', 'echo', { message: 'back' })).toBe('Echo: back');
      expect(everything.sessionIds()).toHaveLength(2);
      await again;
      expect(everything.sessionIds()).toHaveLength(2);
      expect(ends).toEqual(['idle', 'idle']);
    } finally {
      await mcp.close();
    }
  }, 120_000);

  it('removing a service closes its session at once', async () => {
    const { mcp, ends } = services('remove');
    try {
      await mcp.add({ name: 'Everything', url: everything.url, description: 'tools' });
      await call(mcp, 'Everything', 'echo', { message: 'hi' });
      expect(mcp.liveSession('Everything')).toBe(true);
      await mcp.remove('Everything');
      expect(ends).toEqual(['changed']);
    } finally {
      await mcp.close();
    }
  }, 120_000);
});
