/** The assistant message's footer: why a turn failed, Retry, and an empty reply said in words. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AssistantMessage } from '../../../src/renderer/features/chat/message-view';
import { applyTurnEvent, emptyTurn } from '../../../src/renderer/state/live-turn';

describe('renderer: a failed or empty answer', () => {
  it('says why the turn failed, or that no reason was recorded, and offers Retry when asked to', () => {
    const failed = renderToStaticMarkup(
      <AssistantMessage
        parts={[]}
        status="error"
        budget={null}
        stopReason="error"
        error={{ code: 'auth', message: 'The model server rejected the API key (HTTP 401)' }}
        onRetry={() => undefined}
      />,
    );
    expect(failed).toContain('The turn failed: The model server rejected the API key (HTTP 401)');
    expect(failed).toContain('data-testid="retry-turn"');
    expect(failed).not.toContain('empty-reply');
    const unknown = renderToStaticMarkup(
      <AssistantMessage parts={[]} status="error" budget={null} stopReason="error" error={null} />,
    );
    expect(unknown).toContain('The turn failed (no reason was recorded).');
    expect(unknown).not.toContain('retry-turn');
  });

  it('an empty complete answer says so; one with text or a tool call does not', () => {
    const empty = renderToStaticMarkup(
      <AssistantMessage
        parts={[{ kind: 'text', text: '  ' }]}
        status="complete"
        budget={null}
        stopReason="completed"
        error={null}
      />,
    );
    expect(empty).toContain('The model sent back an empty answer.');
    const answered = renderToStaticMarkup(
      <AssistantMessage
        parts={[{ kind: 'text', text: 'Hi' }]}
        status="complete"
        budget={null}
        stopReason="completed"
        error={null}
      />,
    );
    expect(answered).not.toContain('empty-reply');
    const streaming = renderToStaticMarkup(
      <AssistantMessage
        parts={[]}
        status="streaming"
        budget={null}
        stopReason={null}
        error={null}
      />,
    );
    expect(streaming).not.toContain('empty-reply');
  });
});

describe('renderer: long waits show what happens', () => {
  it('reasoning still streaming shows live and open with a timer; finished, it folds away', () => {
    const reasoning = [{ kind: 'reasoning' as const, text: 'Let me think about tea.' }];
    const live = renderToStaticMarkup(
      <AssistantMessage
        parts={reasoning}
        status="streaming"
        budget={null}
        stopReason={null}
        error={null}
      />,
    );
    expect(live).toContain('data-live="true"');
    expect(live).toMatch(/<details[^>]*open=""/);
    expect(live).toContain('Thinking… 0 s');
    expect(live).toContain('class="live-dot"');
    expect(live).toContain('Let me think about tea.');
    const done = renderToStaticMarkup(
      <AssistantMessage
        parts={[...reasoning, { kind: 'text', text: 'Green.' }]}
        status="complete"
        budget={null}
        stopReason="completed"
        error={null}
      />,
    );
    expect(done).not.toContain('data-live');
    expect(done).not.toMatch(/<details[^>]*open=""/);
    // Not watched while it streamed: how long it took is unknown, so it says what it is.
    expect(done).toContain('>Reasoning<');
  });

  it('a prompt-mode retry after a malformed call is shown until a call runs', () => {
    let turn = applyTurnEvent(emptyTurn('t1'), {
      type: 'protocol-retry',
      turnId: 't1',
      attempt: 1,
      error: 'Unexpected token',
    });
    expect(turn.protocolRetry).toBe(1);
    const shown = renderToStaticMarkup(
      <AssistantMessage
        parts={[]}
        status="streaming"
        budget={null}
        stopReason={null}
        error={null}
        protocolRetry={turn.protocolRetry}
      />,
    );
    expect(shown).toContain('it was asked to write it again (1 of 2)');
    turn = applyTurnEvent(turn, {
      type: 'tool-result',
      turnId: 't1',
      toolCallId: 'c1',
      name: 'echo',
      status: 'ok',
      output: 'x',
      durationMs: 1,
      artifacts: [],
    });
    expect(turn.protocolRetry).toBeNull();
  });

  it('a model request waiting to be sent again is shown until anything else comes', () => {
    let turn = applyTurnEvent(emptyTurn('t1'), {
      type: 'model-wait',
      turnId: 't1',
      waitMs: 44_200,
      status: 429,
    });
    const shown = (modelWait: typeof turn.modelWait) =>
      renderToStaticMarkup(
        <AssistantMessage
          parts={[]}
          status="streaming"
          budget={null}
          stopReason={null}
          error={null}
          modelWait={modelWait ?? null}
        />,
      );
    expect(shown(turn.modelWait)).toContain(
      'The model server answered HTTP 429; trying again in 45 s (Stop gives up).',
    );
    const network = applyTurnEvent(turn, {
      type: 'model-wait',
      turnId: 't1',
      waitMs: 500,
      status: null,
    });
    expect(shown(network.modelWait)).toContain('could not be reached; trying again in 1 s');
    turn = applyTurnEvent(turn, { type: 'text-delta', turnId: 't1', text: 'Hello' });
    expect(turn.modelWait).toBeUndefined();
    expect(shown(turn.modelWait)).not.toContain('trying again');
  });
});
