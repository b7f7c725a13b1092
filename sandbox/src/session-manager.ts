/**
 * The Docker-backed SandboxService: one hardened container per conversation with a long-lived
 * Python worker (attached over `docker exec`, so it can be killed and restarted without losing
 * the tmpfs workspace), a warm pool of started containers, per-call timeouts that interrupt and,
 * if needed, restart the worker, an idle reaper that archives workspaces, and restore on return.
 *
 * This file composes the parts and owns the session lifecycle; the parts are
 * `session-registry.ts` (live sessions), `warm-pool.ts`, `worker-supervisor.ts` (workers,
 * deadlines, interrupts), `workspace-archiver.ts` (archive/restore), `file-transfer.ts` and
 * `health.ts` (the health report).
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ArchiveStore } from './archive-store';
import type { ContainerLimits } from './container-template';
import type { DockerRuntime } from './docker-runtime';
import { checkUploadName, FileTransfer } from './file-transfer';
import { sandboxHealth } from './health';
import type {
  ExecRequest,
  ExecResult,
  FileRead,
  HealthReport,
  OutputFile,
  SandboxService,
  SessionInfo,
  UnsavedWorkspace,
  UploadDirectory,
  WorkspaceReset,
} from './sandbox-service';
import { SandboxError } from './sandbox-service';
import type { Session, WarmContainer } from './session-registry';
import { freshSaveState, SessionRegistry } from './session-registry';
import { WarmPool } from './warm-pool';
import { WorkerSupervisor } from './worker-supervisor';
import { WorkspaceArchiver } from './workspace-archiver';
import {
  describe,
  logOlderSave,
  olderSaveNotice,
  recoveryNotice,
  unsavedNotice,
  WorkspaceLostError,
  WorkspaceSaves,
} from './workspace-saves';
import { KeptContainers } from './kept-containers';
import { resetDamagedSaves } from './damaged-saves';

export { confineRelative, mimeFor } from './file-transfer';

/**
 * A final save at shutdown that takes longer than this is given up (the container is kept with its
 * files and saved at the next start): 2 minutes archives several GiB (50 MiB took 0.85 s here),
 * and a stop must end even when the engine or the disk hangs.
 */
const SHUTDOWN_SAVE_MS = 120_000;

export interface SessionManagerOptions {
  runtime: DockerRuntime;
  archives: ArchiveStore;
  limits: ContainerLimits;
  maxSessions: number;
  idleSeconds: number;
  maxOutputBytes: number;
  warmPool: number;
  retentionDays: number;
  /**
   * How long shutdown waits for one workspace's final save (default SHUTDOWN_SAVE_MS); one that
   * takes longer keeps its container (reported as unsaved), so a stop always ends.
   */
  shutdownSaveMs?: number;
  /** Seconds for one exec, after defaults and clamping. */
  resolveTimeoutSeconds(requested: number | undefined): number;
  logger: {
    info(message: string, fields?: object): void;
    warn(message: string, fields?: object): void;
    error(message: string, fields?: object): void;
  };
  /** Prefix of container names (tests use their own to clean up after themselves). */
  namePrefix?: string;
  now?: () => number;
}

/** Workspaces a shutdown could not save: their containers were left running (see shutdown()). */
export interface ShutdownReport {
  unsaved: UnsavedWorkspace[];
}

export class SessionManager implements SandboxService {
  private readonly sessions = new SessionRegistry();
  private readonly kept: KeptContainers;
  private readonly creating = new Map<string, Promise<SessionInfo>>();
  private readonly workers: WorkerSupervisor;
  private readonly warm: WarmPool;
  private readonly archiver: WorkspaceArchiver;
  private readonly saves: WorkspaceSaves;
  private readonly files: FileTransfer;
  private reaperTimer: ReturnType<typeof setInterval> | null = null;
  private readonly now: () => number;
  private readonly namePrefix: string;

  constructor(private readonly options: SessionManagerOptions) {
    this.now = options.now ?? Date.now;
    this.namePrefix = options.namePrefix ?? 'aivory-session';
    this.archiver = new WorkspaceArchiver(options.runtime, options.archives);
    this.saves = new WorkspaceSaves({
      runtime: options.runtime,
      archiver: this.archiver,
      logger: options.logger,
      now: this.now,
    });
    this.kept = new KeptContainers({
      runtime: options.runtime,
      archiver: this.archiver,
      logger: options.logger,
      now: this.now,
    });
    this.workers = new WorkerSupervisor({
      runtime: options.runtime,
      saves: this.saves,
      limits: options.limits,
      maxOutputBytes: options.maxOutputBytes,
      namePrefix: this.namePrefix,
      logger: options.logger,
    });
    this.files = new FileTransfer(options.runtime);
    this.warm = new WarmPool({
      size: options.warmPool,
      create: async () => {
        const container = await this.workers.newContainer();
        // A warm container that cannot get one restores the slower way; it still serves.
        container.extractor = await this.archiver
          .startExtractor(container.containerId, { running: true })
          .catch((error: unknown) => {
            options.logger.warn('restore extractor failed to start', { error: String(error) });
            return undefined;
          });
        container.saver = this.archiver.startSaver(container.containerId).catch(() => null);
        return container;
      },
      remove: (containerId) => options.runtime.removeContainer(containerId),
      logger: options.logger,
    });
  }

