/** Which messages go when the user deletes a question with its answer. */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/shared/dto';
import { exchangeOf } from '../../../src/main/services/message-exchange';

const message = (id: string, role: Message['role'], status: Message['status'] = 'complete') =>
  ({
    id,
    conversationId: 'c',
    parentId: null,
    role,
    status,
    createdAt: 1,
    updatedAt: 1,
    parts: [],
  }) as Message;

describe('exchangeOf', () => {
  const messages = [
    message('u1', 'user'),
    message('a1', 'assistant'),
    message('u2', 'user'),
    message('a2', 'assistant', 'error'),
    message('u3', 'user'),
  ];

  it('given the question or the answer, both go', () => {
    expect(exchangeOf(messages, 'u1')).toEqual(['u1', 'a1']);
    expect(exchangeOf(messages, 'a2')).toEqual(['u2', 'a2']);
  });

  it('a question without an answer goes alone', () => {
    expect(exchangeOf(messages, 'u3')).toEqual(['u3']);
  });

  it('refuses an unknown message and an answer still being written', () => {
    expect(() => exchangeOf(messages, 'nope')).toThrow('No message with id nope.');
    expect(() =>
      exchangeOf([message('u1', 'user'), message('a1', 'assistant', 'streaming')], 'u1'),
    ).toThrow('This answer is still being written: stop it before deleting it.');
  });
});
