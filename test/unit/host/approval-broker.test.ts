import { describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../../src/main/host/approval-broker';
import type { HubEvent } from '../../../src/main/host/event-hub';
import { EventHub } from '../../../src/main/host/event-hub';
import type { ApprovalRequest } from '../../../src/main/core/ports';

const REQUEST: ApprovalRequest = {
  toolName: 'files__write_note',
  service: 'files',
  tool: 'write_note',
  arguments: { path: 'a.md', text: 'hello' },
  conversationId: 'conv_1',
  readOnlyHint: false,
  destructiveHint: true,
};

function setUp(waitMs?: number): {
  broker: ApprovalBroker;
  events: HubEvent[];
  hub: EventHub;
  leave: () => void;
} {
  const hub = new EventHub({ error: () => undefined });
  const events: HubEvent[] = [];
  const leave = hub.subscribe((event) => events.push(event));
  let next = 0;
  const ids = { next: (prefix: string) => `${prefix}_${(next += 1)}` };
  const broker = new ApprovalBroker({
    events: hub,
    ids,
    ...(waitMs === undefined ? {} : { waitMs }),
  });
  return { broker, events, hub, leave };
}

describe('approval broker', () => {
  it('publishes the exact request and resolves with the answer', async () => {
    const { broker, events } = setUp();
    const answer = broker.approverFor(() => 'turn_1')(REQUEST, new AbortController().signal);
    expect(events).toEqual([
      {
        name: 'approval.request',
        payload: {
          approvalId: 'approval_1',
          kind: 'mcp',
          turnId: 'turn_1',
          conversationId: 'conv_1',
          toolName: 'files__write_note',
          service: 'files',
          tool: 'write_note',
          arguments: { path: 'a.md', text: 'hello' },
          readOnlyHint: false,
          destructiveHint: true,
          reason: null,
          taint: [],
        },
      },
    ]);
    expect(broker.answer('approval_1', 'conversation')).toBe(true);
    expect(await answer).toBe('conversation');
    expect(events.at(-1)).toEqual({
      name: 'approval.settled',
      payload: { approvalId: 'approval_1', answer: 'conversation', reason: 'answered' },
    });
    expect(broker.answer('approval_1', 'always')).toBe(false);
    expect(broker.answer('approval_unknown', 'once')).toBe(false);
    expect(broker.size).toBe(0);
  });

  it('passes on why a tainted turn asks: the kind, the reason and what tainted it', async () => {
    const { broker, events } = setUp();
    const answer = broker.ask(
      {
        ...REQUEST,
        kind: 'web-fetch',
        toolName: 'web_fetch',
        service: 'built-in',
        tool: 'web_fetch',
        arguments: { url: 'https://new.example/?q=secret' },
        reason: 'This page was found after reading untrusted content.',
        taint: [{ tool: 'web_fetch', detail: 'https://evil.example/' }],
      },
      'turn_1',
      new AbortController().signal,
    );
    expect(events[0]?.payload).toMatchObject({
      kind: 'web-fetch',
      arguments: { url: 'https://new.example/?q=secret' },
      reason: 'This page was found after reading untrusted content.',
      taint: [{ tool: 'web_fetch', detail: 'https://evil.example/' }],
    });
    expect(broker.answer('approval_1', 'deny')).toBe(true);
    expect(await answer).toBe('deny');
  });

  it('a canceled turn (aborted signal) denies, before and while waiting', async () => {
    const { broker, events } = setUp();
    const controller = new AbortController();
    const waiting = broker.ask(REQUEST, 'turn_1', controller.signal);
    controller.abort();
    expect(await waiting).toBe('deny');
    expect(events.at(-1)?.payload).toMatchObject({ answer: 'deny', reason: 'canceled' });
    expect(await broker.ask(REQUEST, 'turn_1', controller.signal)).toBe('deny');
    expect(broker.size).toBe(0);
  });

  it('an unanswered request times out as a denial', async () => {
    const { broker, events } = setUp(30);
    expect(await broker.ask(REQUEST, null, new AbortController().signal)).toBe('deny');
    expect(events.at(-1)?.payload).toMatchObject({ answer: 'deny', reason: 'timeout' });
  });

  it('the last window leaving denies what waits; with nobody connected it denies at once', async () => {
    const { broker, hub, leave } = setUp();
    const other = hub.subscribe(() => undefined);
    const waiting = broker.ask(REQUEST, 'turn_1', new AbortController().signal);
    other();
    expect(broker.size).toBe(1);
    leave();
    expect(await waiting).toBe('deny');
    expect(hub.size).toBe(0);
    expect(await broker.ask(REQUEST, 'turn_2', new AbortController().signal)).toBe('deny');
    expect(broker.size).toBe(0);
  });
});