  /** Starts the warm pool and the idle reaper, and archives containers a previous run left. */
  async start(): Promise<void> {
    await this.ensureKeepalive();
    await this.recoverLeftovers();
    await this.options.archives.prune(this.options.retentionDays).catch(() => 0);
    const interval = Math.min(60_000, (this.options.idleSeconds * 1000) / 4);
    this.reaperTimer = setInterval(() => void this.reapIdle(), interval);
    this.reaperTimer.unref();
    this.warm.refill();
  }

  health(): Promise<HealthReport> {
    return sandboxHealth({
      runtime: this.options.runtime,
      image: this.options.limits.image,
      maxSessions: this.options.maxSessions,
      sessions: () => this.sessions.all(),
      kept: () => this.kept.unsaved(),
    });
  }

  createSession(conversationId?: string): Promise<SessionInfo> {
    const id = conversationId ?? `conv-${randomUUID()}`;
    const existing = this.sessions.liveSessionFor(id);
    if (existing) {
      existing.lastActivity = this.now();
      return Promise.resolve({
        session_id: existing.id,
        conversation_id: id,
        restored: false,
        created: false,
      });
    }
    // Two requests for the same conversation at once share one creation.
    const pending = this.creating.get(id);
    if (pending) return pending.then((info) => ({ ...info, created: false }));
    const creation = this.openSession(id).finally(() => this.creating.delete(id));
    this.creating.set(id, creation);
    return creation;
  }

  async exec(request: ExecRequest, signal: AbortSignal): Promise<ExecResult> {
    const session = this.sessions.require(request.session_id);
    if (session.running) {
      throw new SandboxError(
        'busy',
        'This session is already running code; wait for it or interrupt it.',
      );
    }
    const timeoutSeconds = this.options.resolveTimeoutSeconds(request.timeout_s);
    session.running = true;
    session.lastActivity = this.now();
    const startedAt = performance.now();
    try {
      let restarted = false;
      // Set when the session opened from an older save (the newest could not be read).
      let notice = session.notice;
      if (session.worker.channel.closed) {
        session.worker = await this.workers.restartWorker(session);
        restarted = true;
      }
      if (session.saves.needsRestore) {
        const outcome = await this.saves.recover(session);
        if ('failed' in outcome) {
          throw new SandboxError(
            'unavailable',
            `This session's container was restarted and restoring its saved files failed: ${outcome.failed}. The saved files are kept and restoring is tried again on the next run.`,
          );
        }
        notice = `The sandbox container had stopped and was started again: variables and imports are lost. ${recoveryNotice(outcome)}`;
      }
      const result = await this.workers.runWithDeadline(
        session,
        request.code,
        timeoutSeconds,
        signal,
      );
      if (session.saves.needsRestore) {
        notice = recoveryNotice(await this.saves.recover(session));
      } else {
        if (session.saves.error !== null) notice ??= unsavedNotice(session.saves.error);
        const { workspaceStamp, workspaceStampBefore } = session.worker.channel;
        this.saves.changed(session, workspaceStamp, workspaceStampBefore);
      }
      session.notice = undefined;
      return {
        ...result,
        worker_restarted: result.worker_restarted || restarted,
        duration_ms: Math.round(performance.now() - startedAt),
        ...(notice === undefined ? {} : { workspace_notice: notice }),
      };
    } finally {
      session.running = false;
      session.lastActivity = this.now();
    }
  }

  async upload(
    sessionId: string,
    name: string,
    body: Readable,
    size: number,
    directory: UploadDirectory = 'uploads',
  ): Promise<OutputFile> {
    const session = this.sessions.require(sessionId);
    checkUploadName(name);
    session.lastActivity = this.now();
    const file = await this.files.upload(session.containerId, name, body, size, directory);
    this.saves.changed(session, null);
    return file;
  }

  async readPath(sessionId: string, path: string): Promise<FileRead> {
    const session = this.sessions.require(sessionId);
    session.lastActivity = this.now();
    return this.files.readPath(session.containerId, path);
  }

  async interrupt(sessionId: string): Promise<{ interrupted: boolean }> {
    const session = this.sessions.require(sessionId);
    if (!session.running) return { interrupted: false };
    await this.workers.interruptWorker(session);
    return { interrupted: true };
  }

