/**
 * A question and its answer, deleted together: given either message of an exchange, the ids to
 * remove (the user's message and the assistant's answer right after it, when there is one). An
 * answer still being written cannot be deleted (stop its turn first).
 */
import type { Message } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import type { ConversationStore } from '../core/ports';

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

/**
 * Deletes the exchange `messageId` belongs to on the conversation's shown path, with the other
 * versions of its answer (and what followed them). What followed the shown answer now follows the
 * question's parent. Returns the ids of the exchange's two messages. Reads only the messages next
 * to it and its answer's versions: reading the whole conversation held serve's thread.
 */
export function deleteExchange(
  store: Pick<
    ConversationStore,
    | 'listMessagePage'
    | 'listNewerPage'
    | 'listVersionsOf'
    | 'getMessage'
    | 'hasStreamingUnder'
    | 'deleteMessage'
    | 'deleteBranch'
  >,
  conversationId: string,
  messageId: string,
): string[] {
  // The message with the one before it and the one after it on the shown path: all an exchange
  // needs (null: the message is in the conversation, but not on the path it shows).
  const after = store.listNewerPage(conversationId, { after: messageId, limit: 1 });
  if (after === null) throw new AivoryError('not-found', `No message with id ${messageId}.`);
  const before = store.listMessagePage(conversationId, { from: messageId, limit: 2 }).messages;
  const window = [...before, ...after.messages];
  const pair = exchangeOf(window, messageId);
  const answer = window.find(
    (message) => message.id === pair.at(-1) && message.role === 'assistant',
  );
  // The other versions of the answer: the answer's siblings that are answers too (a question that
  // follows an unanswered one is not one, and stays).
  const otherAnswers =
    answer === undefined
      ? []
      : (store.listVersionsOf(conversationId, [answer])[answer.id] ?? []).filter(
          (id) => id !== answer.id && store.getMessage(id)?.role === 'assistant',
        );
  if (store.hasStreamingUnder(otherAnswers)) {
    throw new AivoryError(
      'invalid-input',
      'Another version of this answer is still being written: stop it before deleting.',
    );
  }
  for (const id of otherAnswers) store.deleteBranch(id);
  // The answer first, so what followed it moves up to the question, then past it.
  for (const id of [...pair].reverse()) store.deleteMessage(id);
  return pair;
}
