/**
 * Who is writing a `streaming` message, and marking the ones whose writer died `interrupted`.
 * A writer is identified by its pid (`messages.owner_pid`); inside this process, by the open
 * store that created the message, so a pid left over from an earlier run is not mistaken for us.
 */
import type Database from 'better-sqlite3';

/** Streaming messages being written by an open store of this process, as `path\0messageId`. */
const streamingInThisProcess = new Set<string>();

/** The streaming messages one open store is writing, registered process-wide. */
export class StreamingClaims {
  private readonly path: string;
  private readonly keys = new Set<string>();

  /** `path` identifies the database file (pass it resolved, so one file has one key). */
  constructor(path: string) {
    this.path = path;
  }

  /** Records whether this store is (still) writing `messageId` as a streaming message. */
  set(messageId: string, streaming: boolean): void {
    const key = this.key(messageId);
    if (streaming) {
      streamingInThisProcess.add(key);
      this.keys.add(key);
    } else {
      streamingInThisProcess.delete(key);
      this.keys.delete(key);
    }
  }

  /** True when some open store of this process on the same file is writing `messageId`. */
  isWrittenHere(messageId: string): boolean {
    return streamingInThisProcess.has(this.key(messageId));
  }

  /** Drops every claim of this store (on close); its messages become recoverable. */
  releaseAll(): void {
    for (const key of this.keys) streamingInThisProcess.delete(key);
    this.keys.clear();
  }

  private key(messageId: string): string {
    return `${this.path}\0${messageId}`;
  }
}

/** True unless the OS reports no process with this pid (ESRCH); EPERM means it exists. */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return !(error instanceof Error && 'code' in error && error.code === 'ESRCH');
  }
}

/**
 * The streaming messages whose writer is gone: no owner, an owner pid that is not a live process,
 * or this process's pid while `claims` says no open store here writes it. A plain read.
 */
export function orphanedMessages(database: Database.Database, claims: StreamingClaims): number[] {
  const rows = database
    .prepare<[], { seq: number; id: string; owner_pid: number | null }>(
      "SELECT seq, id, owner_pid FROM messages WHERE status = 'streaming'",
    )
    .all();
  return rows
    .filter((row) => {
      if (claims.isWrittenHere(row.id)) return false;
      const owner = row.owner_pid;
      return !(owner !== null && owner !== process.pid && isProcessAlive(owner));
    })
    .map((row) => row.seq);
}

/**
 * Marks `interrupted` (clearing the owner, stamping `now`) every message `orphanedMessages`
 * finds. Run it inside a write transaction (it reads again there). Returns the count.
 */
export function markOrphanedMessagesInterrupted(
  database: Database.Database,
  claims: StreamingClaims,
  now: number,
): number {
  const mark = database.prepare(
    "UPDATE messages SET status = 'interrupted', owner_pid = NULL, updated_at = ? WHERE seq = ?",
  );
  let marked = 0;
  for (const seq of orphanedMessages(database, claims)) marked += mark.run(now, seq).changes;
  return marked;
}
