/**
 * McpResourceWatches' rules with a stand-in session: updates of one URI reach its watchers at
 * most once per interval (a trailing one follows), and a watch whose subscription cannot be made
 * again after the session ended ends with the reason, its watchers told once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { McpService } from '../../../src/shared/mcp';
import type { McpSession } from '../../../src/main/core/ports';
import {
  McpResourceWatches,
  WATCH_UPDATE_INTERVAL_MS,
} from '../../../src/main/services/mcp/mcp-resource-watch';
import type { McpWatchEvent } from '../../../src/main/services/mcp/mcp-resource-watch';
import { fakeMcpSession } from '../../support/fake-mcp-session';
import { recordingLogger } from '../../support/turn-harness';

const service = { id: 'mcp_1', name: 'clock' } as McpService;
const never = new AbortController().signal;

function watches(subscribe: () => Promise<boolean>) {
  const held: string[] = [];
  const released: string[] = [];
  const session: McpSession = fakeMcpSession({ subscribeResource: subscribe });
  const registry = new McpResourceWatches({
    get: () => service,
    withSession: (_service, _signal, action) => action(session),
    live: () => undefined,
    hold: (id) => {
      held.push(id);
      return () => released.push(id);
    },
    logger: recordingLogger(),
  });
  return { registry, held, released };
}

describe('resource watches', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('passes updates on at most once per interval, then the trailing one', async () => {
    const { registry, held } = watches(() => Promise.resolve(true));
    const events: McpWatchEvent[] = [];
    await registry.watch('clock', 'test://a', (event) => events.push(event), never);
    expect(held).toEqual(['mcp_1']);
    for (let index = 0; index < 5; index += 1) registry.updated('mcp_1', 'test://a');
    registry.updated('mcp_1', 'test://other');
    expect(events).toEqual([{ kind: 'updated' }]);
    await vi.advanceTimersByTimeAsync(WATCH_UPDATE_INTERVAL_MS);
    expect(events).toEqual([{ kind: 'updated' }, { kind: 'updated' }]);
    await vi.advanceTimersByTimeAsync(WATCH_UPDATE_INTERVAL_MS * 4);
    expect(events).toHaveLength(2);
  });

  it('ends a watch whose subscription cannot be made again, telling why', async () => {
    let fail = false;
    const { registry, released } = watches(() =>
      fail ? Promise.reject(new Error('refused the connection')) : Promise.resolve(true),
    );
    const events: McpWatchEvent[] = [];
    await registry.watch('clock', 'test://a', (event) => events.push(event), never);
    fail = true;
    registry.sessionEnded('mcp_1', 'lost');
    await vi.runAllTimersAsync();
    expect(events).toEqual([
      {
        kind: 'ended',
        reason: 'the subscription could not be made again: refused the connection',
      },
    ]);
    expect(released).toEqual(['mcp_1']);
    expect(registry.size).toBe(0);
    // A shutdown subscribes nothing again.
    fail = false;
    await registry.watch('clock', 'test://b', (event) => events.push(event), never);
    registry.sessionEnded('mcp_1', 'shutdown');
    await vi.runAllTimersAsync();
    expect(events).toHaveLength(1);
  });

  it('refuses a server without subscriptions and keeps nothing', async () => {
    const { registry, released } = watches(() => Promise.resolve(false));
    await expect(registry.watch('clock', 'test://a', () => undefined, never)).rejects.toThrow(
      '"clock" does not offer resource subscriptions',
    );
    expect(registry.size).toBe(0);
    expect(released).toEqual(['mcp_1']);
  });
});
