/**
 * Conversations, their messages (with ordered parts and search entries) and turn records in
 * SQLite, for `SqliteStore`. A `streaming` message records this process as its owner until its
 * status changes (`streaming-recovery.ts` marks the ones whose writer died).
 */
import type Database from 'better-sqlite3';
import type { Conversation, Message, MessagePart, TurnRecord } from '../../../shared/dto';
import type { Clock, ConversationStore, MessageSearchHit, MessagePatch } from '../../core/ports';
import { replaceSearchEntry, searchMessages } from './message-search';
import { toConversation, toMessage, toMessagePart, toTurnRecord } from './row-mapping';
import type { ConversationRow, MessageRow, PartRow, TurnRecordRow } from './row-mapping';
import type { Statements } from './statements';
import { notFound } from './store-errors';
import type { StreamingClaims } from './streaming-recovery';

export class SqliteConversations implements ConversationStore {
  constructor(
    private readonly database: Database.Database,
    private readonly sql: Statements,
    private readonly clock: Clock,
    private readonly streaming: StreamingClaims,
  ) {}

  createConversation(input: { id: string; title: string; modelId: string | null }): Conversation {
    const now = this.clock.now();
    this.sql.run(
      `INSERT INTO conversations (id, title, model_id, created_at, updated_at)
       VALUES (@id, @title, @modelId, @now, @now)`,
      { ...input, now },
    );
    return { ...input, createdAt: now, updatedAt: now, toolToggles: {}, pinnedAt: null };
  }

  /** Replaces the conversation's own tool switches. Throws `not-found` when it does not exist. */
  setConversationToolToggles(id: string, toggles: Record<string, boolean>): void {
    const sql = 'UPDATE conversations SET tool_toggles = ? WHERE id = ?';
    if (this.sql.run(sql, JSON.stringify(toggles), id).changes === 0) {
      throw notFound('Conversation', id);
    }
  }

  /** Not activity: the conversation keeps its place in the list. Throws `not-found`. */
  setConversationModel(id: string, modelId: string | null): void {
    const sql = 'UPDATE conversations SET model_id = ? WHERE id = ?';
    if (this.sql.run(sql, modelId, id).changes === 0) throw notFound('Conversation', id);
  }

  /**
   * Pins (now) or unpins the conversation. Not activity: `updated_at` and the order by activity
   * stay; pinning a pinned one keeps its first pin time. Throws `not-found`.
   */
  setConversationPinned(id: string, pinned: boolean): void {
    const sql = pinned
      ? 'UPDATE conversations SET pinned_at = coalesce(pinned_at, ?) WHERE id = ?'
      : 'UPDATE conversations SET pinned_at = NULL WHERE id = ?';
    const result = pinned ? this.sql.run(sql, this.clock.now(), id) : this.sql.run(sql, id);
    if (result.changes === 0) throw notFound('Conversation', id);
  }

  getConversation(id: string): Conversation | null {
    const row = this.sql.get<ConversationRow>('SELECT * FROM conversations WHERE id = ?', id);
    return row === undefined ? null : toConversation(row);
  }

  /** Most recently active first (a new message counts as activity). */
  listConversations(): Conversation[] {
    return this.sql
      .all<ConversationRow>('SELECT * FROM conversations ORDER BY updated_at DESC, rowid DESC')
      .map(toConversation);
  }

  /** Throws `not-found` when the conversation does not exist. */
  renameConversation(id: string, title: string): void {
    // A new title is not activity: the conversation keeps its place in the list.
    const sql = 'UPDATE conversations SET title = ? WHERE id = ?';
    if (this.sql.run(sql, title, id).changes === 0) {
      throw notFound('Conversation', id);
    }
  }

  /** Deletes the conversation with its messages, parts, turn records and search entries. */
  deleteConversation(id: string): void {
    this.sql.run('DELETE FROM conversations WHERE id = ?', id);
  }

  /** Parts and the turn record go with it (ON DELETE CASCADE). Throws `not-found`. */
  deleteMessage(id: string): void {
    if (this.sql.run('DELETE FROM messages WHERE id = ?', id).changes === 0) {
      throw notFound('Message', id);
    }
  }

  /**
   * Inserts a message with its parts. A `streaming` one records this process as its owner until
   * its status changes. Throws `not-found` when the conversation does not exist.
   */
  createMessage(input: {
    id: string;
    conversationId: string;
    role: Message['role'];
    status: Message['status'];
    parts: MessagePart[];
  }): Message {
    const now = this.clock.now();
    this.sql.write(() => {
      if (this.getConversation(input.conversationId) === null) {
        throw notFound('Conversation', input.conversationId);
      }
      const { lastInsertRowid } = this.sql.run(
        `INSERT INTO messages (id, conversation_id, role, status, created_at, updated_at, owner_pid)
         VALUES (@id, @conversationId, @role, @status, @now, @now, @ownerPid)`,
        { ...input, now, ownerPid: input.status === 'streaming' ? process.pid : null },
      );
      this.replaceParts(input.id, Number(lastInsertRowid), input.conversationId, input.parts);
      this.sql.run(
        'UPDATE conversations SET updated_at = ? WHERE id = ?',
        now,
        input.conversationId,
      );
    });
    this.streaming.set(input.id, input.status === 'streaming');
    return { ...input, createdAt: now, updatedAt: now };
  }

