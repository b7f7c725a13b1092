/**
 * The Docker-backed SandboxService: one hardened container per conversation with a long-lived
 * Python worker (attached over `docker exec`, so it can be killed and restarted without losing
 * the tmpfs workspace), a warm pool of started containers, per-call timeouts that interrupt and,
 * if needed, restart the worker, an idle reaper that archives workspaces, and restore on return.
 */
import { randomUUID } from 'node:crypto';
import { posix } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';
import { constants as zlibConstants, createGunzip, createGzip } from 'node:zlib';
import type { ArchiveStore } from './archive-store';
import type { ContainerLimits } from './container-template';
import { WORKSPACE } from './container-template';
import type { DockerRuntime } from './docker-runtime';
import type {
  ExecRequest,
  ExecResult,
  FileRead,
  HealthReport,
  OutputFile,
  SandboxService,
  SessionInfo,
  UploadDirectory,
  WorkspaceEntry,
} from './sandbox-service';
import { SandboxError } from './sandbox-service';
import type { WorkerExecResult } from './worker-channel';
import { WorkerChannel, WorkerGoneError } from './worker-channel';
import { listPathScript, PATH_SCRIPT_MARKER } from './workspace-paths';

/** How long a new worker may take to say `ready` (Python start; imports are lazy). */
const WORKER_START_TIMEOUT_MS = 20_000;
/** How long the worker's reader thread gets to answer a control request. */
const CONTROL_TIMEOUT_MS = 1_500;
/** After an interrupt, how long the code gets to stop before the worker is killed. */
const INTERRUPT_GRACE_MS = 3_000;
/**
 * Archives are gzip with Huffman-only coding: about twice as fast as level 1 on data that does not
 * compress (images, PDFs, random bytes), still ~50% on text; large chunks cut per-chunk overhead.
 */
const ARCHIVE_CHUNK_BYTES = 256 * 1024;
/** runc releases before this have CVE-2024-21626 (container escape through a leaked fd). */
const MIN_SAFE_RUNC = [1, 1, 12];

export interface SessionManagerOptions {
  runtime: DockerRuntime;
  archives: ArchiveStore;
  limits: ContainerLimits;
  maxSessions: number;
  idleSeconds: number;
  maxOutputBytes: number;
  warmPool: number;
  retentionDays: number;
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

interface Worker {
  channel: WorkerChannel;
  pid: number;
}

interface Session {
  id: string;
  conversationId: string;
  containerId: string;
  worker: Worker;
  running: boolean;
  lastActivity: number;
}

interface WarmContainer {
  containerId: string;
  worker: Worker;
}

export class SessionManager implements SandboxService {
  private readonly sessions = new Map<string, Session>();
  private readonly byConversation = new Map<string, string>();
  private readonly creating = new Map<string, Promise<SessionInfo>>();
  private readonly warm: WarmContainer[] = [];
  /** Warm containers being created; shutdown waits for them so none is left behind. */
  private readonly warming = new Set<Promise<unknown>>();
  private reaperTimer: ReturnType<typeof setInterval> | null = null;
  private readonly now: () => number;
  private readonly namePrefix: string;
  private closed = false;

  constructor(private readonly options: SessionManagerOptions) {
    this.now = options.now ?? Date.now;
    this.namePrefix = options.namePrefix ?? 'aivory-session';
  }

  /** Starts the warm pool and the idle reaper, and archives containers a previous run left. */
  async start(): Promise<void> {
    await this.ensureKeepalive();
    await this.recoverLeftovers();
    await this.options.archives.prune(this.options.retentionDays).catch(() => 0);
    const interval = Math.min(60_000, (this.options.idleSeconds * 1000) / 4);
    this.reaperTimer = setInterval(() => void this.reapIdle(), interval);
    this.reaperTimer.unref();
    this.refillWarmPool();
  }

  async health(): Promise<HealthReport> {
    const { runtime, limits } = this.options;
    const docker = await runtime.ping();
    const imagePresent = docker && (await runtime.imagePresent(limits.image));
    const runc = docker ? await runtime.runcVersion() : null;
    const warnings: string[] = [];
    if (!docker)
      warnings.push('Docker is not reachable: is the daemon running and the socket accessible?');
    else if (!imagePresent) {
      warnings.push(
        `The runner image ${limits.image} is missing. Build it with: npx aivory sandbox image build`,
      );
    }
    if (runc && isOlderThan(runc, MIN_SAFE_RUNC)) {
      warnings.push(`runc ${runc} is older than 1.1.12 (CVE-2024-21626): update Docker/runc.`);
    }
    return {
      ok: docker && imagePresent,
      docker,
      image: limits.image,
      image_present: imagePresent,
      runc_version: runc,
      warnings,
      sessions: this.sessions.size,
      max_sessions: this.options.maxSessions,
    };
  }

