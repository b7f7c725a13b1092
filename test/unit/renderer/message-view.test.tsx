/** The assistant message's footer: why a turn failed, Retry, and an empty reply said in words. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AssistantMessage } from '../../../src/renderer/features/chat/message-view';

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
