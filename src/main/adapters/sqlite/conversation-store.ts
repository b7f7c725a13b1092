/**
 * Conversations, their messages (with ordered parts and search entries) and turn records in
 * SQLite, for `SqliteStore`. A `streaming` message records this process as its owner until its
 * status changes (`streaming-recovery.ts` marks the ones whose writer died).
 */
import type Database from 'better-sqlite3';
import type {
  Conversation,
  ConversationSettings,
  Message,
  MessagePart,
  MessageStatus,
  TurnRecord,
} from '../../../shared/dto';
import type {
  Clock,
  ConversationStore,
  MessagePage,
  MessagePageRequest,
  NewerMessagePage,
  MessageSearchHit,
  MessagePatch,
  TitleSource,
  TurnClaim,
} from '../../core/ports';
import { replaceSearchEntry, searchMessages } from './message-search';
import { toConversation, toMessage, toMessagePart, toTurnRecord } from './row-mapping';
import type { ConversationRow, MessageRow, PartRow, TurnRecordRow } from './row-mapping';
import type { Statements } from './statements';
import { notFound } from './store-errors';
import type { StreamingClaims } from './streaming-recovery';
import type { TurnLeases } from './turn-leases';

/** `path(id, …)`: the shown path of the conversation given as the one parameter, end first. */
const SHOWN_PATH = `WITH RECURSIVE path(id, parent_id, depth) AS (
  SELECT m.id, m.parent_id, 0 FROM conversations c JOIN messages m ON m.id = c.active_leaf_id
  WHERE c.id = ?
  UNION ALL
  SELECT m.id, m.parent_id, p.depth + 1 FROM messages m JOIN path p ON m.id = p.parent_id
  WHERE p.depth < 1000000)`;

export class SqliteConversations implements ConversationStore {
  constructor(
    private readonly database: Database.Database,
    private readonly sql: Statements,
    private readonly clock: Clock,
    private readonly streaming: StreamingClaims,
    private readonly leases: TurnLeases,
  ) {}

  /** See `ConversationStore.claimTurn` and `turn-leases.ts`. */
  claimTurn(conversationId: string, turnId: string): TurnClaim | null {
    return this.leases.claim(conversationId, turnId);
  }

  createConversation(input: { id: string; title: string; modelId: string | null }): Conversation {
    const now = this.clock.now();
    this.sql.run(
      `INSERT INTO conversations (id, title, model_id, created_at, updated_at)
       VALUES (@id, @title, @modelId, @now, @now)`,
      { ...input, now },
    );
    return {
      ...input,
      createdAt: now,
      updatedAt: now,
      toolToggles: {},
      settings: {},
      pinnedAt: null,
    };
  }