  async deleteSession(sessionId: string): Promise<void> {
    const session = this.sessions.require(sessionId);
    this.sessions.forget(session);
    session.worker.channel.close();
    await this.options.runtime.removeContainer(session.containerId);
    await this.options.archives.delete(session.conversationId);
    await this.saveIndex();
  }

  /**
   * The user's choice when no save of the conversation's workspace can be read (see
   * damaged-saves.ts); refused while a session or a kept container holds its files.
   */
  resetDamagedWorkspace(conversationId: string): Promise<WorkspaceReset> {
    const open = this.sessions.liveSessionFor(conversationId) || this.creating.has(conversationId);
    return resetDamagedSaves(
      {
        archiver: this.archiver,
        archives: this.options.archives,
        logger: this.options.logger,
        now: this.now,
      },
      conversationId,
      open ? 'session' : this.kept.has(conversationId) ? 'kept' : null,
    );
  }

  /**
   * Saves every workspace and removes every container (app quit, SIGTERM). A workspace that
   * cannot be saved keeps its container running, listed in the index: the next start saves it
   * (or its conversation's next session takes it over). The report names those workspaces.
   */
  async shutdown(): Promise<ShutdownReport> {
    this.warm.stop();
    if (this.reaperTimer) clearInterval(this.reaperTimer);
    const sessions = this.sessions.all();
    await Promise.all(sessions.map((session) => this.archiveAndRemove(session, true)));
    // Containers still being warmed remove themselves once created (the pool is stopped).
    await this.warm.drain();
    // A kept container's worker, or an exec the engine did not close, must not hold the process.
    this.options.runtime.release();
    return { unsaved: this.kept.unsaved() };
  }

  /** Waits until no save of the session's workspace is in progress (tests, the CLI). */
  async settled(sessionId: string): Promise<void> {
    await this.saves.settled(this.sessions.require(sessionId));
  }

  /** Archives and removes sessions idle longer than the limit; a running exec counts as activity. */
  async reapIdle(): Promise<number> {
    const cutoff = this.now() - this.options.idleSeconds * 1000;
    const idle = this.sessions
      .all()
      .filter((session) => !session.running && session.lastActivity < cutoff);
    let reaped = 0;
    for (const session of idle) if (await this.archiveAndRemove(session)) reaped += 1;
    return reaped;
  }

  private async openSession(conversationId: string): Promise<SessionInfo> {
    await this.ensureCapacity();
    const adopted = await this.adoptKept(conversationId);
    if (adopted) return adopted;
    const warm = this.warm.take();
    const container = warm ?? (await this.workers.newContainer());
    // The pool refills once the session is set up: creating a container while tar streams the
    // archive in competes with it for the CPU (the restore is what the user is waiting for).
    try {
      return await this.setUpSession(conversationId, container);
    } finally {
      this.warm.refill();
    }
  }

  /** Restores the conversation's workspace into `container` and makes it the session's. */
  private async setUpSession(
    conversationId: string,
    container: WarmContainer,
  ): Promise<SessionInfo> {
    // The start time a save will be checked against, asked while tar unpacks (it cannot change
    // without the restore failing; asked after, it would miss a restart right after the restore).
    const saves = this.saves.setUp(container.containerId, null, container.saver ?? null);
    saves.catch(() => undefined);
    const result = await this.archiver
      .restore(container.containerId, conversationId, container.extractor, this.now)
      .catch(async (error: unknown) => {
        await this.options.runtime.removeContainer(container.containerId);
        throw error;
      });
    const session: Session = {
      id: `sb_${randomUUID().replaceAll('-', '')}`,
      conversationId,
      containerId: container.containerId,
      worker: container.worker,
      running: false,
      lastActivity: this.now(),
      saves: await saves,
      ...(result.olderSave ? { notice: olderSaveNotice(result.olderSave.savedAt) } : {}),
    };
    const { restored } = result;
    logOlderSave(this.options.logger, conversationId, result);
    this.sessions.add(session);
    await this.saveIndex();
    this.options.logger.info('session opened', { session: session.id, restored });
    return { session_id: session.id, conversation_id: conversationId, restored, created: true };
  }

  /**
   * The conversation's kept container (its workspace could not be saved earlier), with a new
   * worker, as its session: its files are newer than any archive. Null when there is none or it
   * no longer holds them (stopped or restarted: then the archive is restored as usual).
   */
  private async adoptKept(conversationId: string): Promise<SessionInfo | null> {
    const kept = await this.kept.take(conversationId);
    if (!kept) return null;
    let worker: Session['worker'];
    try {
      worker = await this.workers.startWorker(kept.containerId);
    } catch (error) {
      this.kept.keep(conversationId, kept);
      throw error;
    }
    const session: Session = {
      id: `sb_${randomUUID().replaceAll('-', '')}`,
      conversationId,
      containerId: kept.containerId,
      worker,
      running: false,
      lastActivity: this.now(),
      saves: { ...freshSaveState(kept.startedAt), asSetUp: false, error: kept.error },
    };
    this.sessions.add(session);
    await this.saveIndex();
    this.options.logger.info('session took over a kept container', { session: session.id });
    this.saves.changed(session, null);
    return {
      session_id: session.id,
      conversation_id: conversationId,
      restored: true,
      created: true,
    };
  }