  createSession(conversationId?: string): Promise<SessionInfo> {
    const id = conversationId ?? `conv-${randomUUID()}`;
    const existing = this.liveSessionFor(id);
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
    const session = this.requireSession(request.session_id);
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
      if (session.worker.channel.closed) {
        session.worker = await this.restartWorker(session);
        restarted = true;
      }
      const result = await this.runWithDeadline(session, request.code, timeoutSeconds, signal);
      return {
        ...result,
        worker_restarted: result.worker_restarted || restarted,
        duration_ms: Math.round(performance.now() - startedAt),
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
    const session = this.requireSession(sessionId);
    if (!/^[^/\\\0]{1,255}$/.test(name) || name === '.' || name === '..') {
      throw new SandboxError('bad-request', 'Invalid file name.');
    }
    session.lastActivity = this.now();
    const target = `${WORKSPACE}/${directory}/${name}`;
    const result = await this.options.runtime.run(
      session.containerId,
      ['sh', '-c', 'mkdir -p "$(dirname "$1")" && cat > "$1"', 'sh', target],
      { input: body },
    );
    if (result.exitCode !== 0) {
      const reason = result.stderr.toString('utf8').includes('No space left')
        ? 'the workspace is full'
        : 'the write failed';
      throw new SandboxError('too-large', `Upload failed: ${reason}.`);
    }
    return { path: `${directory}/${name}`, size, mime: mimeFor(name) };
  }

  async readPath(sessionId: string, path: string): Promise<FileRead> {
    const session = this.requireSession(sessionId);
    session.lastActivity = this.now();
    const relative = confineRelative(path);
    const probe = await this.options.runtime.run(session.containerId, [
      'python3',
      '-c',
      listPathScript(),
      relative,
    ]);
    const text = probe.stdout.toString('utf8');
    const markerIndex = text.lastIndexOf(PATH_SCRIPT_MARKER);
    if (probe.exitCode !== 0 || markerIndex === -1) {
      throw new SandboxError(
        'not-found',
        `No such file or directory in the workspace: ${relative || '.'}`,
      );
    }
    const parsed = JSON.parse(text.slice(markerIndex + PATH_SCRIPT_MARKER.length)) as
      | { kind: 'directory'; entries: WorkspaceEntry[] }
      | { kind: 'file'; real: string; size: number }
      | { kind: 'missing' };
    if (parsed.kind === 'missing') {
      throw new SandboxError(
        'not-found',
        `No such file or directory in the workspace: ${relative || '.'}`,
      );
    }
    if (parsed.kind === 'directory') return parsed;
    const process = await this.options.runtime.attach(session.containerId, [
      'cat',
      '--',
      parsed.real,
    ]);
    process.stdin.end();
    return { kind: 'file', size: parsed.size, mime: mimeFor(parsed.real), body: process.stdout };
  }

  async interrupt(sessionId: string): Promise<{ interrupted: boolean }> {
    const session = this.requireSession(sessionId);
    if (!session.running) return { interrupted: false };
    await this.interruptWorker(session);
    return { interrupted: true };
  }

  async deleteSession(sessionId: string): Promise<void> {
    const session = this.requireSession(sessionId);
    this.forget(session);
    session.worker.channel.close();
    await this.options.runtime.removeContainer(session.containerId);
    await this.options.archives.delete(session.conversationId);
    await this.saveIndex();
  }

  /** Archives every workspace and removes every container (app quit, SIGTERM). */
  async shutdown(): Promise<void> {
    this.closed = true;
    if (this.reaperTimer) clearInterval(this.reaperTimer);
    const sessions = [...this.sessions.values()];
    await Promise.all(sessions.map((session) => this.archiveAndRemove(session, true)));
    // Containers still being warmed remove themselves once created (closed is set).
    await Promise.all([...this.warming]);
    const warm = this.warm.splice(0);
    await Promise.all(warm.map((entry) => this.options.runtime.removeContainer(entry.containerId)));
  }

  /** Archives and removes sessions idle longer than the limit; a running exec counts as activity. */
  async reapIdle(): Promise<number> {
    const cutoff = this.now() - this.options.idleSeconds * 1000;
    const idle = [...this.sessions.values()].filter(
      (session) => !session.running && session.lastActivity < cutoff,
    );
    let reaped = 0;
    for (const session of idle) if (await this.archiveAndRemove(session)) reaped += 1;
    return reaped;
  }

  private async openSession(conversationId: string): Promise<SessionInfo> {
    await this.ensureCapacity();
    const warm = this.warm.shift();
    const container = warm ?? (await this.newContainer());
    this.refillWarmPool();
    const restored = await this.restoreArchive(container.containerId, conversationId).catch(
      async (error: unknown) => {
        await this.options.runtime.removeContainer(container.containerId);
        throw error;
      },
    );
    const session: Session = {
      id: `sb_${randomUUID().replaceAll('-', '')}`,
      conversationId,
      containerId: container.containerId,
      worker: container.worker,
      running: false,
      lastActivity: this.now(),
    };
    this.sessions.set(session.id, session);
    this.byConversation.set(conversationId, session.id);
    await this.saveIndex();
    this.options.logger.info('session opened', { session: session.id, restored });
    return { session_id: session.id, conversation_id: conversationId, restored, created: true };
  }

  private async newContainer(): Promise<WarmContainer> {
    const { runtime, limits } = this.options;
    if (!(await runtime.imagePresent(limits.image))) {
      throw new SandboxError(
        'unavailable',
        `The runner image ${limits.image} is missing. Build it with: npx aivory sandbox image build`,
      );
    }
    const containerId = await runtime.startContainer(limits, {
      name: `${this.namePrefix}-${randomUUID().slice(0, 12)}`,
      role: 'session',
    });
    try {
      return { containerId, worker: await this.startWorker(containerId) };
    } catch (error) {
      await runtime.removeContainer(containerId);
      throw error;
    }
  }

  private async startWorker(containerId: string): Promise<Worker> {
    const process = await this.options.runtime.attach(containerId, [
      'python3',
      '-u',
      '/opt/aivory/worker.py',
    ]);
    const channel = new WorkerChannel(process);
    const ready = await channel.ready(WORKER_START_TIMEOUT_MS);
    return { channel, pid: ready.pid };
  }

  private async restartWorker(session: Session): Promise<Worker> {
    session.worker.channel.close();
    if (!(await this.options.runtime.containerRunning(session.containerId))) {
      await this.options.runtime.startExistingContainer(session.containerId);
    }
    return this.startWorker(session.containerId);
  }

  private refillWarmPool(): void {
    if (this.closed) return;
    while (this.warm.length + this.warming.size < this.options.warmPool) {
      const creation = this.newContainer()
        .then((container) => {
          if (this.closed) return this.options.runtime.removeContainer(container.containerId);
          this.warm.push(container);
          return undefined;
        })
        .catch((error: unknown) =>
          this.options.logger.warn('warm container failed', { error: String(error) }),
        )
        .finally(() => this.warming.delete(creation));
      this.warming.add(creation);
    }
  }

  /** At the session limit, the least recently used idle session is archived to make room. */
  private async ensureCapacity(): Promise<void> {
    if (this.sessions.size < this.options.maxSessions) return;
    const idle = [...this.sessions.values()]
      .filter((session) => !session.running)
      .sort((left, right) => left.lastActivity - right.lastActivity)[0];
    if (!idle || !(await this.archiveAndRemove(idle))) {
      throw new SandboxError(
        'limit',
        `All ${this.options.maxSessions} sandbox sessions are in use; try again when one finishes.`,
      );
    }
  }

  private async runWithDeadline(
    session: Session,
    code: string,
    timeoutSeconds: number,
    signal: AbortSignal,
  ): Promise<ExecResult> {
    const running = session.worker.channel.exec(code, this.options.maxOutputBytes);
    running.catch(() => undefined);
    const stop = await waitForStop(running, timeoutSeconds * 1000, signal);
    if (stop === 'finished') {
      try {
        return fromWorker(await running, false);
      } catch (error) {
        return await this.afterWorkerDied(session, error);
      }
    }
    // Timed out or the caller went away: interrupt, then kill if the code does not yield.
    await this.interruptWorker(session);
    const graceful = await waitForStop(running, INTERRUPT_GRACE_MS, new AbortController().signal);
    const reason =
      stop === 'timeout'
        ? `Execution timed out after ${timeoutSeconds} s`
        : 'The request was canceled';
    const status = stop === 'timeout' ? 'timeout' : 'error';
    if (graceful === 'finished') {
      const result = await running.catch(() => null);
      if (result) {
        // Subprocesses the code started (or a fork bomb) would outlive the interrupt.
        await session.worker.channel.control('reap-strays', CONTROL_TIMEOUT_MS);
        return {
          ...fromWorker(result, false),
          status,
          error: `${reason} and was interrupted; variables are kept.`,
        };
      }
    }
    await this.killWorker(session);
    session.worker = await this.restartWorker(session);
    return {
      ...emptyResult(),
      status,
      error: `${reason}. The code did not stop when interrupted, so the Python process was restarted: variables and imports are lost, files in /workspace are kept.`,
      worker_restarted: true,
    };
  }

  private async afterWorkerDied(session: Session, error: unknown): Promise<ExecResult> {
    if (!(error instanceof WorkerGoneError)) throw error;
    this.options.logger.warn('worker died during exec', {
      session: session.id,
      error: error.message,
    });
    session.worker = await this.restartWorker(session);
    return {
      ...emptyResult(),
      status: 'error',
      error:
        'The Python process was killed while running this code (most often: it ran out of memory). It has been restarted: variables and imports are lost, files in /workspace are kept.',
      worker_restarted: true,
    };
  }

  /** In-band first (no new process needed); `docker exec kill` only if the worker is deaf. */
  private async interruptWorker(session: Session): Promise<void> {
    if (await session.worker.channel.control('interrupt', CONTROL_TIMEOUT_MS)) return;
    await this.signalWorker(session, 'INT').catch(() => undefined);
  }

  private async killWorker(session: Session): Promise<void> {
    if (await session.worker.channel.control('terminate', CONTROL_TIMEOUT_MS)) return;
    await this.signalWorker(session, 'KILL').catch(() => undefined);
  }

  /** Signals the worker through the shell's `kill` builtin (works without procps). */
  private async signalWorker(session: Session, signal: 'INT' | 'KILL'): Promise<void> {
    const result = await this.options.runtime.run(session.containerId, [
      'sh',
      '-c',
      'kill -s "$1" "$2"',
      'sh',
      signal,
      String(session.worker.pid),
    ]);
    if (result.exitCode !== 0) {
      this.options.logger.warn('signalling the worker failed', {
        signal,
        stderr: result.stderr.toString('utf8').slice(0, 300),
      });
    }
  }

  /**
   * Archives the workspace, then removes the container. If archiving fails (disk full, archive
   * directory gone) the session stays alive and is tried again later, unless `force` (shutdown).
   */
  private async archiveAndRemove(session: Session, force = false): Promise<boolean> {
    try {
      const size = await this.archiveWorkspace(session.containerId, session.conversationId);
      this.options.logger.info('workspace archived', {
        conversation: session.conversationId,
        bytes: size,
      });
    } catch (error) {
      this.options.logger.error('archiving a workspace failed', {
        session: session.id,
        error: String(error),
      });
      if (!force) {
        session.lastActivity = this.now();
        return false;
      }
    }
    this.forget(session);
    session.worker.channel.close();
    await this.options.runtime.removeContainer(session.containerId);
    await this.saveIndex();
    return true;
  }

  private async archiveWorkspace(containerId: string, conversationId: string): Promise<number> {
    const process = await this.options.runtime.attach(containerId, [
      'tar',
      '-c',
      '-C',
      WORKSPACE,
      '.',
    ]);
    process.stdin.end();
    const size = await this.options.archives.put(
      conversationId,
      process.stdout.pipe(
        createGzip({
          level: 1,
          strategy: zlibConstants.Z_HUFFMAN_ONLY,
          chunkSize: ARCHIVE_CHUNK_BYTES,
        }),
      ),
    );
    const exitCode = await process.exited;
    if (exitCode !== 0) throw new Error(`tar exited with ${exitCode}`);
    return size;
  }

  /** Which container holds which conversation, so a restarted sidecar can archive leftovers. */
  private async saveIndex(): Promise<void> {
    const index = Object.fromEntries(
      [...this.sessions.values()].map((session) => [session.containerId, session.conversationId]),
    );
    await this.options.archives
      .writeIndex(index)
      .catch((error: unknown) =>
        this.options.logger.warn('session index not saved', { error: String(error) }),
      );
  }

  private async restoreArchive(containerId: string, conversationId: string): Promise<boolean> {
    const archive = await this.options.archives.get(conversationId);
    if (!archive) return false;
    const input = new PassThrough();
    archive.pipe(createGunzip()).pipe(input);
    const result = await this.options.runtime.run(
      containerId,
      ['tar', '-x', '-C', WORKSPACE, '--no-same-owner', '--no-same-permissions'],
      { input },
    );
    if (result.exitCode !== 0) {
      throw new SandboxError(
        'unavailable',
        `Restoring the archived workspace failed: ${result.stderr.toString('utf8').slice(0, 300)}`,
      );
    }
    return true;
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
      const conversationId = index[container.id];
      if (conversationId && container.running) {
        await this.archiveWorkspace(container.id, conversationId).catch((error: unknown) =>
          this.options.logger.warn('leftover workspace not archived', {
            container: container.id,
            error: String(error),
          }),
        );
      }
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

  private liveSessionFor(conversationId: string): Session | undefined {
    const sessionId = this.byConversation.get(conversationId);
    return sessionId ? this.sessions.get(sessionId) : undefined;
  }

  private requireSession(sessionId: string): Session {
    const session = this.sessions.get(sessionId);
    if (!session)
      throw new SandboxError(
        'not-found',
        `Unknown session ${sessionId}; it may have been reaped. Create one with POST /sessions.`,
      );
    return session;
  }

  private forget(session: Session): void {
    this.sessions.delete(session.id);
    if (this.byConversation.get(session.conversationId) === session.id)
      this.byConversation.delete(session.conversationId);
  }
}

/** Which came first: the worker's answer, the deadline, or the caller's abort. */
function waitForStop(
  running: Promise<unknown>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<'finished' | 'timeout' | 'aborted'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    const onAbort = (): void => finish('aborted');
    function finish(outcome: 'finished' | 'timeout' | 'aborted'): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    }
    if (signal.aborted) finish('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    running.then(
      () => finish('finished'),
      () => finish('finished'),
    );
  });
}

