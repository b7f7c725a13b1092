/**
 * Which turn runs in a conversation, for every process on one database (`turn_leases`, migration
 * 015): a turn claims its conversation before it stores anything and gives it back when its answer
 * is finished, so two turns of one conversation never interleave, whether they come from two
 * windows of one app, the app and the CLI, or two CLI runs (issue 21).
 *
 * A lease names its owner's pid and carries a heartbeat the owner renews while the turn runs. It
 * is live while its owner is this process and still holds it here, or another process that is
 * alive and renewed it within `LEASE_STALE_MS`. Anything else is stale and the next claim takes it
 * over: an owner killed with SIGKILL at once (its pid is dead), a pid reused by an unrelated
 * process once the heartbeat is old, a lease this process left behind (a release that could not
 * be written, an earlier run with the same pid) at once.
 */
import type Database from 'better-sqlite3';
import type { Clock, TurnClaim } from '../../core/ports';
import type { Statements } from './statements';
import { notFound } from './store-errors';
import { isProcessAlive } from './streaming-recovery';
import type { StreamingClaims } from './streaming-recovery';

/** How often a running turn renews its lease. */
export const LEASE_HEARTBEAT_MS = 5_000;
/**
 * A lease not renewed for this long is stale even though its owner pid is alive (the pid was
 * reused after the owner died). Many heartbeats long, so a busy database or a slow event loop
 * never lets a live turn's lease go.
 */
export const LEASE_STALE_MS = 60_000;

/** Leases held by an open store of this process: `path\0conversationId` → turn id. */
const heldInThisProcess = new Map<string, string>();

interface LeaseRow {
  turn_id: string;
  owner_pid: number;
  heartbeat_at: number;
}

/** The leases one open store takes and renews. */
export class TurnLeases {
  /** This store's held leases by conversation: the turn and its heartbeat timer. */
  private readonly held = new Map<string, { turnId: string; timer: NodeJS.Timeout }>();

  constructor(
    /** The database file, resolved (one file, one key). */
    private readonly path: string,
    private readonly database: Database.Database,
    private readonly sql: Statements,
    private readonly clock: Clock,
    private readonly streaming: StreamingClaims,
  ) {}

  /**
   * Claims `conversationId` for `turnId` in one IMMEDIATE transaction, or returns null when a live
   * lease of another turn holds it. Taking over a stale lease first marks `interrupted` the
   * streaming answers its owner left in the conversation (their writer is gone), so the new turn
   * never follows or replays an answer that looks unfinished. Throws `not-found`.
   */
  claim(conversationId: string, turnId: string): TurnClaim | null {
    const taken = this.sql.write(() => {
      const now = this.clock.now();
      const exists = this.sql.get('SELECT 1 FROM conversations WHERE id = ?', conversationId);
      if (exists === undefined) throw notFound('Conversation', conversationId);
      const lease = this.sql.get<LeaseRow>(
        'SELECT turn_id, owner_pid, heartbeat_at FROM turn_leases WHERE conversation_id = ?',
        conversationId,
      );
      if (lease && this.isLive(conversationId, lease, now)) return false;
      this.interruptLeftovers(conversationId, lease?.owner_pid ?? null, now);
      this.sql.run(
        `INSERT OR REPLACE INTO turn_leases
           (conversation_id, turn_id, owner_pid, claimed_at, heartbeat_at)
         VALUES (?, ?, ?, ?, ?)`,
        conversationId,
        turnId,
        process.pid,
        now,
        now,
      );
      return true;
    });
    if (!taken) return null;
    heldInThisProcess.set(this.key(conversationId), turnId);
    const timer = setInterval(() => this.renew(conversationId, turnId), LEASE_HEARTBEAT_MS);
    timer.unref();
    this.held.set(conversationId, { turnId, timer });
    return { release: () => this.release(conversationId, turnId) };
  }

  /** Gives back every lease this store holds (before its connection closes). */
  releaseAll(): void {
    for (const [conversationId, { turnId }] of [...this.held]) this.release(conversationId, turnId);
  }

  /** Whether `lease` still keeps other turns out (see the file's comment). */
  private isLive(conversationId: string, lease: LeaseRow, now: number): boolean {
    if (lease.owner_pid === process.pid) {
      return heldInThisProcess.get(this.key(conversationId)) === lease.turn_id;
    }
    return isProcessAlive(lease.owner_pid) && now - lease.heartbeat_at < LEASE_STALE_MS;
  }

  /**
   * Marks `interrupted` the conversation's streaming messages no open store here writes and whose
   * owner is gone: no owner, a dead pid, this process's pid (a leftover), or `stalePid`, the
   * owner of the stale lease being taken over. Runs inside the claim's transaction.
   */
  private interruptLeftovers(conversationId: string, stalePid: number | null, now: number): void {
    const rows = this.sql.all<{ seq: number; id: string; owner_pid: number | null }>(
      "SELECT seq, id, owner_pid FROM messages WHERE conversation_id = ? AND status = 'streaming'",
      conversationId,
    );
    const mark = this.database.prepare(
      "UPDATE messages SET status = 'interrupted', owner_pid = NULL, updated_at = ? WHERE seq = ?",
    );
    for (const row of rows) {
      if (this.streaming.isWrittenHere(row.id)) continue;
      const owner = row.owner_pid;
      const gone =
        owner === null || owner === process.pid || owner === stalePid || !isProcessAlive(owner);
      if (gone) mark.run(now, row.seq);
    }
  }

  /**
   * Renews the heartbeat. A failure (a lock held past the busy timeout, a full disk) is left to
   * the next beat: the lease stays live for many beats. A lease taken over meanwhile (it went
   * stale) is not renewed any more.
   */
  private renew(conversationId: string, turnId: string): void {
    try {
      const { changes } = this.sql.run(
        `UPDATE turn_leases SET heartbeat_at = ?
         WHERE conversation_id = ? AND turn_id = ? AND owner_pid = ?`,
        this.clock.now(),
        conversationId,
        turnId,
        process.pid,
      );
      if (changes === 0) this.forget(conversationId, turnId);
    } catch {
      // The next beat tries again.
    }
  }

  /**
   * Stops renewing and deletes the lease. Never throws: if the row cannot be deleted, it is stale
   * here at once (no longer held) and elsewhere once its heartbeat is old or this process exits.
   */
  private release(conversationId: string, turnId: string): void {
    if (!this.forget(conversationId, turnId)) return;
    try {
      this.sql.run(
        'DELETE FROM turn_leases WHERE conversation_id = ? AND turn_id = ? AND owner_pid = ?',
        conversationId,
        turnId,
        process.pid,
      );
    } catch {
      // Stale already, see above.
    }
  }

  /** Drops the lease from this process's books; false when it was not held here. */
  private forget(conversationId: string, turnId: string): boolean {
    const held = this.held.get(conversationId);
    if (held?.turnId !== turnId) return false;
    clearInterval(held.timer);
    this.held.delete(conversationId);
    if (heldInThisProcess.get(this.key(conversationId)) === turnId) {
      heldInThisProcess.delete(this.key(conversationId));
    }
    return true;
  }

  private key(conversationId: string): string {
    return `${this.path}\0${conversationId}`;
  }
}
