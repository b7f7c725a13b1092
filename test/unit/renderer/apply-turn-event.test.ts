import { describe, expect, it } from 'vitest';
import type { MessagePart } from '../../../src/shared/dto';
import { applyEventToParts } from '../../../src/shared/message-parts';
import type { TurnEvent } from '../../../src/shared/turn-events';
import type { LiveTurn } from '../../../src/renderer/state/live-turn';
import { applyTurnEvent, emptyTurn } from '../../../src/renderer/state/live-turn';
import { displayItems } from '../../../src/renderer/state/trace-items';
import { echoTool, throwingTool } from '../../support/fake-tools';
import { runScriptedTurn } from '../../support/turn-harness';

const call = (name: string, args: object): string =>
  `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;

/** Real events: the orchestrator playing a script on the in-memory scripted LLM client. */
async function promptModeEvents(): Promise<TurnEvent[]> {
  const run = await runScriptedTurn(
    [
      { content: `Looking.${call('lookup', { value: 'a' })}` },
      { content: call('broken', {}) },
      { content: 'All done.' },
    ],
    { toolMode: 'prompt', tools: [echoTool('lookup'), throwingTool('broken', 'secret detail')] },
  );
  return run.events;
}

function fold(events: readonly TurnEvent[]): { turn: LiveTurn; snapshots: LiveTurn[] } {
  const snapshots: LiveTurn[] = [];
  let turn = emptyTurn(events[0]?.turnId ?? 'turn');
  for (const event of events) {
    turn = applyTurnEvent(turn, event);
    snapshots.push(turn);
  }
  return { turn, snapshots };
}

describe('renderer: applyTurnEvent over real orchestrator events', () => {
  it('builds the same parts the chat service persists, and ends with the budget and stop reason', async () => {
    const events = await promptModeEvents();
    const { turn } = fold(events);
    const persisted = events.reduce<MessagePart[]>(applyEventToParts, []);
    expect(turn.parts).toEqual(persisted);
    expect(turn.end).toMatchObject({ type: 'turn-end', stopReason: 'completed' });
    expect(turn.running).toEqual({});
    expect(turn.budget).toEqual(events.filter((event) => event.type === 'budget-update').at(-1));
    expect(turn.conversationId).toBe(
      events.find((event) => event.type === 'turn-start') ? turn.conversationId : null,
    );

    const items = displayItems(turn.parts, false);
    expect(items.map((item) => item.kind)).toEqual(['text', 'tool', 'tool', 'text']);
    const traces = items.flatMap((item) => (item.kind === 'tool' ? [item.trace] : []));
    expect(traces.map((trace) => [trace.name, trace.status])).toEqual([
      ['lookup', 'ok'],
      ['broken', 'error'],
    ]);
    expect(traces[1]?.output).not.toContain('secret detail');
  });

  it('shows a call as running between its announcement and its result', async () => {
    const events = await promptModeEvents();
    const { snapshots } = fold(events);
    const resultIndex = events.findIndex((event) => event.type === 'tool-result');
    const beforeResult = snapshots[resultIndex - 1];
    expect(beforeResult).toBeDefined();
    if (!beforeResult) return;
    expect(Object.values(beforeResult.running)).toContain('lookup');
    const trace = displayItems(beforeResult.parts, true).find((item) => item.kind === 'tool');
    expect(trace).toMatchObject({ trace: { name: 'lookup', status: 'running', output: null } });
  });

  it('events of a turn not seen before start a fresh turn; the input is never modified', () => {
    const turn = emptyTurn('turn_1');
    const next = applyTurnEvent(turn, { type: 'text-delta', turnId: 'turn_1', text: 'Hi' });
    expect(turn.parts).toEqual([]);
    expect(next.parts).toEqual([{ kind: 'text', text: 'Hi' }]);
  });
});

describe('renderer: displayItems', () => {
  it('a budget refusal is a skipped card marked over budget; an unanswered call of an ended turn is an error', () => {
    const items = displayItems(
      [
        { kind: 'tool-call', toolCallId: 'c1', name: 'web_fetch', arguments: { url: 'https://a' } },
        {
          kind: 'tool-result',
          toolCallId: 'c1',
          name: 'web_fetch',
          status: 'budget',
          output: 'over',
          durationMs: 0,
        },
        { kind: 'tool-call', toolCallId: 'c2', name: 'web_fetch', arguments: { url: 'https://b' } },
        {
          kind: 'artifact',
          artifact: { name: 'chart.png', path: '/x/chart.png', mime: 'image/png', size: 10 },
        },
      ],
      false,
    );
    expect(items).toMatchObject([
      { kind: 'tool', trace: { status: 'skipped', overBudget: true, durationMs: 0 } },
      { kind: 'tool', trace: { status: 'error', output: null } },
      { kind: 'file', attached: false, artifact: { name: 'chart.png' } },
    ]);
  });
});
