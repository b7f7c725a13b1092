/**
 * The SQLite stores: one better-sqlite3 connection (WAL, schema from numbered migrations, see
 * `open-database.ts`); streaming messages are written progressively and marked `interrupted` when
 * their writer died. The app and the CLI may open the same file at once: every read-then-write
 * runs in an IMMEDIATE transaction so they queue on the write lock instead of failing midway.
 *
 * `SqliteStore` owns the connection and implements each aggregate's port by delegating:
 * `ConversationStore` (conversations, messages, turn records: `conversation-store.ts`),
 * `MemoryStore` (`memory-store.ts`), `SettingsStore` (settings, models, tool switches:
 * `settings-store.ts`), `LibraryStore` (skills, prompt templates: `library-store.ts`); the
 * `McpStore` is its `mcp` field (`mcp-store.ts`). Consumers depend on the one port they use.
 */
import { resolve } from 'node:path';
import type Database from 'better-sqlite3';
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
  ConversationStore,
  LibraryStore,
  MemoryPatch,
  MemoryStore,
  MessagePatch,
  MessageSearchHit,
  NewMemory,
  NewSkill,
  PromptTemplatePatch,
  SettingsStore,
  SkillAssetInput,
  SkillPatch,
} from '../../core/ports';
import { SqliteConversations } from './conversation-store';
import { SqliteLibrary } from './library-store';
import { SqliteMcpStore } from './mcp-store';
import { SqliteMemories } from './memory-store';
import { describeConnection, openDatabase } from './open-database';
import type { ConnectionInfo } from './open-database';
import { SqliteSettings } from './settings-store';
import { Statements } from './statements';
import { markOrphanedMessagesInterrupted, StreamingClaims } from './streaming-recovery';

export type { ConnectionInfo } from './open-database';
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

/**
 * Every store on one SQLite file. Use one instance per file per process; `close()` when done.
 */
export class SqliteStore implements ConversationStore, MemoryStore, SettingsStore, LibraryStore {
  private readonly database: Database.Database;
  private readonly clock: Clock;
  private readonly streaming: StreamingClaims;
  private readonly conversations: SqliteConversations;
  private readonly memories: SqliteMemories;
  private readonly settings: SqliteSettings;
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
    this.conversations = new SqliteConversations(this.database, this.sql, clock, this.streaming);
    this.memories = new SqliteMemories(this.sql, clock);
    this.settings = new SqliteSettings(this.sql);
    this.library = new SqliteLibrary(this.sql, clock);
    this.mcp = new SqliteMcpStore(this.sql, clock);
  }

  // Conversations, messages and turn records: see conversation-store.ts for what each promises.
  createConversation(input: { id: string; title: string; modelId: string | null }): Conversation {
    return this.conversations.createConversation(input);
  }
  setConversationToolToggles(id: string, toggles: Record<string, boolean>): void {
    this.conversations.setConversationToolToggles(id, toggles);
  }
  getConversation(id: string): Conversation | null {
    return this.conversations.getConversation(id);
  }
  listConversations(): Conversation[] {
    return this.conversations.listConversations();
  }
  renameConversation(id: string, title: string): void {
    this.conversations.renameConversation(id, title);
  }
  deleteConversation(id: string): void {
    this.conversations.deleteConversation(id);
  }
  createMessage(input: {
    id: string;
    conversationId: string;
    role: Message['role'];
    status: Message['status'];
    parts: MessagePart[];
  }): Message {
    return this.conversations.createMessage(input);
  }
  updateMessage(id: string, patch: MessagePatch): void {
    this.conversations.updateMessage(id, patch);
  }
  listMessages(conversationId: string): Message[] {
    return this.conversations.listMessages(conversationId);
  }
  getMessage(id: string): Message | null {
    return this.conversations.getMessage(id);
  }
  saveTurnRecord(record: TurnRecord): void {
    this.conversations.saveTurnRecord(record);
  }
  listTurnRecords(conversationId: string): TurnRecord[] {
    return this.conversations.listTurnRecords(conversationId);
  }
  searchMessages(query: string, limit?: number): MessageSearchHit[] {
    return this.conversations.searchMessages(query, limit);
  }

  // Memories: see memory-store.ts.
  saveMemory(input: NewMemory): Memory {
    return this.memories.saveMemory(input);
  }
  listMemories(): Memory[] {
    return this.memories.listMemories();
  }
  getMemory(id: string): Memory | null {
    return this.memories.getMemory(id);
  }
  updateMemory(id: string, patch: MemoryPatch): Memory {
    return this.memories.updateMemory(id, patch);
  }
  deleteMemory(id: string): boolean {
    return this.memories.deleteMemory(id);
  }

  // Skills and prompt templates: see library-store.ts.
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

  // Settings, models and tool switches: see settings-store.ts.
  getSetting(key: string): unknown {
    return this.settings.getSetting(key);
  }
  setSetting(key: string, value: unknown): void {
    this.settings.setSetting(key, value);
  }
  listModels(): ModelConfig[] {
    return this.settings.listModels();
  }
  saveModel(model: ModelConfig): void {
    this.settings.saveModel(model);
  }
  deleteModel(id: string): void {
    this.settings.deleteModel(id);
  }
  getToolAvailability(): Record<string, boolean> {
    return this.settings.getToolAvailability();
  }
  setToolAvailability(name: string, enabled: boolean): void {
    this.settings.setToolAvailability(name, enabled);
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
}