  /** At the session limit, the least recently used idle session is archived to make room. */
  private async ensureCapacity(): Promise<void> {
    if (this.sessions.size < this.options.maxSessions) return;
    const idle = this.sessions
      .all()
      .filter((session) => !session.running)
      .sort((left, right) => left.lastActivity - right.lastActivity)[0];
    if (!idle || !(await this.archiveAndRemove(idle))) {
      throw new SandboxError(
        'limit',
        `All ${this.options.maxSessions} sandbox sessions are in use; try again when one finishes.`,
      );
    }
  }

  /**
   * Saves the workspace, then removes the container. A workspace that cannot be saved (disk full,
   * store unreachable) is never removed: the session stays alive and is tried again later, or at
   * shutdown its container is kept running (see `kept`). A workspace already lost (its container
   * restarted) is not saved over the last save; its container is removed.
   */
  private async archiveAndRemove(session: Session, shutdown = false): Promise<boolean> {
    try {
      const saving = this.saves.save(session, { last: true });
      await (shutdown
        ? withDeadline(saving, this.options.shutdownSaveMs ?? SHUTDOWN_SAVE_MS)
        : saving);
    } catch (error) {
      if (!(error instanceof WorkspaceLostError)) {
        this.options.logger.error('saving a workspace failed; its container is kept', {
          session: session.id,
          error: describe(error),
        });
        if (!shutdown) {
          session.lastActivity = this.now();
          return false;
        }
        this.sessions.forget(session);
        session.worker.channel.close();
        this.kept.keep(session.conversationId, {
          containerId: session.containerId,
          startedAt: session.saves.startedAt,
          error: describe(error),
          since: new Date(this.now()).toISOString(),
        });
        await this.saveIndex();
        return false;
      }
      this.options.logger.warn('workspace lost with its container; the last save is kept', {
        session: session.id,
        error: describe(error),
      });
    }
    this.sessions.forget(session);
    session.worker.channel.close();
    await this.options.runtime.removeContainer(session.containerId);
    await this.saveIndex();
    return true;
  }

  /** Which container holds which conversation, so a restarted sidecar can archive leftovers. */
  private async saveIndex(): Promise<void> {
    const index = { ...this.sessions.index(), ...this.kept.indexEntries() };
    await this.options.archives
      .writeIndex(index)
      .catch((error: unknown) =>
        this.options.logger.warn('session index not saved', { error: String(error) }),
      );
  }

  /**
   * Containers a previous sidecar left (it crashed or was killed): workspaces of known
   * conversations are archived first, so the next session for them restores the files.
   */
  private async recoverLeftovers(): Promise<void> {
    const leftovers = await this.options.runtime.listManaged().catch(() => []);
    const index = await this.options.archives.readIndex();
    for (const container of leftovers) {
      if (container.role !== 'session' || !container.name.startsWith(this.namePrefix)) continue;
      const entry = index[container.id];
      if (entry && container.running && (await this.kept.saveLeftover(container.id, entry)))
        continue;
      await this.options.runtime.removeContainer(container.id).catch(() => undefined);
    }
    await this.saveIndex();
  }

  /**
   * A tiny container that references the runner image, so `docker image prune -a` cannot delete
   * it between sessions (the next python_execute would otherwise fail or wait on a rebuild).
   * One per image, shared by every sidecar on the host; restarted by Docker with the daemon.
   */
  private async ensureKeepalive(): Promise<void> {
    const { runtime, limits } = this.options;
    if (!(await runtime.imagePresent(limits.image))) return;
    const name = keepaliveName(limits.image);
    const existing = (await runtime.listManaged()).find((container) => container.name === name);
    if (existing?.running) return;
    try {
      if (existing) await runtime.startExistingContainer(existing.id);
      else await runtime.startContainer(limits, { name, role: 'keepalive' });
    } catch (error) {
      // Another sidecar may have created it a moment ago; only a missing keepalive matters.
      this.options.logger.warn('image keepalive container not started', { error: String(error) });
    }
  }
}

/** `promise`, or a rejection once `ms` passed (the promise itself goes on, unobserved). */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  promise.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`saving did not finish within ${Math.round(ms / 1000)} s`)),
      ms,
    );
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** The keepalive container's name for an image: one per image per host. */
export function keepaliveName(image: string): string {
  return `aivory-keepalive-${image.replace(/[^A-Za-z0-9_.-]/g, '-')}`;
}
