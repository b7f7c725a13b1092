/**
 * A question and its answer, deleted together: given either message of an exchange, the ids to
 * remove (the user's message and the assistant's answer right after it, when there is one). An
 * answer still being written cannot be deleted (stop its turn first).
 */
import type { Message } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';

/** The ids of the exchange `messageId` belongs to, in `messages` (one conversation, in order). */
export function exchangeOf(messages: readonly Message[], messageId: string): string[] {
  const index = messages.findIndex((message) => message.id === messageId);
  const message = messages[index];
  if (!message) throw new AivoryError('not-found', `No message with id ${messageId}.`);
  const questionIndex = message.role === 'assistant' ? index - 1 : index;
  const question = messages[questionIndex];
  const answer = messages[questionIndex + 1];
  const pair = [
    ...(question?.role === 'user' ? [question] : []),
    ...(answer?.role === 'assistant' ? [answer] : []),
  ];
  if (!pair.some((item) => item.id === messageId)) pair.push(message);
  if (pair.some((item) => item.status === 'streaming')) {
    throw new AivoryError(
      'invalid-input',
      'This answer is still being written: stop it before deleting it.',
    );
  }
  return pair.map((item) => item.id);
}
