/** The left-out note under an answer (live and stored) and the dialog's sampling fields. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AssistantMessage } from '../../../src/renderer/features/chat/message-view';
import { SamplingFields } from '../../../src/renderer/features/conversations/sampling-fields';
import { applyTurnEvent, emptyTurn } from '../../../src/renderer/state/live-turn';

describe('renderer: conversation settings views', () => {
  it('says how many earlier messages were not sent, only when some were not', () => {
    const answer = (omittedMessages?: number) =>
      renderToStaticMarkup(
        <AssistantMessage
          parts={[{ kind: 'text', text: 'Hi' }]}
          status="complete"
          budget={null}
          stopReason="completed"
          error={null}
          {...(omittedMessages === undefined ? {} : { omittedMessages })}
        />,
      );
    expect(answer(3)).toContain('3 earlier messages not sent (context policy)');
    expect(answer(0)).not.toContain('omitted-messages');
    expect(answer()).not.toContain('omitted-messages');
  });

  it('a live turn keeps the count from turn-start', () => {
    const started = applyTurnEvent(emptyTurn('t1'), {
      type: 'turn-start',
      turnId: 't1',
      conversationId: 'c',
      messageId: 'm',
      model: 'x',
      toolMode: 'native',
      mode: 'normal',
      omittedMessages: 4,
    });
    expect(started.omittedMessages).toBe(4);
  });

  it('shows the model default, else the server default, as the placeholder', () => {
    const html = renderToStaticMarkup(
      <SamplingFields
        value={{ temperature: '', topP: '0.5', maxOutputTokens: '' }}
        defaults={{ temperature: 0.2 }}
        errors={{ maxOutputTokens: { key: 'form.number' } }}
        testIdPrefix="conv"
        onChange={() => undefined}
      />,
    );
    expect(html).toContain('placeholder="model default: 0.2"');
    expect(html).toContain('placeholder="server default"');
    expect(html).toContain('value="0.5"');
    expect(html).toContain('data-testid="conv-maxOutputTokens-error"');
  });
});
