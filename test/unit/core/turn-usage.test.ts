/** Token usage: summed over the turn's requests into `turn-end.usage`; absent when never reported. */
import { describe, expect, it } from 'vitest';
import { echoTool } from '../../support/fake-tools';
import { runScriptedTurn } from '../../support/turn-harness';

describe('turn usage', () => {
  it('adds up what each request reported', async () => {
    const run = await runScriptedTurn(
      [
        {
          toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"value":"a"}' }],
          usage: { prompt_tokens: 120, completion_tokens: 15 },
        },
        { content: 'Done.', usage: { prompt_tokens: 150, completion_tokens: 4 } },
      ],
      { toolMode: 'native', tools: [echoTool('echo')] },
    );
    expect(run.end.usage).toEqual({ inputTokens: 270, outputTokens: 19 });
  });

  it('has no usage when no request reported any', async () => {
    const run = await runScriptedTurn([{ content: 'Hi.' }], { toolMode: 'native', tools: [] });
    expect(run.end).not.toHaveProperty('usage');
  });
});
