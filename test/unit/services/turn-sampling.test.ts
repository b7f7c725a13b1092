/**
 * The turn's sampler and the sampling router without a server: nobody running a call (or a
 * non-interactive caller) is refused; a spent budget refuses before asking; at most
 * MAX_SAMPLING_PER_TURN requests; "deny" mode (no ask) refuses even an always-allowed service;
 * the model's request carries no tools; usage is reported; a failing model is a refusal.
 */
import { describe, expect, it } from 'vitest';
import type { LlmClient, LlmRequest, McpSampling } from '../../../src/main/core/ports';
import { McpSamplingRouter } from '../../../src/main/services/mcp/mcp-sampling-router';
import { createSampler, MAX_SAMPLING_PER_TURN } from '../../../src/main/services/turn-sampling';

const REQUEST: McpSampling = {
  serviceId: 'svc_1',
  service: 'everything',
  systemPrompt: 'Be brief.',
  messages: [{ role: 'user', text: 'Hi' }],
  maxTokens: 20,
};
const never = new AbortController().signal;

function fakeLlm(requests: LlmRequest[], fail = false): LlmClient {
  return {
    async *stream(request) {
      requests.push(request);
      if (fail) throw new Error('down');
      await Promise.resolve();
      yield { type: 'text', text: 'Hello' };
      yield { type: 'finish', reason: 'length' };
      yield { type: 'usage', inputTokens: 7, outputTokens: 3 };
    },
  };
}

describe('turn sampler', () => {
  it('asks, answers without tools, reports usage; a spent budget refuses before asking', async () => {
    const requests: LlmRequest[] = [];
    const usage: unknown[] = [];
    let spent = false;
    let asks = 0;
    const sample = createSampler({
      llm: fakeLlm(requests),
      model: 'm',
      ask: () => {
        asks += 1;
        return Promise.resolve('once');
      },
      alwaysAllow: undefined,
      refusal: () => (spent ? 'budget spent' : null),
      onUsage: (counted) => usage.push(counted),
    });
    expect(await sample(REQUEST, never)).toEqual({
      action: 'accept',
      text: 'Hello',
      model: 'm',
      stopReason: 'maxTokens',
    });
    expect(requests[0]).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      maxOutputTokens: 20,
    });
    expect(usage).toEqual([{ inputTokens: 7, outputTokens: 3 }]);
    spent = true;
    expect(await sample(REQUEST, never)).toEqual({ action: 'decline', reason: 'budget spent' });
    expect(asks).toBe(1);
  });

  it(`answers at most ${MAX_SAMPLING_PER_TURN}; no ask refuses even an always-allowed service`, async () => {
    const sample = createSampler({
      llm: fakeLlm([]),
      model: 'm',
      ask: () => Promise.resolve('once'),
      alwaysAllow: undefined,
    });
    for (let index = 0; index < MAX_SAMPLING_PER_TURN; index += 1)
      expect((await sample(REQUEST, never)).action).toBe('accept');
    expect(await sample(REQUEST, never)).toMatchObject({ action: 'decline' });
    const off = createSampler({
      llm: fakeLlm([]),
      model: 'm',
      ask: undefined,
      alwaysAllow: { has: () => true, add: () => undefined },
    });
    expect(await off(REQUEST, never)).toMatchObject({ action: 'decline' });
    const failing = createSampler({
      llm: fakeLlm([], true),
      model: 'm',
      ask: () => Promise.resolve('once'),
      alwaysAllow: undefined,
    });
    expect(await failing(REQUEST, never)).toEqual({
      action: 'decline',
      reason: 'the model failed',
    });
  });
});

describe('sampling router', () => {
  it('refuses with nobody running a call or a non-interactive caller; routes to the latest', async () => {
    const router = new McpSamplingRouter();
    const service = { id: 'svc_1', name: 'everything' };
    const plain = {
      systemPrompt: REQUEST.systemPrompt,
      messages: REQUEST.messages,
      maxTokens: REQUEST.maxTokens,
    };
    expect(await router.route(service, plain, never)).toMatchObject({ action: 'decline' });
    const leaveQuiet = router.enter('svc_1', undefined);
    expect(await router.route(service, plain, never)).toMatchObject({ action: 'decline' });
    const seen: McpSampling[] = [];
    const leave = router.enter('svc_1', (request) => {
      seen.push(request);
      return Promise.resolve({ action: 'accept', text: 'ok', model: 'm', stopReason: 'endTurn' });
    });
    expect(await router.route(service, plain, never)).toMatchObject({ action: 'accept' });
    expect(seen[0]).toMatchObject({ serviceId: 'svc_1', service: 'everything' });
    leave();
    leaveQuiet();
  });
});
