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
 * question's parent. Returns the ids of the exchange's two messages.
 */
export function deleteExchange(
  store: Pick<
    ConversationStore,
    'listMessages' | 'listAllMessages' | 'deleteMessage' | 'deleteBranch'
  >,
  conversationId: string,
  messageId: string,
): string[] {
  const pair = exchangeOf(store.listMessages(conversationId), messageId);
  const all = store.listAllMessages(conversationId);
  const question = all.find((message) => message.id === pair[0] && message.role === 'user');
  const otherAnswers = question
    ? all.filter((message) => message.parentId === question.id && !pair.includes(message.id))
    : [];
  const underOthers = descendants(
    all,
    otherAnswers.map((message) => message.id),
  );
  if (underOthers.some((message) => message.status === 'streaming')) {
    throw new AivoryError(
      'invalid-input',
      'Another version of this answer is still being written: stop it before deleting.',
    );
  }
  for (const answer of otherAnswers) store.deleteBranch(answer.id);
  // The answer first, so what followed it moves up to the question, then past it.
  for (const id of [...pair].reverse()) store.deleteMessage(id);
  return pair;
}

/** The messages under `roots` (the roots included). */
function descendants(all: readonly Message[], roots: readonly string[]): Message[] {
  const found = new Set(roots);
  for (const message of all) {
    if (message.parentId !== null && found.has(message.parentId)) found.add(message.id);
  }
  return all.filter((message) => found.has(message.id));
}
