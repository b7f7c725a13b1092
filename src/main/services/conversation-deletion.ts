/**
 * Deleting a conversation, however long. One statement used to delete a 20,000-message
 * conversation with its parts, turn records and search entries: 262 ms during which `aivory
 * serve` answered nothing (463–563 ms on a loaded machine; issue 37, finding 11). It now goes in
 * batches of messages, newest first, each its own short transaction, the event loop free between
 * them; what a crash leaves is the older part of the conversation, whole and readable.
 */
import type { ConversationStore } from '../core/ports';

/**
 * Messages per transaction: with their parts and search entries about 13 µs each on a quiet
 * machine (20,000 in 262 ms), so a batch is ~3 ms, well under the 50 ms a request may wait. On
 * the loaded 2-core build machine batches of 500 took 20 ms (median) and up to 160 ms, batches
 * of 200 took 9 ms and up to 100 ms (the longest are commits that also checkpoint the WAL).
 */
export const DELETE_BATCH_MESSAGES = 200;

/** Deletes the conversation, a batch at a time, yielding to other work between batches. */
export async function deleteConversation(
  store: Pick<ConversationStore, 'deleteConversationPart'>,
  id: string,
  nextTurn: () => Promise<void> = yieldToEventLoop,
): Promise<void> {
  while (!store.deleteConversationPart(id, DELETE_BATCH_MESSAGES)) await nextTurn();
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
