import { describe, expect, it } from 'vitest';
import {
  limitOverridesFromEnv,
  resolveTurnLimits,
} from '../../../src/main/core/orchestrator/budgets';
import {
  FINAL_ANSWER_BUDGET_INSTRUCTION,
  FINAL_ANSWER_NO_PROGRESS_INSTRUCTION,
  TOOL_OUTPUT_BUDGET_EXHAUSTED,
  TOOL_OUTPUT_SKIPPED,
} from '../../../src/main/core/orchestrator/protocol-text';
import type { ScriptedResponse } from '../../support/llm-script';
import { echoTool } from '../../support/fake-tools';
import {
  eventsOfType,
  offeredTools,
  promptCall,
  requestMessages,
  runScriptedTurn,
} from '../../support/turn-harness';

describe('limits', () => {
  it('per-tool caps, totals by mode, rounds, and the environment overrides', () => {
    expect(resolveTurnLimits('normal')).toEqual({
      perTool: {
        aivory_web_search: 16,
        web_fetch: 12,
        fetch_image: 16,
        image_generate: 8,
        python_execute: 16,
      },
      totalCalls: 48,
      providerRounds: 20,
    });
    expect(resolveTurnLimits('fast').totalCalls).toBe(12);
    expect(resolveTurnLimits('deep').totalCalls).toBe(150);
    expect(resolveTurnLimits('deep').providerRounds).toBeGreaterThanOrEqual(151);
    const overrides = limitOverridesFromEnv({
      AIVORY_LLM_MAX_TOOL_CALLS_PER_TURN: '7',
      AIVORY_LLM_MAX_PROVIDER_ROUNDS: '5',
    });
    expect(resolveTurnLimits('normal', overrides)).toMatchObject({
      totalCalls: 7,
      providerRounds: 5,
    });
    expect(resolveTurnLimits('fast', overrides).totalCalls).toBe(12);
    // Unset or empty is the default; anything but a positive whole number is an error in words.
    expect(limitOverridesFromEnv({ AIVORY_LLM_MAX_TOOL_CALLS_PER_TURN: '' })).toEqual({});
    for (const [name, value] of [
      ['AIVORY_LLM_MAX_TOOL_CALLS_PER_TURN', 'lots'],
      ['AIVORY_LLM_MAX_TOOL_CALLS_PER_TURN', '-3'],
      ['AIVORY_LLM_MAX_PROVIDER_ROUNDS', '0'],
      ['AIVORY_LLM_MAX_PROVIDER_ROUNDS', '99999999999999999999'],
    ] as const) {
      expect(() => limitOverridesFromEnv({ [name]: value }), value).toThrow(
        `${name}="${value}" is not a positive whole number; set it to 1 or more, or unset it for the default.`,
      );
    }
    expect(() =>
      limitOverridesFromEnv({ AIVORY_LLM_MAX_PROVIDER_ROUNDS: `1\u202e${'9'.repeat(200)}` }),
    ).toThrow(/^AIVORY_LLM_MAX_PROVIDER_ROUNDS="19{79}…" \(202 characters\) is not/);
  });
});

/** A native response calling `name` once per entry of `values`. */
function nativeCalls(name: string, values: string[]): ScriptedResponse {
  return {
    toolCalls: values.map((value, index) => ({
      id: `${name}-${value}-${index}`,
      name,
      arguments: JSON.stringify({ value }),
    })),
  };
}

