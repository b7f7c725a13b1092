/**
 * What earlier messages a turn replays (`services/history.ts`): never an answer still streaming
 * (another turn's partial answer, issue 21); interrupted, canceled and failed answers as far as
 * they got, as before.
 */
import { describe, expect, it } from 'vitest';
import type { Message, MessageStatus } from '../../../src/shared/dto';
import {
  applyContextPolicy,
  buildHistory,
  replayableMessages,
} from '../../../src/main/services/history';

let sequence = 0;

function message(role: Message['role'], text: string, status: MessageStatus = 'complete'): Message {
  sequence += 1;
  return {
    id: `msg_${sequence}`,
    conversationId: 'conv_1',
    parentId: null,
    role,
    status,
    createdAt: sequence,
    updatedAt: sequence,
    parts: text === '' ? [] : [{ kind: 'text', text }],
  };
}

function history(previous: readonly Message[]): { role: string; content: string }[] {
  return buildHistory({
    systemPrompt: 'system',
    previous,
    userText: 'Next question',
    contextWindow: 100_000,
  }).map((entry) => ({ role: entry.role, content: entry.content }));
}

describe('the history a turn replays', () => {
  it('leaves out an answer that is still streaming', () => {
    const previous = [
      message('user', 'First question'),
      message('assistant', 'A half-written ans', 'streaming'),
    ];
    expect(history(previous)).toEqual([
      { role: 'system', content: 'system' },
      { role: 'user', content: 'First question' },
      { role: 'user', content: 'Next question' },
    ]);
    expect(replayableMessages(previous).length).toBe(1);
    expect(applyContextPolicy(previous, { kind: 'all' }).map((entry) => entry.id)).toEqual([
      previous[0]?.id,
    ]);
  });

  it('does not count a streaming answer against a message or token policy', () => {
    const previous = [
      message('user', 'Older question'),
      message('assistant', 'Older answer'),
      message('user', 'First question'),
      message('assistant', 'x'.repeat(3000), 'streaming'),
    ];
    const lastTwo = applyContextPolicy(previous, { kind: 'messages', count: 2 });
    expect(lastTwo.map((entry) => entry.id)).toEqual([previous[1]?.id, previous[2]?.id]);
    const budget = applyContextPolicy(previous, { kind: 'tokens', budget: 256 });
    expect(budget.map((entry) => entry.id)).toEqual([
      previous[0]?.id,
      previous[1]?.id,
      previous[2]?.id,
    ]);
  });

  it.each<MessageStatus>(['interrupted', 'canceled', 'error'])(
    'replays a %s answer as far as it got, as before',
    (status) => {
      const previous = [message('user', 'First question'), message('assistant', 'Partly', status)];
      expect(history(previous)).toEqual([
        { role: 'system', content: 'system' },
        { role: 'user', content: 'First question' },
        { role: 'assistant', content: 'Partly' },
        { role: 'user', content: 'Next question' },
      ]);
      expect(replayableMessages(previous).length).toBe(2);
    },
  );

  it('still skips system messages and answers without text', () => {
    const previous = [
      message('system', 'Internal note'),
      message('user', 'First question'),
      message('assistant', '', 'error'),
    ];
    expect(history(previous)).toEqual([
      { role: 'system', content: 'system' },
      { role: 'user', content: 'First question' },
      { role: 'user', content: 'Next question' },
    ]);
    expect(replayableMessages(previous).length).toBe(1);
  });
});
