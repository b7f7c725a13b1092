/** Conversations, their messages (with parts and search entries) and turn records. */
import type {
  Conversation,
  ConversationSettings,
  Message,
  MessagePart,
  MessageStatus,
  TurnRecord,
} from '../../../shared/dto';

export interface MessagePatch {
  status?: MessageStatus;
  parts?: MessagePart[];
}

/** One search hit: the message, its conversation, and a snippet with matches between marks. */
export interface MessageSearchHit {
  conversationId: string;
  messageId: string;
  snippet: string;
}

/**
 * The right to run one turn in a conversation, held until `release()`. Every process sharing the
 * database sees it: while it is held, `claimTurn` refuses the conversation everywhere.
 */
export interface TurnClaim {
  /**
   * Gives the conversation back (once the turn's answer is finished). Never throws: a claim that
   * cannot be removed from the database stops being renewed and goes stale.
   */
  release(): void;
}

/** One page of a conversation's shown path, first message first. */
export interface MessagePage {
  messages: Message[];
  /** Where the next older page starts: the parent of this page's first message (null: none). */
  older: string | null;
}

/** Which page of the shown path to read. */
export interface MessagePageRequest {
  /** The page's last message (absent: the end of the shown path). */
  from?: string;
  /** At most this many messages… */
  limit: number;
  /** …unless more are needed to reach this earlier message of the path (a search hit). */
  through?: string;
}

/** A page of the shown path after a message, first message first. */
export interface NewerMessagePage {
  messages: Message[];
  /** The page's last message when more follow it on the path (the next `after`); null: none. */
  newer: string | null;
}

/**
 * Where a conversation's title came from: the first message cut short, the model (after the first
 * answer), or the user (a rename, which always wins).
 */
export type TitleSource = 'message' | 'generated' | 'user';

/** The chat service's store (adapters/sqlite/conversation-store.ts behind `SqliteStore`). */
export interface ConversationStore {
  createConversation(input: { id: string; title: string; modelId: string | null }): Conversation;
  getConversation(id: string): Conversation | null;
  listConversations(): Conversation[];
  /**
   * At most `limit` conversations in the order they were created, after position `from` (null:
   * from the first); `next` continues after them (null: none left). A page costs a few
   * milliseconds however many conversations there are (the whole list of 10,000 held serve ~0.1 s).
   */
  listConversationPage(request: { from: number | null; limit: number }): {
    conversations: Conversation[];
    next: number | null;
  };
  /** The user's title: a generated one never replaces it (`setGeneratedTitle`). */
  renameConversation(id: string, title: string): void;
  /** Where the title came from; null when the conversation does not exist. */
  getTitleSource(id: string): TitleSource | null;
  /**
   * Replaces the first-message title with one the model wrote: only while the title is still the
   * first message's (never over the user's, never twice). True when it changed.
   */
  setGeneratedTitle(id: string, title: string): boolean;
  setConversationToolToggles(id: string, toggles: Record<string, boolean>): void;
  /** The saved model the conversation's last turn used (null: the default or a one-off model). */
  setConversationModel(id: string, modelId: string | null): void;
  /** Replaces the conversation's own instructions, parameters and context policy. */
  setConversationSettings(id: string, settings: ConversationSettings): void;
  /** Pins or unpins a conversation; not activity (its place by activity stays). */
  setConversationPinned(id: string, pinned: boolean): void;
  deleteConversation(id: string): void;
  /**
   * Deletes up to `limit` of the conversation's messages (newest first, what is left a whole
   * tree), then, once none is left, the conversation; true once it is gone. A long conversation
   * goes in several calls, so no one write holds the process for long.
   */
  deleteConversationPart(id: string, limit: number): boolean;

  /**
   * Inserts a message after `parentId` (absent: after the end of the shown path) and shows it at
   * the end of the path; a `streaming` one is owned by this process until it is finished.
   */
  createMessage(input: {
    id: string;
    conversationId: string;
    parentId?: string | null;
    role: Message['role'];
    status: MessageStatus;
    parts: MessagePart[];
  }): Message;
  /** Replaces the parts and/or status of a message in one transaction. */
  updateMessage(id: string, patch: MessagePatch): void;
  /** The path the conversation shows (one version of each message), first message first. */
  listMessages(conversationId: string): Message[];
  /**
   * A page of the path through `from`, walking back from it; bounded by `limit` (and `through`),
   * never by the conversation's length. Throws `not-found` when `from` is not in the conversation.
   */
  listMessagePage(conversationId: string, request: MessagePageRequest): MessagePage;
  /**
   * At most `limit` messages of the shown path right after `after`, first message first (a
   * window opened around a search hit reads on towards the end with it). Throws `not-found`
   * when `after` is not in the conversation; null when it is not on the shown path.
   */
  listNewerPage(
    conversationId: string,
    request: { after: string; limit: number },
  ): NewerMessagePage | null;
  /** How many messages the shown path holds (ids only: no parts are read). */
  countShownMessages(conversationId: string): number;
  /** Every message, every version, in creation order. */
  listAllMessages(conversationId: string): Message[];
  /** For each message that has other versions, all their ids (its own included), oldest first. */
  listVersions(conversationId: string): Record<string, string[]>;
  /** `listVersions` for these messages only: each one's siblings, when it has some. */
  listVersionsOf(conversationId: string, messages: readonly Message[]): Record<string, string[]>;
  /** Shows the path through this message, on to the newest message under it. */
  showVersion(conversationId: string, messageId: string): void;
  /**
   * Removes one message with its parts and turn record (a failed answer that is retried); the
   * messages after it now follow its parent.
   */
  deleteMessage(id: string): void;
  /** Removes a message with every message under it. */
  deleteBranch(id: string): void;
  /** Whether one of these messages, or one under them, is still streaming. */
  hasStreamingUnder(ids: readonly string[]): boolean;
  getMessage(id: string): Message | null;
  /** Full-text search over message text; user syntax is quoted, never interpreted. */
  searchMessages(query: string, limit?: number): MessageSearchHit[];

  /**
   * Claims the conversation for the turn `turnId`, atomically across processes, or returns null
   * when another turn runs in it (here or in any process on the same database). A claim whose
   * owner died (even by SIGKILL) or stopped renewing it is stale and taken over; streaming
   * answers that owner left are marked `interrupted` then. Throws `not-found` for an unknown
   * conversation.
   */
  claimTurn(conversationId: string, turnId: string): TurnClaim | null;

  saveTurnRecord(record: TurnRecord): void;
  /**
   * Ends an answer whose last writes failed (a full disk, a lock): its status and its turn record
   * (absent: none) in one transaction, without waiting for another program's lock (a lock held
   * now fails at once, as `locked`). False when the message no longer exists (deleted
   * meanwhile). Throws a `StorageError` when it cannot be written yet.
   */
  endAnswerNow(input: { messageId: string; status: MessageStatus; record?: TurnRecord }): boolean;
  listTurnRecords(conversationId: string): TurnRecord[];
  /** The turn records of these messages, oldest first. */
  listTurnRecordsOf(messageIds: readonly string[]): TurnRecord[];
}
