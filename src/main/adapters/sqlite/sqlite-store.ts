/**
 * The SQLite stores: one better-sqlite3 connection (WAL, schema from numbered migrations, see
 * `open-database.ts`); streaming messages are written progressively and marked `interrupted` when
 * their writer died. The app and the CLI may open the same file at once: every read-then-write
 * runs in an IMMEDIATE transaction so they queue on the write lock instead of failing midway.
 *
 * `SqliteStore` owns the connection and hands out one object per aggregate port, all on it:
 * `conversations` (`ConversationStore`: conversations, messages, turn records,
 * `conversation-store.ts`), `memories` (`MemoryStore`, `memory-store.ts`), `settings`
 * (`SettingsStore`: settings, models, tool switches, `settings-store.ts`), `library`
 * (`LibraryStore`: skills, prompt templates, `library-store.ts`), `mcp` (`McpStore`,
 * `mcp-store.ts`) and `knowledge` (`KnowledgeStore`: knowledge folders, their passages and
 * full-text index, `knowledge-store.ts`). Consumers depend on the one port they use.
 */
import { resolve } from 'node:path';
import type Database from 'better-sqlite3';
import type { Clock } from '../../core/ports';
import { SqliteConversations } from './conversation-store';
import { SqliteKnowledge } from './knowledge-store';
import { SqliteLibrary } from './library-store';
import { SqliteMcpStore } from './mcp-store';
import { SqliteMemories } from './memory-store';
import { describeConnection, openDatabase } from './open-database';
import type { ConnectionInfo, OpenOptions, SchemaUpgrade } from './open-database';
import { SqliteSettings } from './settings-store';
import { Statements } from './statements';
import {
  markOrphanedMessagesInterrupted,
  orphanedMessages,
  StreamingClaims,
} from './streaming-recovery';
import { TurnLeases } from './turn-leases';
import { copyDatabase, type DatabaseFacts } from '../backup/database-copy';
import { StorageError } from '../../../shared/errors';
import { clearDamage, knownDamage } from './damage-marker';
import { damagedDatabase } from './storage-faults';
import { DamageWatch } from './damage-watch';
import { listUpgradeSnapshots } from './upgrade-snapshots';
import type { UpgradeSnapshot } from './upgrade-snapshots';

export type { ConnectionInfo, SchemaUpgrade } from './open-database';
export type { UpgradeSnapshot } from './upgrade-snapshots';
export { SNIPPET_MARK } from './message-search';

/**
 * Opens (creating if needed) the database at `path`, applies pending migrations and marks the
 * streaming messages of dead writers `interrupted`. The parent directory must exist.
 */
export function openStore(
  path: string,
  options: { clock?: Clock } & OpenOptions = {},
): SqliteStore {
  const store = new SqliteStore(path, options.clock ?? { now: () => Date.now() }, options);
  store.recoverInterruptedMessages();
  return store;
}

/**
 * Every store on one SQLite file. Use one instance per file per process; `close()` when done.
 */
export class SqliteStore {
  private readonly database: Database.Database;
  private readonly clock: Clock;
  private readonly streaming: StreamingClaims;
  private readonly leases: TurnLeases;
  readonly conversations: SqliteConversations;
  readonly memories: SqliteMemories;
  readonly settings: SqliteSettings;
  readonly library: SqliteLibrary;
  /** MCP services, snapshots and approvals (mcp-store.ts). */
  readonly mcp: SqliteMcpStore;
  /** Knowledge folders, files, passages and their index (knowledge-store.ts). */
  readonly knowledge: SqliteKnowledge;
  private readonly sql: Statements;
  /** The schema upgrade this open made (with the copy saved before it), or null. */
  readonly upgrade: SchemaUpgrade | null;

  /** Opens and migrates the file; does not recover interrupted messages (`openStore` does). */
  constructor(path: string, clock: Clock, options: OpenOptions = {}) {
    const resolvedPath = resolve(path);
    this.clock = clock;
    this.streaming = new StreamingClaims(resolvedPath);
    const opened = openDatabase(resolvedPath, options);
    this.database = opened.database;
    this.upgrade = opened.upgrade;
    this.sql = new Statements(this.database, new DamageWatch(this.database, opened.damage));
    this.leases = new TurnLeases(resolvedPath, this.database, this.sql, clock, this.streaming);
    this.conversations = new SqliteConversations(
      this.database,
      this.sql,
      clock,
      this.streaming,
      this.leases,
    );
    this.memories = new SqliteMemories(this.sql, clock);
    this.settings = new SqliteSettings(this.sql);
    this.library = new SqliteLibrary(this.sql, clock);
    this.mcp = new SqliteMcpStore(this.sql, clock);
    this.knowledge = new SqliteKnowledge(this.sql, clock);
  }

  /**
   * Marks `interrupted` every `streaming` message whose writer is gone: its owner pid is not a
   * live process, or is this process's pid while no open store here is writing it (a leftover of
   * an earlier run that had the same pid). Parts are kept as far as they got; no turn record is
   * written. A message streamed by another live process is left alone. Returns how many it marked.
   *
   * Runs at every start, so it looks first without a lock and takes the write lock only when there
   * is something to mark; if another program holds that lock past the busy timeout, the marking is
   * left to the next start rather than failing this one.
   */
  recoverInterruptedMessages(): number {
    // A damaged file is not written: its streaming answers stay as they are.
    if (this.sql.damage.current() !== null) return 0;
    const candidates = this.sql.read(() => orphanedMessages(this.database, this.streaming));
    if (candidates.length === 0) return 0;
    try {
      return this.sql.write(() =>
        markOrphanedMessagesInterrupted(this.database, this.streaming, this.clock.now()),
      );
    } catch (error) {
      if (error instanceof StorageError && error.problem === 'locked') return 0;
      throw error;
    }
  }

  /**
   * Reads every page (`PRAGMA quick_check`; O(size), so for `aivory doctor`, not every start) and
   * returns the damage found as a `StorageError` (the file copied beside itself), or null. A file
   * recorded as damaged gets the full `integrity_check` (indexes against their tables too): when
   * that finds nothing (the user repaired the file in place), the record is cleared and the next
   * start writes to it again.
   */
  checkIntegrity(): StorageError | null {
    const recorded = knownDamage(this.database.name) !== null;
    const check = recorded ? 'integrity_check' : 'quick_check';
    const problems = this.sql
      .all<Record<string, string>>(`PRAGMA ${check}(3)`)
      .map((row) => row[check] ?? '')
      .filter((text) => text !== 'ok');
    if (problems.length > 0)
      return damagedDatabase(this.database.name, `${check}: ${problems.join('; ')}`);
    if (recorded) clearDamage(this.database.name);
    return null;
  }

  /** The copies made before schema upgrades, kept beside the file, newest first. */
  upgradeSnapshots(): UpgradeSnapshot[] {
    return listUpgradeSnapshots(this.database.name);
  }

  /** The pragmas and schema version the connection runs with. */
  connectionInfo(): ConnectionInfo {
    return describeConnection(this.database);
  }

  /**
   * A consistent copy of the database at `target` (a new file) over this connection, for a
   * backup: this process's writes during the copy go into it (`backup/database-copy.ts`).
   */
  copyTo(target: string, signal?: AbortSignal): Promise<DatabaseFacts> {
    return copyDatabase(this.database, target, signal);
  }

  /**
   * Closes the connection. Messages still streaming here become recoverable by any opener, and
   * the turn leases held here are given back.
   */
  close(): void {
    this.leases.releaseAll();
    this.streaming.releaseAll();
    this.database.close();
  }
}
