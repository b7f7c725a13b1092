/**
 * The SQLite `Store`: one better-sqlite3 connection (WAL, schema from numbered migrations, see
 * `open-database.ts`); streaming messages are written progressively and marked `interrupted` when
 * their writer died. The app and the CLI may open the same file at once: every read-then-write
 * runs in an IMMEDIATE transaction so they queue on the write lock instead of failing midway.
 */
import { resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { AivoryError } from '../../../shared/errors';
import type {
  Conversation,
  Memory,
  Message,
  MessagePart,
  ModelConfig,
  PromptTemplate,
  Skill,
  SkillAsset,
  TurnRecord,
} from '../../../shared/dto';
import type {
  Clock,
  MemoryPatch,
  MessagePatch,
  NewSkill,
  PromptTemplatePatch,
  SkillAssetInput,
  SkillPatch,
  Store,
} from '../../core/ports';
import { SqliteLibrary } from './library-store';
import { SqliteMcpStore } from './mcp-store';
import { Statements } from './statements';
import { describeConnection, openDatabase } from './open-database';
import type { ConnectionInfo } from './open-database';
import { replaceSearchEntry, searchMessages } from './message-search';
import type { MessageSearchHit } from './message-search';
import { markOrphanedMessagesInterrupted, StreamingClaims } from './streaming-recovery';
import {
  toConversation,
  toMemory,
  toMessage,
  toMessagePart,
  toModelConfig,
  toTurnRecord,
} from './row-mapping';
import type {
  ConversationRow,
  MemoryRow,
  MessageRow,
  ModelRow,
  PartRow,
  TurnRecordRow,
} from './row-mapping';

export type { ConnectionInfo } from './open-database';
export type { MessageSearchHit } from './message-search';
export { SNIPPET_MARK } from './message-search';

/**
 * Opens (creating if needed) the database at `path`, applies pending migrations and marks the
 * streaming messages of dead writers `interrupted`. The parent directory must exist.
 */
export function openStore(path: string, options: { clock?: Clock } = {}): SqliteStore {
  const store = new SqliteStore(path, options.clock ?? { now: () => Date.now() });
  store.recoverInterruptedMessages();
  return store;
}

/** A `Store` on one SQLite file. Use one instance per file per process; `close()` when done. */
export class SqliteStore implements Store {
  private readonly database: Database.Database;
  private readonly clock: Clock;
  private readonly streaming: StreamingClaims;
  private readonly library: SqliteLibrary;
  /** MCP services, snapshots and approvals (mcp-store.ts). */
  readonly mcp: SqliteMcpStore;
  private readonly sql: Statements;

  /** Opens and migrates the file; does not recover interrupted messages (`openStore` does). */
  constructor(path: string, clock: Clock) {
    const resolvedPath = resolve(path);
    this.clock = clock;
    this.streaming = new StreamingClaims(resolvedPath);
    this.database = openDatabase(resolvedPath);
    this.sql = new Statements(this.database);
    this.library = new SqliteLibrary(this.sql, clock);
    this.mcp = new SqliteMcpStore(this.sql, clock);
  }

  createConversation(input: { id: string; title: string; modelId: string | null }): Conversation {
    const now = this.clock.now();
    this.sql.run(
      `INSERT INTO conversations (id, title, model_id, created_at, updated_at)
       VALUES (@id, @title, @modelId, @now, @now)`,
      { ...input, now },
    );
    return { ...input, createdAt: now, updatedAt: now, toolToggles: {} };
  }

  /** Replaces the conversation's own tool switches. Throws `not-found` when it does not exist. */
  setConversationToolToggles(id: string, toggles: Record<string, boolean>): void {
    const sql = 'UPDATE conversations SET tool_toggles = ? WHERE id = ?';
    if (this.sql.run(sql, JSON.stringify(toggles), id).changes === 0) {
      throw notFound('Conversation', id);
    }
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
    const sql = 'UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?';
    if (this.sql.run(sql, title, this.clock.now(), id).changes === 0) {
      throw notFound('Conversation', id);
    }
  }

  /** Deletes the conversation with its messages, parts, turn records and search entries. */
  deleteConversation(id: string): void {
    this.sql.run('DELETE FROM conversations WHERE id = ?', id);
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
         tool_calls, provider_rounds, started_at, duration_ms, error_code)
       VALUES (@id, @conversationId, @messageId, @modelId, @stopReason, @toolCalls,
         @providerRounds, @startedAt, @durationMs, @errorCode)`,
      { ...record, toolCalls: JSON.stringify(record.toolCalls) },
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
   * Inserts a memory stamped now and `ACTIVE` unless told otherwise, or updates the one with the
   * same id (keeping its creation time, and its status when none is given). Returns what is stored.
   */
  saveMemory(input: Omit<Memory, 'createdAt' | 'status'> & { status?: Memory['status'] }): Memory {
    return this.sql.write(() => {
      this.sql.run(
        `INSERT INTO memories (id, memory_text, slot, value, status, created_at, conversation_id)
         VALUES (@id, @memoryText, @slot, @value, COALESCE(@status, 'ACTIVE'), @createdAt,
           @conversationId)
         ON CONFLICT (id) DO UPDATE SET memory_text = excluded.memory_text, slot = excluded.slot,
           value = excluded.value, status = COALESCE(@status, memories.status),
           conversation_id = excluded.conversation_id`,
        {
          id: input.id,
          memoryText: input.memoryText,
          slot: input.slot,
          value: input.value,
          status: input.status ?? null,
          createdAt: this.clock.now(),
          conversationId: input.conversationId,
        },
      );
      const row = this.sql.get<MemoryRow>('SELECT * FROM memories WHERE id = ?', input.id);
      if (row === undefined) throw notFound('Memory', input.id);
      return toMemory(row);
    });
  }

  /** Oldest first. */
  listMemories(): Memory[] {
    return this.sql
      .all<MemoryRow>('SELECT * FROM memories ORDER BY created_at, rowid')
      .map(toMemory);
  }

  // Memory edits, skills and prompt templates: see library-store.ts for what each promises.
  getMemory(id: string): Memory | null {
    return this.library.getMemory(id);
  }
  updateMemory(id: string, patch: MemoryPatch): Memory {
    return this.library.updateMemory(id, patch);
  }
  deleteMemory(id: string): boolean {
    return this.library.deleteMemory(id);
  }
  listSkills(): Skill[] {
    return this.library.listSkills();
  }
  getSkill(name: string): Skill | null {
    return this.library.getSkill(name);
  }
  createSkill(input: NewSkill): Skill {
    return this.library.createSkill(input);
  }
  updateSkill(name: string, patch: SkillPatch): Skill {
    return this.library.updateSkill(name, patch);
  }
  deleteSkill(name: string): boolean {
    return this.library.deleteSkill(name);
  }
  putSkillAsset(skillName: string, asset: SkillAssetInput): SkillAsset {
    return this.library.putSkillAsset(skillName, asset);
  }
  readSkillAsset(skillName: string, assetName: string): Uint8Array | null {
    return this.library.readSkillAsset(skillName, assetName);
  }
  deleteSkillAsset(skillName: string, assetName: string): boolean {
    return this.library.deleteSkillAsset(skillName, assetName);
  }
  listPromptTemplates(): PromptTemplate[] {
    return this.library.listPromptTemplates();
  }
  getPromptTemplate(id: string): PromptTemplate | null {
    return this.library.getPromptTemplate(id);
  }
  createPromptTemplate(
    input: Pick<PromptTemplate, 'id' | 'title' | 'body' | 'tags'>,
  ): PromptTemplate {
    return this.library.createPromptTemplate(input);
  }
  updatePromptTemplate(id: string, patch: PromptTemplatePatch): PromptTemplate {
    return this.library.updatePromptTemplate(id, patch);
  }
  deletePromptTemplate(id: string): boolean {
    return this.library.deletePromptTemplate(id);
  }

  /** The JSON value stored under `key`, or undefined when there is none. */
  getSetting(key: string): unknown {
    const row = this.sql.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', key);
    if (row === undefined) return undefined;
    const value: unknown = JSON.parse(row.value);
    return value;
  }

  /** Stores `value` as JSON; `undefined` removes the key, so `getSetting` returns undefined. */
  setSetting(key: string, value: unknown): void {
    if (value === undefined) {
      this.sql.run('DELETE FROM settings WHERE key = ?', key);
      return;
    }
    this.sql.run(
      `INSERT INTO settings (key, value) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      key,
      JSON.stringify(value),
    );
  }

  /** In the order they were first saved. */
  listModels(): ModelConfig[] {
    return this.sql.all<ModelRow>('SELECT * FROM models ORDER BY rowid').map(toModelConfig);
  }

  /** Inserts or updates by id. Saving a default model makes every other model non-default. */
  saveModel(model: ModelConfig): void {
    this.sql.write(() => {
      if (model.isDefault) {
        this.sql.run('UPDATE models SET is_default = 0 WHERE is_default = 1 AND id != ?', model.id);
      }
      this.sql.run(
        `INSERT INTO models (id, label, base_url, model, tool_mode, context_window, default_tools,
           default_mcp_services, api_key_ref, is_default)
         VALUES (@id, @label, @baseUrl, @model, @toolMode, @contextWindow, @defaultTools,
           @defaultMcpServices, @apiKeyRef, @isDefault)
         ON CONFLICT (id) DO UPDATE SET label = excluded.label, base_url = excluded.base_url,
           model = excluded.model, tool_mode = excluded.tool_mode,
           context_window = excluded.context_window, default_tools = excluded.default_tools,
           default_mcp_services = excluded.default_mcp_services,
           api_key_ref = excluded.api_key_ref, is_default = excluded.is_default`,
        {
          ...model,
          defaultTools: JSON.stringify(model.defaultTools),
          defaultMcpServices:
            model.defaultMcpServices == null ? null : JSON.stringify(model.defaultMcpServices),
          isDefault: model.isDefault ? 1 : 0,
        },
      );
    });
  }

  deleteModel(id: string): void {
    this.sql.run('DELETE FROM models WHERE id = ?', id);
  }

  /** Only tools whose availability was set appear; callers apply their own default. */
  getToolAvailability(): Record<string, boolean> {
    const rows = this.sql.all<{ tool_name: string; enabled: number }>(
      'SELECT tool_name, enabled FROM tool_availability ORDER BY tool_name',
    );
    return Object.fromEntries(rows.map((row) => [row.tool_name, row.enabled === 1]));
  }

  setToolAvailability(name: string, enabled: boolean): void {
    this.sql.run(
      `INSERT INTO tool_availability (tool_name, enabled) VALUES (?, ?)
       ON CONFLICT (tool_name) DO UPDATE SET enabled = excluded.enabled`,
      name,
      enabled ? 1 : 0,
    );
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

  /**
   * Marks `interrupted` every `streaming` message whose writer is gone: its owner pid is not a
   * live process, or is this process's pid while no open store here is writing it (a leftover of
   * an earlier run that had the same pid). Parts are kept as far as they got; no turn record is
   * written. A message streamed by another live process is left alone. Returns how many it marked.
   */
  recoverInterruptedMessages(): number {
    return this.sql.write(() =>
      markOrphanedMessagesInterrupted(this.database, this.streaming, this.clock.now()),
    );
  }

  /** The pragmas and schema version the connection runs with. */
  connectionInfo(): ConnectionInfo {
    return describeConnection(this.database);
  }

  /** Closes the connection. Messages still streaming here become recoverable by any opener. */
  close(): void {
    this.streaming.releaseAll();
    this.database.close();
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

function notFound(kind: string, id: string): AivoryError {
  return new AivoryError('not-found', `${kind} ${id} does not exist.`);
}
