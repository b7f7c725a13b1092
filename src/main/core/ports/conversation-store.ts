/** Conversations, their messages (with parts and search entries) and turn records. */
import type {
  Conversation,
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

/** The chat service's store (adapters/sqlite/conversation-store.ts behind `SqliteStore`). */
export interface ConversationStore {
  createConversation(input: { id: string; title: string; modelId: string | null }): Conversation;
  getConversation(id: string): Conversation | null;
  listConversations(): Conversation[];
  renameConversation(id: string, title: string): void;
  setConversationToolToggles(id: string, toggles: Record<string, boolean>): void;
  /** The saved model the conversation's last turn used (null: the default or a one-off model). */
  setConversationModel(id: string, modelId: string | null): void;
  /** Pins or unpins a conversation; not activity (its place by activity stays). */
  setConversationPinned(id: string, pinned: boolean): void;
  deleteConversation(id: string): void;

  /** Inserts a message; a `streaming` one is owned by this process until it is finished. */
  createMessage(input: {
    id: string;
    conversationId: string;
    role: Message['role'];
    status: MessageStatus;
    parts: MessagePart[];
  }): Message;
  /** Replaces the parts and/or status of a message in one transaction. */
  updateMessage(id: string, patch: MessagePatch): void;
  listMessages(conversationId: string): Message[];
  /** Removes one message with its parts and turn record (a failed answer that is retried). */
  deleteMessage(id: string): void;
  getMessage(id: string): Message | null;
  /** Full-text search over message text; user syntax is quoted, never interpreted. */
  searchMessages(query: string, limit?: number): MessageSearchHit[];

  saveTurnRecord(record: TurnRecord): void;
  listTurnRecords(conversationId: string): TurnRecord[];
}
