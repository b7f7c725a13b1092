/**
 * A conversation's shown path read a page at a time, letting the event loop run between pages.
 * SQLite reads are synchronous and `aivory serve` answers every request on the same thread: the
 * whole path of a 20,000-message conversation read at once held it for ~0.2 s (a turn start, an
 * export), during which no other request was answered. A page of 500 takes a few milliseconds.
 */
import type { Message } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import type { ConversationStore } from '../core/ports';

/** Messages per read: a few milliseconds of the thread each. */
const PAGE_MESSAGES = 500;

/**
 * The shown path, first message first (what `listMessages` answers). When the path changes while
 * it is read (another process deleted a message of it), it is read again from its end, once.
 */
export async function readShownPath(
  store: Pick<ConversationStore, 'listMessagePage'>,
  conversationId: string,
): Promise<Message[]> {
  return (await readShownPathPages(store, conversationId, (messages) => messages)).flat();
}

/**
 * The shown path a page at a time, each page (first message first) turned by `map` as it is
 * read and only what `map` answers kept; answers the pages' results, first page first. A caller
 * that keeps less than the messages (an export keeps each page's formatted text) spares the
 * garbage collector copying 20,000 messages while serve waits.
 */
export async function readShownPathPages<T>(
  store: Pick<ConversationStore, 'listMessagePage'>,
  conversationId: string,
  map: (messages: Message[]) => T,
): Promise<T[]> {
  try {
    return await readPages(store, conversationId, map);
  } catch (error) {
    if (!(error instanceof AivoryError) || error.code !== 'not-found') throw error;
    return readPages(store, conversationId, map);
  }
}

async function readPages<T>(
  store: Pick<ConversationStore, 'listMessagePage'>,
  conversationId: string,
  map: (messages: Message[]) => T,
): Promise<T[]> {
  let page = store.listMessagePage(conversationId, { limit: PAGE_MESSAGES });
  const pages = [map(page.messages)];
  while (page.older !== null) {
    await new Promise((resolve) => setImmediate(resolve));
    page = store.listMessagePage(conversationId, { from: page.older, limit: PAGE_MESSAGES });
    pages.push(map(page.messages));
  }
  return pages.reverse();
}
