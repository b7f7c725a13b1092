import { describe, expect, it } from 'vitest';
import { echoTool } from '../../support/fake-tools';
import { eventsOfType, requestMessages, runScriptedTurn, textOf } from '../../support/turn-harness';

describe('native mode', () => {
  it('offers tools as functions, runs parallel calls in order, and returns role:tool messages', async () => {
    const alpha = echoTool('alpha');
    const beta = echoTool('beta');
    const run = await runScriptedTurn(
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
    const first = run.requests[0]!;
    expect(first.stop).toBeUndefined();
    expect(first.tools).toEqual([
      {
        name: 'alpha',
        description: 'Test tool alpha.',
        inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
      },
      {
        name: 'beta',
        description: 'Test tool beta.',
        inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
      },
    ]);
    expect(alpha.calls).toEqual([{ value: '1' }]);
    expect(beta.calls).toEqual([{ value: '2' }]);

    const second = requestMessages(run.requests[1]);
    expect(second.at(-3)).toEqual({
      role: 'assistant',
      content: 'Working.',
      toolCalls: [
        { id: 'c1', name: 'alpha', argumentsJson: '{"value":"1"}' },
        { id: 'c2', name: 'beta', argumentsJson: '{"value":"2"}' },
      ],
    });
    expect(second.at(-2)).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      content: 'alpha got {"value":"1"}',
    });
    expect(second.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'c2',
      content: 'beta got {"value":"2"}',
    });

    const order = run.events
      .map((event) => event.type)
      .filter((type) => type.startsWith('tool') || type === 'budget-update');
    expect(order).toEqual([
      'tool-call-start',
      'tool-call-start',
      'tool-call-end',
      'tool-result',
      'budget-update',
      'tool-call-end',
      'tool-result',
      'budget-update',
    ]);
    const budgets = eventsOfType(run.events, 'budget-update');
    expect(budgets.map((event) => event.total.used)).toEqual([1, 2]);
    expect(budgets[1]?.perTool).toEqual({
      alpha: { used: 1, limit: null },
      beta: { used: 1, limit: null },
    });
    expect(run.end).toMatchObject({
      stopReason: 'completed',
      toolCalls: { alpha: 1, beta: 1 },
      providerRounds: 2,
    });
  });

  it('recovers a <tool_call> printed as text instead of showing it', async () => {
    const alpha = echoTool('alpha');
    const run = await runScriptedTurn(
      [
        { content: 'Sure.<tool_call>{"name":"alpha","arguments":{"value":"t"}}</tool_call>' },
        { content: 'Done.' },
      ],
      { toolMode: 'native', tools: [alpha] },
    );
    expect(alpha.calls).toEqual([{ value: 't' }]);
    expect(textOf(run.events)).toBe('Sure.Done.');
    const second = requestMessages(run.requests[1]);
    expect(second.at(-2)).toMatchObject({
      role: 'assistant',
      toolCalls: [{ name: 'alpha', argumentsJson: '{"value":"t"}' }],
    });
    expect(second.at(-1)).toMatchObject({ role: 'tool', content: 'alpha got {"value":"t"}' });
  });

  it('recovers Mistral [TOOL_CALLS] text', async () => {
    const alpha = echoTool('alpha');
    const run = await runScriptedTurn(
      [{ content: '[TOOL_CALLS]alpha[ARGS]{"value":"m"}' }, { content: 'Done.' }],
      { toolMode: 'native', tools: [alpha] },
    );
    expect(alpha.calls).toEqual([{ value: 'm' }]);
    expect(textOf(run.events)).toBe('Done.');
  });

  it('bad native argument JSON becomes a tool error the model can fix', async () => {
    const alpha = echoTool('alpha');
    const run = await runScriptedTurn(
      [{ toolCalls: [{ id: 'c1', name: 'alpha', arguments: '{"value":' }] }, { content: 'ok' }],
      { toolMode: 'native', tools: [alpha] },
    );
    expect(alpha.calls).toEqual([]);
    const toolMessage = requestMessages(run.requests[1]).at(-1);
    expect(toolMessage?.role).toBe('tool');
    expect(String(toolMessage?.content)).toMatch(/^Invalid tool arguments: /);
  });

  it("a tool's invalid-arguments message reaches the model bounded; a check that throws does not stop the call", async () => {
    const wordy = { ...echoTool('wordy'), validate: () => `bad ${'x'.repeat(5_000)}` };
    const broken = echoTool('broken');
    broken.validate = () => {
      throw new Error('checker bug');
    };
    const run = await runScriptedTurn(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'wordy', arguments: '{"value":"a"}' },
            { id: 'c2', name: 'broken', arguments: '{"value":"b"}' },
          ],
        },
        { content: 'ok' },
      ],
      { toolMode: 'native', tools: [wordy, broken] },
    );
    const messages = requestMessages(run.requests[1]);
    const wordyResult = String(messages.at(-2)?.content);
    expect(wordyResult).toMatch(/^Invalid tool arguments: bad x+…$/);
    expect(wordyResult.length).toBeLessThanOrEqual('Invalid tool arguments: '.length + 1_000);
    expect(broken.calls).toEqual([{ value: 'b' }]);
    expect(messages.at(-1)).toMatchObject({ role: 'tool', content: 'broken got {"value":"b"}' });
  });

  // A `<think>` block inside the content is the adapter's to split (see
  // test/integration/run-turn-over-http.test.ts); the port only ever carries reasoning chunks.
  it('reasoning goes to reasoning-delta events, never into the answer', async () => {
    const run = await runScriptedTurn(
      [{ reasoning: 'Let me think about it.', content: 'The answer is 4.' }],
      { toolMode: 'native', tools: [] },
    );
    const reasoning = eventsOfType(run.events, 'reasoning-delta')
      .map((event) => event.text)
      .join('');
    expect(reasoning).toBe('Let me think about it.');
    expect(textOf(run.events)).toBe('The answer is 4.');
    expect(run.end.answer).toBe('The answer is 4.');
    expect(run.requests[0]!.tools).toBeUndefined();
  });
});