  /** Replaces the conversation's own settings (not activity). Throws `not-found`. */
  setConversationSettings(id: string, settings: ConversationSettings): void {
    const sql = 'UPDATE conversations SET settings = ? WHERE id = ?';
    if (this.sql.run(sql, JSON.stringify(settings), id).changes === 0) {
      throw notFound('Conversation', id);
    }
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

  /** Creation order is rowid order (a new row gets the largest rowid), which needs no sort. */
  listConversationPage(request: { from: number | null; limit: number }): {
    conversations: Conversation[];
    next: number | null;
  } {
    const rows = this.sql.all<ConversationRow & { position: number }>(
      'SELECT rowid AS position, * FROM conversations WHERE rowid > ? ORDER BY rowid LIMIT ?',
      request.from ?? 0,
      request.limit + 1,
    );
    const page = rows.slice(0, request.limit);
    return {
      conversations: page.map(toConversation),
      next: rows.length > request.limit ? (page.at(-1)?.position ?? null) : null,
    };
  }

  /** Throws `not-found` when the conversation does not exist. */
  renameConversation(id: string, title: string): void {
    // A new title is not activity: the conversation keeps its place in the list.
    const sql = "UPDATE conversations SET title = ?, title_source = 'user' WHERE id = ?";
    if (this.sql.run(sql, title, id).changes === 0) {
      throw notFound('Conversation', id);
    }
  }

  getTitleSource(id: string): TitleSource | null {
    const row = this.sql.get<{ title_source: TitleSource }>(
      'SELECT title_source FROM conversations WHERE id = ?',
      id,
    );
    return row?.title_source ?? null;
  }

  /** One statement, so a rename in another process between the check and the write still wins. */
  setGeneratedTitle(id: string, title: string): boolean {
    const sql = `UPDATE conversations SET title = ?, title_source = 'generated'
                 WHERE id = ? AND title_source = 'message'`;
    return this.sql.run(sql, title, id).changes > 0;
  }

  /** Deletes the conversation with its messages, parts, turn records and search entries. */
  deleteConversation(id: string): void {
    this.sql.run('DELETE FROM conversations WHERE id = ?', id);
  }

  /**
   * One short transaction of a long deletion: up to `limit` of the conversation's messages go,
   * newest first (a message's replies and later versions are newer, so what is left is a whole
   * tree, its path ending at the newest message left); when none is left, the conversation.
   * True once the conversation is gone.
   */
  deleteConversationPart(id: string, limit: number): boolean {
    return this.sql.write(() => {
      const deleted = this.sql.run(
        `DELETE FROM messages WHERE seq IN (
           SELECT seq FROM messages WHERE conversation_id = ?
           ORDER BY created_at DESC, seq DESC LIMIT ?)`,
        id,
        limit,
      ).changes;
      const newest = this.sql.get<{ id: string }>(
        `SELECT id FROM messages WHERE conversation_id = ?
         ORDER BY created_at DESC, seq DESC LIMIT 1`,
        id,
      );
      if (newest === undefined) {
        this.sql.run('DELETE FROM conversations WHERE id = ?', id);
        return true;
      }
      if (deleted > 0) {
        this.sql.run('UPDATE conversations SET active_leaf_id = ? WHERE id = ?', newest.id, id);
      }
      return false;
    });
  }

  /**
   * Deletes one message; its parts and turn record go with it (ON DELETE CASCADE). The messages
   * that followed it now follow its parent; if the conversation showed it, the path now ends
   * under its parent. Throws `not-found`.
   */
  deleteMessage(id: string): void {
    this.sql.write(() => {
      const row = this.requireMessage(id);
      this.sql.run('UPDATE messages SET parent_id = ? WHERE parent_id = ?', row.parent_id, id);
      this.sql.run('DELETE FROM messages WHERE id = ?', id);
      this.repairActiveLeaf(row.conversation_id, row.parent_id);
    });
  }

  /**
   * Deletes a message with everything that follows it in the tree (its versions' later turns
   * included). Throws `not-found`.
   */
  deleteBranch(id: string): void {
    this.sql.write(() => {
      const row = this.requireMessage(id);
      this.sql.run(
        `WITH RECURSIVE branch(id) AS (
           SELECT ? UNION ALL SELECT m.id FROM messages m JOIN branch b ON m.parent_id = b.id)
         DELETE FROM messages WHERE id IN (SELECT id FROM branch)`,
        id,
      );
      this.repairActiveLeaf(row.conversation_id, row.parent_id);
    });
  }

  hasStreamingUnder(ids: readonly string[]): boolean {
    if (ids.length === 0) return false;
    const row = this.sql.get<{ found: number }>(
      `WITH RECURSIVE branch(id) AS (
         SELECT value FROM json_each(?)
         UNION SELECT m.id FROM messages m JOIN branch b ON m.parent_id = b.id)
       SELECT EXISTS (SELECT 1 FROM messages m JOIN branch b ON m.id = b.id
                      WHERE m.status = 'streaming') AS found`,
      JSON.stringify(ids),
    );
    return row?.found === 1;
  }

  /**
   * Shows the path through `messageId`: the conversation's path now runs through it and on to
   * the newest message under it. Not activity. Throws `not-found` when the message is not in the
   * conversation.
   */
  showVersion(conversationId: string, messageId: string): void {
    this.sql.write(() => {
      this.requireMessageIn(messageId, conversationId);
      const sql = 'UPDATE conversations SET active_leaf_id = ? WHERE id = ?';
      this.sql.run(sql, this.newestLeafUnder(messageId), conversationId);
    });
  }

  /**
   * Inserts a message with its parts after `parentId` (absent: after the last message of the
   * path the conversation shows) and makes it the end of that path. A `streaming` one records
   * this process as its owner until its status changes. Throws `not-found` when the conversation
   * or the parent does not exist in it.
   */
  createMessage(input: {
    id: string;
    conversationId: string;
    parentId?: string | null;
    role: Message['role'];
    status: Message['status'];
    parts: MessagePart[];
  }): Message {
    const now = this.clock.now();
    const { parentId: requestedParent, ...fields } = input;
    let parentId: string | null = null;
    this.sql.write(() => {
      const conversation = this.getConversationRow(input.conversationId);
      parentId = requestedParent === undefined ? conversation.active_leaf_id : requestedParent;
      if (parentId !== null) this.requireMessageIn(parentId, input.conversationId);
      const { lastInsertRowid } = this.sql.run(
        `INSERT INTO messages (id, conversation_id, parent_id, role, status, created_at,
           updated_at, owner_pid)
         VALUES (@id, @conversationId, @parentId, @role, @status, @now, @now, @ownerPid)`,
        {
          ...fields,
          parentId,
          now,
          ownerPid: input.status === 'streaming' ? process.pid : null,
        },
      );
      this.replaceParts(input.id, Number(lastInsertRowid), input.conversationId, input.parts);
      this.sql.run(
        'UPDATE conversations SET updated_at = ?, active_leaf_id = ? WHERE id = ?',
        now,
        input.id,
        input.conversationId,
      );
    });
    this.streaming.set(input.id, input.status === 'streaming');
    return { ...fields, parentId, createdAt: now, updatedAt: now };
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

  /**
   * The path the conversation shows, first message first: from the first message to the end of
   * the active path (`active_leaf_id`), each with its parts in order.
   */
  listMessages(conversationId: string): Message[] {
    const all = this.listAllMessages(conversationId);
    const byId = new Map(all.map((message) => [message.id, message]));
    const leaf =
      this.getConversation(conversationId) === null ? null : this.activeLeaf(conversationId);
    const path: Message[] = [];
    // Bounded by the message count, so a (corrupt) cycle cannot loop forever.
    for (let id = leaf; id !== null && path.length < all.length;) {
      const message = byId.get(id);
      if (!message) break;
      path.push(message);
      id = message.parentId;
    }
    return path.reverse();
  }

  /**
   * A page of the path through `request.from` (default: the shown path's end), walking parent
   * links back from it: one primary-key lookup per message, so a page costs the same in a
   * conversation of 20 or 20,000 messages. With `through`, the walk goes on past `limit` until it
   * has reached that message (when it is not on the path: `limit` messages, as without).
   */
  listMessagePage(conversationId: string, request: MessagePageRequest): MessagePage {
    return this.sql.read(() => {
      const from = request.from ?? this.activeLeaf(conversationId);
      if (from === null) return { messages: [], older: null };
      this.requireMessageIn(from, conversationId);
      const limit = Math.max(1, Math.trunc(request.limit));
      const through = request.through ?? null;
      let rows = this.sql.all<MessageRow & { reached: number }>(
        `WITH RECURSIVE page(id, parent_id, depth, reached) AS (
           SELECT id, parent_id, 0, id = @through FROM messages WHERE id = @from
           UNION ALL
           SELECT m.id, m.parent_id, p.depth + 1, p.reached OR m.id = @through
           FROM messages m JOIN page p ON m.id = p.parent_id
           WHERE (p.depth + 1 < @limit OR (@through IS NOT NULL AND NOT p.reached))
             AND p.depth < 1000000)
         SELECT m.*, page.reached FROM page JOIN messages m ON m.id = page.id
         ORDER BY page.depth`,
        { from, limit, through },
      );
      if (through !== null && rows.at(-1)?.reached !== 1) rows = rows.slice(0, limit);
      const oldest = rows.at(-1);
      const parts = this.partsOf(rows.map((row) => row.id));
      const messages = rows.reverse().map((row) => toMessage(row, parts.get(row.id) ?? []));
      return { messages, older: oldest?.parent_id ?? null };
    });
  }

  /**
   * The messages after `request.after` on the shown path. The path is linked child to parent
   * only, so the walk goes back from its end to `after` reading ids alone (a primary-key lookup
   * per message, a few milliseconds for 20,000); only the page's own messages get their parts.
   */
  listNewerPage(
    conversationId: string,
    request: { after: string; limit: number },
  ): NewerMessagePage | null {
    return this.sql.read(() => {
      this.requireMessageIn(request.after, conversationId);
      const limit = Math.max(1, Math.trunc(request.limit));
      // Leaf first: the rows before `after` are the messages after it, the nearest last.
      const walk = this.sql.all<{ id: string }>(
        `WITH RECURSIVE walk(id, parent_id, depth) AS (
           SELECT m.id, m.parent_id, 0 FROM conversations c
           JOIN messages m ON m.id = c.active_leaf_id WHERE c.id = @conversationId
           UNION ALL
           SELECT m.id, m.parent_id, w.depth + 1 FROM messages m JOIN walk w ON m.id = w.parent_id
           WHERE w.id <> @after AND w.depth < 1000000)
         SELECT id FROM walk ORDER BY depth`,
        { conversationId, after: request.after },
      );
      const at = walk.findIndex((row) => row.id === request.after);
      if (at < 0) return null;
      const pageIds = walk
        .slice(Math.max(0, at - limit), at)
        .map((row) => row.id)
        .reverse();
      const rows = this.sql.all<MessageRow>(
        'SELECT * FROM messages WHERE id IN (SELECT value FROM json_each(?))',
        JSON.stringify(pageIds),
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      const parts = this.partsOf(pageIds);
      const messages = pageIds.flatMap((id) => {
        const row = byId.get(id);
        return row === undefined ? [] : [toMessage(row, parts.get(id) ?? [])];
      });
      return { messages, newer: at > limit ? (pageIds.at(-1) ?? null) : null };
    });
  }

  /** The parts of these messages, in order, by message id. */
  private partsOf(messageIds: readonly string[]): Map<string, MessagePart[]> {
    const partsByMessage = new Map<string, MessagePart[]>();
    const partRows = this.sql.all<PartRow>(
      `SELECT message_id, data FROM message_parts
       WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY message_id, position`,
      JSON.stringify(messageIds),
    );
    for (const partRow of partRows) {
      const parts = partsByMessage.get(partRow.message_id) ?? [];
      parts.push(toMessagePart(partRow));
      partsByMessage.set(partRow.message_id, parts);
    }
    return partsByMessage;
  }

  /** Every message of the conversation, every version, in creation order, with its parts. */
  listAllMessages(conversationId: string): Message[] {
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

  /**
   * For each message with other versions (siblings: the same parent), the ids of all of them in
   * creation order, its own included. Messages without other versions are left out.
   */
  listVersions(conversationId: string): Record<string, string[]> {
    const rows = this.sql.all<{ id: string; parent_id: string | null }>(
      `SELECT id, parent_id FROM messages WHERE conversation_id = ? ORDER BY created_at, seq`,
      conversationId,
    );
    const byParent = new Map<string | null, string[]>();
    for (const row of rows) {
      const siblings = byParent.get(row.parent_id) ?? [];
      siblings.push(row.id);
      byParent.set(row.parent_id, siblings);
    }
    const versions: Record<string, string[]> = {};
    for (const siblings of byParent.values()) {
      if (siblings.length < 2) continue;
      for (const id of siblings) versions[id] = siblings;
    }
    return versions;
  }

  /**
   * `listVersions` restricted to `messages` (a page): the siblings of each, read through their
   * parents (an index lookup each), so the cost follows the page, not the conversation.
   */
  listVersionsOf(conversationId: string, messages: readonly Message[]): Record<string, string[]> {
    const parents = [
      ...new Set(messages.flatMap((m) => (m.parentId === null ? [] : [m.parentId]))),
    ];
    const hasRoot = messages.some((message) => message.parentId === null);
    const rows = this.sql.all<{ id: string; parent_id: string | null }>(
      `SELECT id, parent_id FROM messages
       WHERE parent_id IN (SELECT value FROM json_each(?)) AND conversation_id = ?
       ORDER BY created_at, seq`,
      JSON.stringify(parents),
      conversationId,
    );
    if (hasRoot) {
      rows.push(
        ...this.sql.all<{ id: string; parent_id: string | null }>(
          `SELECT id, parent_id FROM messages WHERE parent_id IS NULL AND conversation_id = ?
           ORDER BY created_at, seq`,
          conversationId,
        ),
      );
    }
    const byParent = new Map<string | null, string[]>();
    for (const row of rows) {
      const siblings = byParent.get(row.parent_id) ?? [];
      siblings.push(row.id);
      byParent.set(row.parent_id, siblings);
    }
    const versions: Record<string, string[]> = {};
    for (const message of messages) {
      const siblings = byParent.get(message.parentId);
      if (siblings !== undefined && siblings.length > 1) versions[message.id] = siblings;
    }
    return versions;
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
         taint, model_name, usage, omitted_messages)
       VALUES (@id, @conversationId, @messageId, @modelId, @stopReason, @toolCalls,
         @providerRounds, @startedAt, @durationMs, @errorCode, @errorMessage, @budget, @taint,
         @modelName, @usage, @omittedMessages)`,
      {
        ...record,
        budget: record.budget === null ? null : JSON.stringify(record.budget),
        usage: record.usage === null ? null : JSON.stringify(record.usage),
        toolCalls: JSON.stringify(record.toolCalls),
        taint: record.taint === null ? null : JSON.stringify(record.taint),
        omittedMessages: record.omittedMessages ?? null,
      },
    );
  }

  /** See `ConversationStore.endAnswerNow`: busy_timeout 0 for its one transaction. */
  endAnswerNow(input: { messageId: string; status: MessageStatus; record?: TurnRecord }): boolean {
    const waited = this.database.pragma('busy_timeout', { simple: true }) as number;
    this.database.pragma('busy_timeout = 0');
    try {
      const ended = this.sql.write(() => {
        const sql = 'UPDATE messages SET status = ?, owner_pid = NULL, updated_at = ? WHERE id = ?';
        if (this.sql.run(sql, input.status, this.clock.now(), input.messageId).changes === 0) {
          return false;
        }
        if (input.record) this.saveTurnRecord(input.record);
        return true;
      });
      this.streaming.set(input.messageId, false);
      return ended;
    } finally {
      this.database.pragma(`busy_timeout = ${waited}`);
    }
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

  /** The turn records of these messages, oldest first (through the message index). */
  listTurnRecordsOf(messageIds: readonly string[]): TurnRecord[] {
    return this.sql
      .all<TurnRecordRow>(
        `SELECT * FROM turn_records WHERE message_id IN (SELECT value FROM json_each(?))
         ORDER BY started_at, rowid`,
        JSON.stringify(messageIds),
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
    // Only what the conversations show counts: hits in versions off their path are dropped.
    const wanted = Math.min(Math.max(Math.trunc(limit ?? 20) || 1, 1), 200);
    const hits = searchMessages(this.database, query, wanted * 4);
    const shown = new Map<string, Set<string>>();
    const onPath = (hit: MessageSearchHit): boolean => {
      let ids = shown.get(hit.conversationId);
      if (!ids) {
        ids = this.activePathIds(hit.conversationId);
        shown.set(hit.conversationId, ids);
      }
      return ids.has(hit.messageId);
    };
    return hits.filter(onPath).slice(0, wanted);
  }

  countShownMessages(conversationId: string): number {
    const sql = `${SHOWN_PATH} SELECT count(*) AS count FROM path`;
    return this.sql.get<{ count: number }>(sql, conversationId)?.count ?? 0;
  }

  /** The ids on a conversation's shown path (none when it does not exist). */
  private activePathIds(conversationId: string): Set<string> {
    const rows = this.sql.all<{ id: string }>(`${SHOWN_PATH} SELECT id FROM path`, conversationId);
    return new Set(rows.map((row) => row.id));
  }

  private activeLeaf(conversationId: string): string | null {
    return this.getConversationRow(conversationId).active_leaf_id;
  }

  private getConversationRow(id: string): ConversationRow {
    const row = this.sql.get<ConversationRow>('SELECT * FROM conversations WHERE id = ?', id);
    if (row === undefined) throw notFound('Conversation', id);
    return row;
  }

  private requireMessage(id: string): { parent_id: string | null; conversation_id: string } {
    const row = this.sql.get<{ parent_id: string | null; conversation_id: string }>(
      'SELECT parent_id, conversation_id FROM messages WHERE id = ?',
      id,
    );
    if (row === undefined) throw notFound('Message', id);
    return row;
  }

  private requireMessageIn(id: string, conversationId: string): void {
    if (this.requireMessage(id).conversation_id !== conversationId) throw notFound('Message', id);
  }

  /** The end of the newest path under `id` (each step takes the newest child). */
  private newestLeafUnder(id: string): string {
    let leaf = id;
    for (;;) {
      const child = this.sql.get<{ id: string }>(
        'SELECT id FROM messages WHERE parent_id = ? ORDER BY created_at DESC, seq DESC LIMIT 1',
        leaf,
      );
      if (child === undefined) return leaf;
      leaf = child.id;
    }
  }

  /**
   * After a delete: when the shown path's end is gone, the path ends at the newest message under
   * `parentId` (the deleted message's parent), or the newest first message when it had none.
   */
  private repairActiveLeaf(conversationId: string, parentId: string | null): void {
    const leaf = this.getConversationRow(conversationId).active_leaf_id;
    if (leaf !== null && this.sql.get('SELECT 1 FROM messages WHERE id = ?', leaf) !== undefined)
      return;
    let next: string | null = parentId;
    if (next === null) {
      const root = this.sql.get<{ id: string }>(
        `SELECT id FROM messages WHERE conversation_id = ? AND parent_id IS NULL
         ORDER BY created_at DESC, seq DESC LIMIT 1`,
        conversationId,
      );
      next = root?.id ?? null;
    }
    const sql = 'UPDATE conversations SET active_leaf_id = ? WHERE id = ?';
    this.sql.run(sql, next === null ? null : this.newestLeafUnder(next), conversationId);
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
