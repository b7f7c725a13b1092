/**
 * The live sessions of a SessionManager: by session id and by conversation (one session per
 * conversation), and the container → conversation index a restarted sidecar recovers from.
 */
import type { IndexEntry } from './archive-store';
import { SandboxError } from './sandbox-service';
import type { WorkerChannel } from './worker-channel';
import type { TarProcess } from './workspace-archiver';

/** A Python worker attached to a container over `docker exec -i`. */
export interface Worker {
  channel: WorkerChannel;
  pid: number;
}

/** A started container with a ready worker (a warm one, or a session's). */
export interface WarmContainer {
  containerId: string;
  worker: Worker;
  /** A `tar -x` already waiting in a warm container, for a restore (see WorkspaceArchiver). */
  extractor?: TarProcess;
  /** A `tar -c` being started in a warm container, for its first save (null: none to be had). */
  saver?: Promise<TarProcess | null>;
}

export interface Session extends WarmContainer {
  id: string;
  conversationId: string;
  running: boolean;
  lastActivity: number;
  /** Where the workspace stands against its saves (see workspace-saves.ts). */
  saves: SaveState;
  /**
   * What the next run's result tells the user about /workspace (`workspace_notice`): set when
   * the session opened from an older save because the newest could not be read.
   */
  notice?: string | undefined;
}

/** A session's workspace and its saved archive (see workspace-saves.ts). */
export interface SaveState {
  /**
   * The container's start time when its workspace was set up (restored, or new and empty). A
   * workspace is saved only while the container still has this start time: a restart empties the
   * tmpfs, and an empty workspace must never replace the files in the archive. Null: not known,
   * nothing may be saved until the workspace is set up again.
   */
  startedAt: string | null;
  /** The container restarted (killed from outside): /workspace is restored before the next run. */
  needsRestore: boolean;
  /** The worker's workspace stamp after the last cell; null: unknown (an upload, a new worker). */
  stamp: string | null;
  /** The stamp the last good save was taken at; a cell that leaves it unchanged needs no save. */
  savedStamp: string | null;
  /**
   * The workspace is as set up (restored from its save, or new and empty) and no cell has changed
   * it yet: a first cell whose stamps before and after agree needs no save.
   */
  asSetUp: boolean;
  /** When the last save succeeded (ms since the epoch), or null. */
  savedAt: number | null;
  /** Why the last save failed, until one succeeds. */
  error: string | null;
  /** A save in progress. */
  saving: Promise<void> | null;
  /** Another save is wanted once the one in progress ends. */
  again: boolean;
  /**
   * A `tar -c` waiting in the container for the next save (WorkspaceArchiver.startSaver), started
   * after each save but the last; null when there is none (the save then starts its own).
   */
  saver: Promise<TarProcess | null> | null;
}

/** The save state of a workspace just set up in a container that started at `startedAt`. */
export function freshSaveState(
  startedAt: string | null,
  saver: Promise<TarProcess | null> | null = null,
): SaveState {
  return {
    startedAt,
    needsRestore: false,
    stamp: null,
    savedStamp: null,
    asSetUp: true,
    savedAt: null,
    error: null,
    saving: null,
    again: false,
    saver,
  };
}

export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  private readonly byConversation = new Map<string, string>();

  get size(): number {
    return this.sessions.size;
  }

  all(): Session[] {
    return [...this.sessions.values()];
  }

  add(session: Session): void {
    this.sessions.set(session.id, session);
    this.byConversation.set(session.conversationId, session.id);
  }

  liveSessionFor(conversationId: string): Session | undefined {
    const sessionId = this.byConversation.get(conversationId);
    return sessionId ? this.sessions.get(sessionId) : undefined;
  }

  /** @throws SandboxError `not-found` for an unknown (or reaped) session. */
  require(sessionId: string): Session {
    const session = this.sessions.get(sessionId);
    if (!session)
      throw new SandboxError(
        'not-found',
        `Unknown session ${sessionId}; it may have been reaped. Create one with POST /sessions.`,
      );
    return session;
  }

  forget(session: Session): void {
    this.sessions.delete(session.id);
    if (this.byConversation.get(session.conversationId) === session.id)
      this.byConversation.delete(session.conversationId);
  }

  /** Which container holds which conversation, so a restarted sidecar can archive leftovers. */
  index(): Record<string, IndexEntry> {
    return Object.fromEntries(
      this.all().map((session) => [
        session.containerId,
        { conversation: session.conversationId, started_at: session.saves.startedAt },
      ]),
    );
  }
}
