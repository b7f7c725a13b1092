/**
 * What a turn reads of its conversation's shown path: newest first, a page at a time (the event
 * loop running between pages), keeping only what it uses. Holding the whole path of a
 * 20,000-message conversation (~14 MB of text and parts) kept `aivory serve`'s thread busy for
 * 110–230 ms while the garbage collector copied it and the history pass walked it (issue 37,
 * item 11); the history needs the newest messages a context window can hold, and of the rest only
 * how many would have been replayed and whether one was a complete answer.
 */
import type { Message } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import { messageText } from '../../shared/message-parts';
import type { ConversationStore } from '../core/ports';
import { estimateTokens, replayable, replayedText } from './history';

/** Messages per read: a few milliseconds of the thread each. */
const PAGE_MESSAGES = 500;

/** The shown path before a turn's question, as far back as a window can reach. */
export interface EarlierMessages {
  /**
   * The newest messages, first message first: every one while the replayed ones fit `reach`
   * tokens, and the first that does not (no window reaches past it).
   */
  recent: Message[];
  /** How many messages older than `recent` would be replayed (all are left out). */
  olderReplayed: number;
  /** Whether a message older than `recent` is a complete, non-empty answer. */
  olderAnswer: boolean;
}

/** The path as a turn reads it: its newest messages whole (`tail`), then what came before. */
export interface TurnPath {
  /** The newest messages, first message first, up to where `tailEnds` said stop. */
  tail: Message[];
  /** Everything older than `tail`. */
  earlier: EarlierMessages;
}

export interface TurnPathRequest {
  /**
   * Whether the tail is whole, given it so far (newest first); asked before each message is
   * read, so `() => true` reads no tail.
   */
  tailEnds: (newestFirst: readonly Message[]) => boolean;
  /** Tokens the widest window of the turn's models holds. */
  reach: number;
}

/** No messages at all (a new conversation). */
export const NO_EARLIER_MESSAGES: EarlierMessages = {
  recent: [],
  olderReplayed: 0,
  olderAnswer: false,
};

/** A complete answer with text: the conversation has had a real answer. */
export function isCompleteAnswer(message: Message): boolean {
  return (
    message.role === 'assistant' &&
    message.status === 'complete' &&
    messageText(message.parts).trim() !== ''
  );
}

/**
 * Reads the turn's path. When the path changes while it is read (another process deleted a
 * message of it), it is read again from its end, once.
 */
export async function readTurnPath(
  store: Pick<ConversationStore, 'listMessagePage'>,
  conversationId: string,
  request: TurnPathRequest,
): Promise<TurnPath> {
  try {
    return await readNewestFirst(store, conversationId, request);
  } catch (error) {
    if (!(error instanceof AivoryError) || error.code !== 'not-found') throw error;
    return readNewestFirst(store, conversationId, request);
  }
}

async function readNewestFirst(
  store: Pick<ConversationStore, 'listMessagePage'>,
  conversationId: string,
  request: TurnPathRequest,
): Promise<TurnPath> {
  const tail: Message[] = [];
  let tailWhole = false;
  const recent: Message[] = [];
  let spent = 0;
  let reached = false;
  let olderReplayed = 0;
  let olderAnswer = false;
  let page = store.listMessagePage(conversationId, { limit: PAGE_MESSAGES });
  for (;;) {
    for (let index = page.messages.length - 1; index >= 0; index -= 1) {
      const message = page.messages[index];
      if (message === undefined) continue;
      if (!tailWhole && !(tailWhole = request.tailEnds(tail))) {
        tail.push(message);
      } else if (!reached) {
        recent.push(message);
        if (replayable(message)) spent += estimateTokens(replayedText(message));
        reached = spent > request.reach;
      } else {
        // Past every window: counted, not kept.
        if (replayable(message)) olderReplayed += 1;
        olderAnswer ||= isCompleteAnswer(message);
      }
    }
    if (page.older === null) break;
    await new Promise((resolve) => setImmediate(resolve));
    page = store.listMessagePage(conversationId, { from: page.older, limit: PAGE_MESSAGES });
  }
  return {
    tail: tail.reverse(),
    earlier: { recent: recent.reverse(), olderReplayed, olderAnswer },
  };
}
