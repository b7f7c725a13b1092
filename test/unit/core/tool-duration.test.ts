/**
 * A tool call's duration is the tool's own time: the minutes its approval prompt waited for the
 * user are not counted (a fake clock that the approver and the tool advance).
 */
import { describe, expect, it } from 'vitest';
import type { Approver, Tool } from '../../../src/main/core/ports';
import { echoTool } from '../../support/fake-tools';
import { eventsOfType, runScriptedTurn } from '../../support/turn-harness';

describe('tool call duration', () => {
  it('leaves out the time an approval waited, keeps the time the tool worked', async () => {
    let now = 1_000;
    const clock = { now: () => now };
    const asking: Tool = {
      ...echoTool('asking'),
      execute: async (_args, context) => {
        now += 40; // work before asking
        const answer = await context.approve?.(
          {
            kind: 'mcp',
            toolName: 'asking',
            service: 's',
            tool: 'asking',
            arguments: {},
            conversationId: null,
            readOnlyHint: false,
            destructiveHint: false,
          },
          context.signal,
        );
        now += 60; // work after the answer
        return { content: `answer ${String(answer)}` };
      },
    };
    const approve: Approver = () => {
      now += 5 * 60_000; // the user took five minutes
      return Promise.resolve('once');
    };
    const run = await runScriptedTurn(
      [{ toolCalls: [{ id: 'c1', name: 'asking', arguments: '{}' }] }, { content: 'Done.' }],
      { toolMode: 'native', tools: [asking], approve, clock },
    );
    expect(eventsOfType(run.events, 'tool-result')).toMatchObject([
      { toolCallId: 'c1', status: 'ok', output: 'answer once', durationMs: 100 },
    ]);
  });
});
