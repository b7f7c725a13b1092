/**
 * The live sessions of a SessionManager: by session id and by conversation (one session per
 * conversation), and the container → conversation index a restarted sidecar recovers from.
 */
import { SandboxError } from './sandbox-service';
import type { WorkerChannel } from './worker-channel';
import type { Extractor } from './workspace-archiver';

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
  extractor?: Extractor;
}

export interface Session extends WarmContainer {
  id: string;
  conversationId: string;
  running: boolean;
  lastActivity: number;
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
  index(): Record<string, string> {
    return Object.fromEntries(
      this.all().map((session) => [session.containerId, session.conversationId]),
    );
  }
}
