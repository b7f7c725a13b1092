/**
 * The desktop's sampling path: the broker publishes an MCP server's sampling request (server,
 * model, system prompt, messages, max tokens) for the windows and resolves with the user's
 * decision; denied when no window is connected, when the call ends or the last window leaves;
 * `sampling.answer` refuses a malformed payload with a clear error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SamplingBroker } from '../../../src/main/host/sampling-broker';
import type { HubEvent } from '../../../src/main/host/event-hub';
import { EventHub } from '../../../src/main/host/event-hub';
import type { McpSamplingPrompt } from '../../../src/main/core/ports';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture } from '../../support/host/host-fixture';

const PROMPT: McpSamplingPrompt = {
  service: 'everything',
  model: 'scripted-model',
  systemPrompt: 'You are a helpful test server.',
  messages: [{ role: 'user', text: 'Say hi' }],
  maxTokens: 100,
  temperature: 0.7,
};

function setUp(): { broker: SamplingBroker; events: HubEvent[]; leave: () => void } {
  const hub = new EventHub({ error: () => undefined });
  const events: HubEvent[] = [];
  const leave = hub.subscribe((event) => events.push(event));
  let next = 0;
  const ids = { next: (prefix: string) => `${prefix}_${(next += 1)}` };
  return { broker: new SamplingBroker({ events: hub, ids }), events, leave };
}

describe('sampling broker', () => {
  it('publishes the request and resolves with the decision', async () => {
    const { broker, events } = setUp();
    const ask = broker.askFor(
      () => 'turn_1',
      () => 'conv_1',
    );
    const decided = ask(PROMPT, new AbortController().signal);
    expect(events).toEqual([
      {
        name: 'sampling.request',
        payload: {
          samplingId: 'sampling_1',
          turnId: 'turn_1',
          conversationId: 'conv_1',
          service: 'everything',
          model: 'scripted-model',
          systemPrompt: 'You are a helpful test server.',
          messages: [{ role: 'user', text: 'Say hi' }],
          maxTokens: 100,
        },
      },
    ]);
    expect(broker.answer('sampling_1', 'always')).toBe(true);
    expect(await decided).toBe('always');
    expect(events[1]).toEqual({
      name: 'sampling.settled',
      payload: { samplingId: 'sampling_1', decision: 'always', reason: 'answered' },
    });
    expect(broker.answer('sampling_1', 'deny')).toBe(false);
  });

  it('denies when the call ends, when the last window leaves, and with no window', async () => {
    const { broker, leave } = setUp();
    const ask = broker.askFor(
      () => null,
      () => null,
    );
    const controller = new AbortController();
    const ended = ask(PROMPT, controller.signal);
    controller.abort();
    expect(await ended).toBe('deny');
    const left = ask(PROMPT, new AbortController().signal);
    leave();
    expect(await left).toBe('deny');
    expect(await ask(PROMPT, new AbortController().signal)).toBe('deny');
    expect(broker.size).toBe(0);
  });
});

describe('sampling.answer', () => {
  let fixture: HostFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('refuses garbage with the field named, and answers false for an unknown request', async () => {
    fixture = openHostFixture();
    const garbage: [unknown, string][] = [
      [{ samplingId: 'sampling_1', decision: 'maybe' }, 'decision'],
      [{ decision: 'once' }, 'samplingId'],
      [{ samplingId: 'sampling_1', decision: 'once', extra: 1 }, 'extra'],
    ];
    for (const [payload, field] of garbage) {
      expect(await fixture.call('sampling.answer', payload as never)).toMatchObject({
        ok: false,
        error: { code: 'invalid-input', message: expect.stringContaining(field) },
      });
    }
    expect(
      await fixture.value('sampling.answer', { samplingId: 'sampling_9', decision: 'deny' }),
    ).toEqual({ accepted: false });
  });
});
