/**
 * The desktop's elicitation path: the broker publishes an MCP server's question for the windows,
 * resolves with the user's answer (an accepted form checked against its fields first; settling
 * names only the action, never the values), declines when no window is connected and cancels
 * when the call ends; `elicitation.answer` refuses a malformed payload with a clear error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ElicitationBroker } from '../../../src/main/host/elicitation-broker';
import type { HubEvent } from '../../../src/main/host/event-hub';
import { EventHub } from '../../../src/main/host/event-hub';
import type { McpElicitation } from '../../../src/main/core/ports';
import { ElicitationCompleted } from '../../../src/shared/mcp-elicitation';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture } from '../../support/host/host-fixture';

const FORM: McpElicitation = {
  service: 'everything',
  mode: 'form',
  message: 'Who are you?',
  fields: [
    { name: 'name', title: 'Name', description: '', required: true, type: 'string' },
    {
      name: 'age',
      title: 'Age',
      description: '',
      required: false,
      type: 'integer',
      maximum: 150,
      default: 30,
    },
  ],
};

function setUp(): { broker: ElicitationBroker; events: HubEvent[]; leave: () => void } {
  const hub = new EventHub({ error: () => undefined });
  const events: HubEvent[] = [];
  const leave = hub.subscribe((event) => events.push(event));
  let next = 0;
  const ids = { next: (prefix: string) => `${prefix}_${(next += 1)}` };
  return { broker: new ElicitationBroker({ events: hub, ids }), events, leave };
}

describe('elicitation broker', () => {
  it('publishes the question; an accepted form is checked, defaults applied', async () => {
    const { broker, events } = setUp();
    const elicit = broker.elicitorFor(
      () => 'turn_1',
      () => 'conv_1',
    );
    const answer = elicit(FORM, new AbortController().signal);
    expect(events).toEqual([
      {
        name: 'elicitation.request',
        payload: {
          elicitationId: 'elicitation_1',
          turnId: 'turn_1',
          conversationId: 'conv_1',
          service: 'everything',
          mode: 'form',
          message: 'Who are you?',
          fields: FORM.fields,
          url: null,
        },
      },
    ]);
    expect(() =>
      broker.answer('elicitation_1', { action: 'accept', content: { name: 'Ada', age: 200 } }),
    ).toThrow('The answer to "age" does not fit the form: at most 150.');
    expect(broker.size).toBe(1);
    expect(broker.answer('elicitation_1', { action: 'accept', content: { name: 'Ada' } })).toBe(
      true,
    );
    expect(await answer).toEqual({ action: 'accept', content: { name: 'Ada', age: 30 } });
    // What every window hears: the action, never the values.
    expect(events[1]).toEqual({
      name: 'elicitation.settled',
      payload: { elicitationId: 'elicitation_1', action: 'accept', reason: 'answered' },
    });
    expect(broker.answer('elicitation_1', { action: 'decline' })).toBe(false);
  });

  it('cancels when the call ends; declines with no window; cancels when the last leaves', async () => {
    const { broker, leave } = setUp();
    const elicit = broker.elicitorFor(
      () => null,
      () => null,
    );
    const controller = new AbortController();
    const ended = elicit(FORM, controller.signal);
    controller.abort();
    expect(await ended).toEqual({ action: 'cancel' });
    const left = elicit(FORM, new AbortController().signal);
    leave();
    expect(await left).toEqual({ action: 'cancel' });
    expect(await elicit(FORM, new AbortController().signal)).toEqual({ action: 'decline' });
  });

  it("a -32042 page is marked retry; the server's completion settles it as completed", async () => {
    const { broker, events } = setUp();
    const elicit = broker.elicitorFor(
      () => 'turn_1',
      () => 'conv_1',
    );
    const controller = new AbortController();
    const page: McpElicitation = {
      service: 'accounts',
      mode: 'url',
      message: 'Link it',
      fields: [],
      url: 'https://auth.example.com/link',
      elicitationId: 'server-id-1',
      retry: true,
    };
    const answer = elicit(page, controller.signal);
    expect(events[0]).toMatchObject({
      name: 'elicitation.request',
      payload: { mode: 'url', url: 'https://auth.example.com/link', retry: true },
    });
    controller.abort(new ElicitationCompleted());
    expect(await answer).toEqual({ action: 'accept', content: {} });
    expect(events[1]).toEqual({
      name: 'elicitation.settled',
      payload: { elicitationId: 'elicitation_1', action: 'accept', reason: 'completed' },
    });
    expect(broker.size).toBe(0);
  });
});

describe('elicitation.answer', () => {
  let fixture: HostFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('refuses garbage with the field named, and answers false for an unknown request', async () => {
    fixture = openHostFixture();
    const garbage: [unknown, string][] = [
      [{ elicitationId: 'elicitation_1', answer: { action: 'maybe' } }, 'action'],
      [
        { elicitationId: 'elicitation_1', answer: { action: 'accept', content: { a: {} } } },
        'content',
      ],
      [{ elicitationId: 'elicitation_1', answer: { action: 'decline', content: {} } }, 'content'],
      [{ answer: { action: 'cancel' } }, 'elicitationId'],
    ];
    for (const [payload, field] of garbage) {
      expect(await fixture.call('elicitation.answer', payload as never)).toMatchObject({
        ok: false,
        error: { code: 'invalid-input', message: expect.stringContaining(field) },
      });
    }
    expect(
      await fixture.value('elicitation.answer', {
        elicitationId: 'elicitation_9',
        answer: { action: 'decline' },
      }),
    ).toEqual({ accepted: false });
  });
});