describe('budgets', () => {
  it('a call past its tool cap gets the budget text; other tools stay usable and the cap drops the tool from the next round', async () => {
    const fetchTool = echoTool('web_fetch');
    const memory = echoTool('save_memory');
    const thirteen = Array.from({ length: 13 }, (_, index) => String(index));
    const run = await runScriptedTurn(
      [
        {
          ...nativeCalls('web_fetch', thirteen),
          toolCalls: [
            ...nativeCalls('web_fetch', thirteen).toolCalls!,
            { id: 'm', name: 'save_memory', arguments: '{"value":"x"}' },
          ],
        },
        { content: 'Answer.' },
      ],
      { toolMode: 'native', tools: [fetchTool, memory] },
    );
    expect(fetchTool.calls).toHaveLength(12);
    expect(memory.calls).toHaveLength(1);
    const results = eventsOfType(run.events, 'tool-result');
    expect(results[12]).toMatchObject({
      name: 'web_fetch',
      status: 'budget',
      output: TOOL_OUTPUT_BUDGET_EXHAUSTED,
    });
    expect(results[13]).toMatchObject({ name: 'save_memory', status: 'ok' });
    expect(offeredTools(run.requests[1])).toEqual(['save_memory']);
    expect(run.end.stopReason).toBe('completed');
    expect(run.end.toolCalls).toEqual({ web_fetch: 12, save_memory: 1 });
  });

  it('when the total runs out, one last request goes out without tools and with the instruction', async () => {
    const lookup = echoTool('lookup');
    const run = await runScriptedTurn(
      [
        nativeCalls('lookup', ['a', 'b']),
        nativeCalls('lookup', ['c', 'd']),
        { content: 'Final answer.' },
        { content: 'never' },
      ],
      { toolMode: 'native', tools: [lookup], overrides: { maxToolCallsPerTurn: 3 } },
    );
    expect(lookup.calls).toEqual([{ value: 'a' }, { value: 'b' }, { value: 'c' }]);
    expect(run.requests).toHaveLength(3);
    const last = run.requests[2]!;
    expect(last.tools).toBeUndefined();
    expect(requestMessages(last).at(-1)).toEqual({
      role: 'user',
      content: FINAL_ANSWER_BUDGET_INSTRUCTION,
    });
    expect(eventsOfType(run.events, 'tool-result').at(-1)).toMatchObject({
      status: 'budget',
      output: TOOL_OUTPUT_BUDGET_EXHAUSTED,
    });
    expect(eventsOfType(run.events, 'round-start').map((event) => event.finalAnswer)).toEqual([
      false,
      false,
      true,
    ]);
    expect(run.end).toMatchObject({ stopReason: 'tool_budget_exceeded', answer: 'Final answer.' });
  });

  it('the provider-round limit ends a prompt-mode loop with a tool-less final round', async () => {
    const lookup = echoTool('lookup');
    let counter = 0;
    const run = await runScriptedTurn(
      (request) =>
        request.stop
          ? promptCall('lookup', { value: String(counter++) })
          : { content: 'Best effort.' },
      { toolMode: 'prompt', tools: [lookup], overrides: { maxProviderRounds: 4 } },
    );
    expect(run.requests).toHaveLength(4);
    expect(lookup.calls).toHaveLength(3);
    const last = run.requests[3]!;
    expect(last.stop).toBeUndefined();
    expect(String(requestMessages(last)[0]?.content)).not.toContain('## Available tools');
    expect(requestMessages(last).at(-1)?.content).toBe(FINAL_ANSWER_BUDGET_INSTRUCTION);
    expect(run.end).toMatchObject({
      stopReason: 'tool_budget_exceeded',
      providerRounds: 4,
      answer: 'Best effort.',
    });
  });

  it('a model that still calls a tool in the final round gets no new loop, and the markup stays hidden', async () => {
    const lookup = echoTool('lookup');
    const run = await runScriptedTurn(
      [
        promptCall('lookup', { value: '1' }),
        promptCall('lookup', { value: '2' }, 'Partial answer. '),
      ],
      { toolMode: 'prompt', tools: [lookup], overrides: { maxToolCallsPerTurn: 1 } },
    );
    expect(run.requests).toHaveLength(2);
    expect(lookup.calls).toHaveLength(1);
    expect(run.end).toMatchObject({
      stopReason: 'tool_budget_exceeded',
      answer: 'Partial answer.',
    });
  });
});

describe('duplicates and no progress', () => {
  it('an identical call (any key order) is skipped with the seed text and not executed', async () => {
    const lookup = echoTool('lookup');
    const run = await runScriptedTurn(
      [
        {
          toolCalls: [
            { id: 'a', name: 'lookup', arguments: '{"value":"x","extra":{"b":1,"a":2}}' },
          ],
        },
        {
          toolCalls: [
            { id: 'b', name: 'lookup', arguments: '{"extra":{"a":2,"b":1},"value":"x"}' },
          ],
        },
        { content: 'ok' },
      ],
      { toolMode: 'native', tools: [lookup] },
    );
    expect(lookup.calls).toHaveLength(1);
    expect(eventsOfType(run.events, 'tool-result')[1]).toMatchObject({
      status: 'skipped',
      output: TOOL_OUTPUT_SKIPPED,
    });
    expect(requestMessages(run.requests[2]).at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'b',
      content: TOOL_OUTPUT_SKIPPED,
    });
    expect(run.end.stopReason).toBe('completed');
    expect(run.end.toolCalls).toEqual({ lookup: 1 });
  });

  it('a failed call repeated is skipped too (a failed path)', async () => {
    const failing = echoTool('lookup', { output: () => ({ content: 'not found', isError: true }) });
    const run = await runScriptedTurn(
      [
        promptCall('lookup', { value: 'x' }),
        promptCall('lookup', { value: 'x' }),
        { content: 'ok' },
      ],
      { toolMode: 'prompt', tools: [failing] },
    );
    expect(failing.calls).toHaveLength(1);
    expect(eventsOfType(run.events, 'tool-result').map((event) => event.status)).toEqual([
      'error',
      'skipped',
    ]);
  });

  it('rounds of only skipped calls end the turn with the no-progress instruction', async () => {
    const lookup = echoTool('lookup');
    const run = await runScriptedTurn(
      [
        promptCall('lookup', { value: 'x' }),
        promptCall('lookup', { value: 'x' }),
        promptCall('lookup', { value: 'x' }),
        { content: 'Here is my answer.' },
        { content: 'never' },
      ],
      { toolMode: 'prompt', tools: [lookup] },
    );
    expect(lookup.calls).toHaveLength(1);
    expect(run.requests).toHaveLength(4);
    expect(requestMessages(run.requests[3]).at(-1)?.content).toBe(
      FINAL_ANSWER_NO_PROGRESS_INSTRUCTION,
    );
    expect(run.requests[3]!.stop).toBeUndefined();
    expect(run.end).toMatchObject({ stopReason: 'tool_no_progress', answer: 'Here is my answer.' });
  });
});