function fromWorker(result: WorkerExecResult, restarted: boolean): ExecResult {
  return {
    status: result.status === 'ok' ? 'ok' : 'error',
    stdout: result.stdout,
    stderr: result.stderr,
    error: result.status === 'interrupted' ? (result.error ?? 'KeyboardInterrupt') : result.error,
    duration_ms: result.duration_ms,
    outputs: result.outputs,
    stdout_truncated_bytes: result.stdout_truncated_bytes,
    stderr_truncated_bytes: result.stderr_truncated_bytes,
    worker_restarted: restarted,
  };
}

function emptyResult(): ExecResult {
  return {
    status: 'error',
    stdout: '',
    stderr: '',
    error: null,
    duration_ms: 0,
    outputs: [],
    stdout_truncated_bytes: 0,
    stderr_truncated_bytes: 0,
    worker_restarted: false,
  };
}

/** The keepalive container's name for an image: one per image per host. */
export function keepaliveName(image: string): string {
  return `aivory-keepalive-${image.replace(/[^A-Za-z0-9_.-]/g, '-')}`;
}

/** A workspace-relative path without `..`, absolute parts, backslashes or NUL; '' is the root. */
export function confineRelative(path: string): string {
  if (path.includes('\0') || path.includes('\\') || path.startsWith('/')) {
    throw new SandboxError('bad-request', 'The path must be relative to /workspace.');
  }
  const normalized = posix.normalize(path === '' ? '.' : path);
  if (normalized === '..' || normalized.startsWith('../')) {
    throw new SandboxError('bad-request', 'The path must stay inside /workspace.');
  }
  return normalized === '.' ? '' : normalized.replace(/\/$/, '');
}

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  csv: 'text/csv',
  txt: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  html: 'text/html',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  zip: 'application/zip',
};

export function mimeFor(name: string): string {
  const extension = name.split('.').pop()?.toLowerCase() ?? '';
  return MIME_BY_EXTENSION[extension] ?? 'application/octet-stream';
}

function isOlderThan(version: string, minimum: number[]): boolean {
  const parts = (version.match(/\d+/g) ?? []).slice(0, 3).map(Number);
  for (let index = 0; index < minimum.length; index++) {
    const part = parts[index] ?? 0;
    const floor = minimum[index] ?? 0;
    if (part !== floor) return part < floor;
  }
  return false;
}
