/** One conversation by id, or the `not-found` error every caller words the same way. */
import type { Conversation } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import type { ConversationStore } from '../core/ports';

export function requireConversation(
  store: Pick<ConversationStore, 'getConversation'>,
  id: string,
): Conversation {
  const conversation = store.getConversation(id);
  if (!conversation) throw new AivoryError('not-found', `No conversation with id ${id}.`);
  return conversation;
}
