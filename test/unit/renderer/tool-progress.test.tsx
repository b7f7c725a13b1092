/**
 * Live progress on a running call's trace card: the fold keeps each running call's latest
 * report (parts untouched, dropped at the result), and the card shows "message, n/total" with
 * a bar; a report for a call not running is ignored.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AssistantMessage } from '../../../src/renderer/features/chat/message-view';
import { applyTurnEvent, emptyTurn } from '../../../src/renderer/state/live-turn';
import type { TurnEvent } from '../../../src/shared/turn-events';

const start: TurnEvent = {
  type: 'tool-call-start',
  turnId: 't',
  toolCallId: 'c1',
  name: 'svc__slow',
};
const end: TurnEvent = {
  type: 'tool-call-end',
  turnId: 't',
  toolCallId: 'c1',
  name: 'svc__slow',
  arguments: {},
};
const progress = (value: number, message?: string): TurnEvent => ({
  type: 'tool-progress',
  turnId: 't',
  toolCallId: 'c1',
  progress: value,
  total: 4,
  ...(message === undefined ? {} : { message }),
});

describe('tool progress in the live turn', () => {
  it('keeps the latest report of a running call and drops it with the result', () => {
    let turn = applyTurnEvent(emptyTurn('t'), progress(1));
    expect(turn.progress).toEqual({});
    turn = applyTurnEvent(applyTurnEvent(turn, start), end);
    const parts = turn.parts;
    turn = applyTurnEvent(turn, progress(1, 'one'));
    turn = applyTurnEvent(turn, progress(2, 'two'));
    expect(turn.parts).toBe(parts);
    expect(turn.progress).toEqual({ c1: { progress: 2, total: 4, message: 'two' } });

    const html = renderToStaticMarkup(
      <AssistantMessage
        status="streaming"
        parts={turn.parts}
        budget={null}
        progress={turn.progress}
        stopReason={null}
        error={null}
      />,
    );
    expect(html).toContain('data-testid="tool-progress"');
    expect(html).toContain('two, 2/4');
    expect(html).toMatch(/<progress[^>]*max="4"[^>]*value="2"/);

    turn = applyTurnEvent(turn, {
      type: 'tool-result',
      turnId: 't',
      toolCallId: 'c1',
      name: 'svc__slow',
      status: 'ok',
      output: 'done',
      durationMs: 5,
      artifacts: [],
    });
    expect(turn.progress).toEqual({});
    expect(turn.parts.some((part) => JSON.stringify(part).includes('progress'))).toBe(false);
  });
});
