/**
 * The turn loop over the wire: the real orchestrator through the real OpenAI adapter against the
 * scripted HTTP server. The core's behaviour is tested without sockets in test/unit/core (with the
 * in-memory ScriptedLlmClient); this suite keeps one check of each thing only the adapter and
 * HTTP do in a turn: the OpenAI request shape (tools as functions, stop sequences, role:tool and
 * tool_calls messages), `<think>` blocks split out of the content, provider errors, and a cancel
 * that really closes the HTTP request.
 */
import { describe, expect, it } from 'vitest';
import { PROMPT_PREAMBLE_HEAD } from '../../src/main/core/orchestrator/protocol-text';
import { echoTool } from '../support/fake-tools';
import { runScriptedTurnOverHttp, wireMessages } from '../support/http-turn-harness';
import { eventsOfType, promptCall, SYSTEM_PROMPT, textOf } from '../support/turn-harness';

describe('a turn over HTTP through the OpenAI adapter', () => {
  it('native mode: tools go out as functions, results come back as role:tool messages', async () => {
    const alpha = echoTool('alpha');
    const beta = echoTool('beta');
    const run = await runScriptedTurnOverHttp(
      [
        {
          content: 'Working.',
          toolCalls: [
            { id: 'c1', name: 'alpha', arguments: '{"value":"1"}', argumentChunks: 5 },
            { id: 'c2', name: 'beta', arguments: '{"value":"2"}' },
          ],
        },
        { content: 'All done.' },
      ],
      { toolMode: 'native', tools: [alpha, beta] },
    );
    const first = run.requests[0]!.body;
    expect(first.stream).toBe(true);
    expect(first.stop).toBeUndefined();
    expect(first.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'alpha',
          description: 'Test tool alpha.',
          parameters: { type: 'object', properties: { value: { type: 'string' } } },
        },
      },
      {
        type: 'function',
        function: {
          name: 'beta',
          description: 'Test tool beta.',
          parameters: { type: 'object', properties: { value: { type: 'string' } } },
        },
      },
    ]);
    expect(alpha.calls).toEqual([{ value: '1' }]);
    expect(beta.calls).toEqual([{ value: '2' }]);

    const second = wireMessages(run.requests[1]);
    expect(second.at(-3)).toMatchObject({
      role: 'assistant',
      content: 'Working.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'alpha', arguments: '{"value":"1"}' } },
        { id: 'c2', type: 'function', function: { name: 'beta', arguments: '{"value":"2"}' } },
      ],
    });
    expect(second.at(-2)).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'alpha got {"value":"1"}',
    });
    expect(second.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'c2',
      content: 'beta got {"value":"2"}',
    });
    expect(run.end).toMatchObject({
      stopReason: 'completed',
      answer: 'Working.\n\nAll done.',
      toolCalls: { alpha: 1, beta: 1 },
      providerRounds: 2,
    });
    expect(run.server.abortedRequests()).toBe(0);
  });

  it('prompt mode: the preamble and the stop sequence go out, the server cuts the call there', async () => {
    const lookup = echoTool('lookup', { output: () => ({ content: 'Oslo is in Norway.' }) });
    const run = await runScriptedTurnOverHttp(
      [promptCall('lookup', { value: 'Oslo' }, 'Checking. '), { content: 'Oslo is in Norway.' }],
      { toolMode: 'prompt', tools: [lookup] },
    );
    expect(lookup.calls).toEqual([{ value: 'Oslo' }]);
    const first = run.requests[0]!.body;
    expect(first.stop).toEqual(['</tool_call>']);
    expect(first.tools).toBeUndefined();
    expect(wireMessages(run.requests[0])[0]).toEqual({
      role: 'system',
      content: `${SYSTEM_PROMPT}\n\n${PROMPT_PREAMBLE_HEAD}### lookup\nTest tool lookup.\nInput schema: {"type":"object","properties":{"value":{"type":"string"}}}`,
    });
    const second = wireMessages(run.requests[1]);
    expect(second.at(-2)).toEqual({
      role: 'assistant',
      content: 'Checking. <tool_call>{"name":"lookup","arguments":{"value":"Oslo"}}</tool_call>',
    });
    expect(second.at(-1)).toEqual({
      role: 'user',
      content:
        '<tool_result name="lookup">\nOslo is in Norway.\n</tool_result>\nContinue from here.',
    });
    expect(textOf(run.events)).toBe('Checking. Oslo is in Norway.');
    expect(run.end.stopReason).toBe('completed');
  });

  it('reasoning fields and <think> blocks become reasoning-delta events, never the answer', async () => {
    const run = await runScriptedTurnOverHttp(
      [
        {
          reasoning: 'Let me think about it.',
          content: '<think>hidden too</think>The answer is 4.',
        },
      ],
      { toolMode: 'native', tools: [] },
    );
    const reasoning = eventsOfType(run.events, 'reasoning-delta')
      .map((event) => event.text)
      .join('');
    expect(reasoning).toBe('Let me think about it.hidden too');
    expect(run.end.answer).toBe('The answer is 4.');
    expect(run.requests[0]!.body.tools).toBeUndefined();
  });

  it('a provider error ends the turn with a public error and no stack', async () => {
    const run = await runScriptedTurnOverHttp(
      [{ status: 401, errorMessage: 'Incorrect API key provided: sk-abc…' }],
      { toolMode: 'native', tools: [] },
    );
    expect(run.end.stopReason).toBe('error');
    expect(run.end.error?.code).toBe('auth');
    expect(run.end.error?.message).not.toMatch(/\n\s+at /);
    expect(run.end.error?.message).not.toContain('sk-abc');
  });

  it('aborting mid-stream closes the HTTP request and keeps the text so far', async () => {
    const controller = new AbortController();
    let textDeltas = 0;
    // The server hangs after three pieces of text: only the abort can end this turn.
    const run = await runScriptedTurnOverHttp(
      (_request, index) => ({
        content: index === 0 ? 'The first part of a long answer' : 'never',
        chunkSize: 5,
        hangAfterChunks: 4,
      }),
      {
        toolMode: 'native',
        tools: [],
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === 'text-delta' && ++textDeltas === 3) controller.abort();
        },
      },
      // The disconnect reaches the server a moment after the turn ends: wait for it.
      { abortedRequests: 1 },
    );
    expect(run.end).toMatchObject({
      type: 'turn-end',
      stopReason: 'canceled',
      answer: 'The first part',
    });
    expect(run.requests).toHaveLength(1);
    expect(run.server.abortedRequests()).toBe(1);
  });
});