  /**
   * Replaces the parts and/or the status in one transaction and stamps `updated_at`. Leaving
   * `streaming` clears the owner pid. Throws `not-found` when the message does not exist.
   */
  updateMessage(id: string, patch: MessagePatch): void {
    this.sql.write(() => {
      const row = this.sql.get<{ seq: number; conversation_id: string }>(
        'SELECT seq, conversation_id FROM messages WHERE id = ?',
        id,
      );
      if (row === undefined) throw notFound('Message', id);
      if (patch.parts !== undefined) {
        this.replaceParts(id, row.seq, row.conversation_id, patch.parts);
      }
      const now = this.clock.now();
      if (patch.status === undefined) {
        this.sql.run('UPDATE messages SET updated_at = ? WHERE seq = ?', now, row.seq);
      } else {
        const ownerPid = patch.status === 'streaming' ? process.pid : null;
        const sql = 'UPDATE messages SET status = ?, owner_pid = ?, updated_at = ? WHERE seq = ?';
        this.sql.run(sql, patch.status, ownerPid, now, row.seq);
      }
    });
    if (patch.status !== undefined) this.streaming.set(id, patch.status === 'streaming');
  }

  /** In creation order (created_at, then insertion order), each with its parts in order. */
  listMessages(conversationId: string): Message[] {
    const partsByMessage = new Map<string, MessagePart[]>();
    const partRows = this.sql.all<PartRow>(
      `SELECT p.message_id, p.data FROM message_parts p JOIN messages m ON m.id = p.message_id
       WHERE m.conversation_id = ? ORDER BY p.message_id, p.position`,
      conversationId,
    );
    for (const partRow of partRows) {
      const parts = partsByMessage.get(partRow.message_id) ?? [];
      parts.push(toMessagePart(partRow));
      partsByMessage.set(partRow.message_id, parts);
    }
    return this.sql
      .all<MessageRow>(
        'SELECT * FROM messages WHERE conversation_id = ? ORDER BY created_at, seq',
        conversationId,
      )
      .map((row) => toMessage(row, partsByMessage.get(row.id) ?? []));
  }

  getMessage(id: string): Message | null {
    const row = this.sql.get<MessageRow>('SELECT * FROM messages WHERE id = ?', id);
    if (row === undefined) return null;
    const sql = 'SELECT message_id, data FROM message_parts WHERE message_id = ? ORDER BY position';
    return toMessage(row, this.sql.all<PartRow>(sql, id).map(toMessagePart));
  }

  /** Inserts the record, or replaces the one with the same id. */
  saveTurnRecord(record: TurnRecord): void {
    this.sql.run(
      `INSERT OR REPLACE INTO turn_records (id, conversation_id, message_id, model_id, stop_reason,
         tool_calls, provider_rounds, started_at, duration_ms, error_code, error_message, budget,
         taint, model_name, usage)
       VALUES (@id, @conversationId, @messageId, @modelId, @stopReason, @toolCalls,
         @providerRounds, @startedAt, @durationMs, @errorCode, @errorMessage, @budget, @taint,
         @modelName, @usage)`,
      {
        ...record,
        budget: record.budget === null ? null : JSON.stringify(record.budget),
        usage: record.usage === null ? null : JSON.stringify(record.usage),
        toolCalls: JSON.stringify(record.toolCalls),
        taint: record.taint === null ? null : JSON.stringify(record.taint),
      },
    );
  }

  /** Oldest first. */
  listTurnRecords(conversationId: string): TurnRecord[] {
    return this.sql
      .all<TurnRecordRow>(
        'SELECT * FROM turn_records WHERE conversation_id = ? ORDER BY started_at, rowid',
        conversationId,
      )
      .map(toTurnRecord);
  }

  /**
   * Full-text search over message text and reasoning, best match first (at most `limit`, default
   * 20, capped at 200). Every whitespace-separated word of `query` must appear, as a word or a
   * word prefix; FTS syntax in the query is taken literally, so no query throws. Matches in
   * `snippet` are wrapped in `SNIPPET_MARK` (see message-search.ts).
   */
  searchMessages(query: string, limit?: number): MessageSearchHit[] {
    return searchMessages(this.database, query, limit);
  }

  /** Rewrites a message's parts and its search entry; runs inside the caller's transaction. */
  private replaceParts(
    messageId: string,
    seq: number,
    conversationId: string,
    parts: readonly MessagePart[],
  ): void {
    this.sql.run('DELETE FROM message_parts WHERE message_id = ?', messageId);
    const insert = this.database.prepare(
      'INSERT INTO message_parts (message_id, position, kind, data) VALUES (?, ?, ?, ?)',
    );
    parts.forEach((part, position) => {
      insert.run(messageId, position, part.kind, JSON.stringify(part));
    });
    replaceSearchEntry(this.database, { seq, messageId, conversationId, parts });
  }
}
