/**
 * An in-memory SandboxService for the HTTP tests: sessions in a Map, an "interpreter" that
 * echoes the code it was given, files as Buffers. Tests can make one call fail, make exec hang
 * until its signal aborts (to prove that a disconnecting client stops the code), and make a
 * download fail half-way.
 */
import { Readable } from 'node:stream';
import { SandboxError } from '../../src/sandbox-service';
import type {
  WorkspaceReset,
  ExecRequest,
  ExecResult,
  FileRead,
  HealthReport,
  OutputFile,
  SandboxService,
  SessionInfo,
  WorkspaceEntry,
} from '../../src/sandbox-service';

type ServiceMethod = keyof SandboxService;

interface FakeSession {
  info: SessionInfo;
  files: Map<string, Buffer>;
  running: boolean;
}

/** What happened to one upload body, as the service saw it. */
export interface UploadRecord {
  sessionId: string;
  name: string;
  declaredSize: number;
  /** Bytes read from the body before it ended or failed. */
  bytesRead: number;
  /** The error the body stream raised, if it did not end cleanly. */
  streamError: Error | null;
}

/** One exec as the service saw it, with the signal it was handed. */
export interface ExecRecord {
  request: ExecRequest;
  signal: AbortSignal;
}

function mimeOf(name: string): string {
  if (name.endsWith('.png')) return 'image/png';
  if (name.endsWith('.txt')) return 'text/plain; charset=utf-8';
  if (name.endsWith('.csv')) return 'text/csv';
  return 'application/octet-stream';
}

export class FakeSandboxService implements SandboxService {
  healthReport: HealthReport = {
    ok: true,
    docker: true,
    image: 'aivory-runner:latest',
    image_present: true,
    runc_version: '1.2.8',
    engine: 'docker',
    engine_version: '28.0.0',
    runtime: 'runc',
    isolation: 'container (namespaces on the host kernel)',
    warnings: [],
    sessions: 0,
    max_sessions: 8,
  };
  /** When true, exec waits until its signal aborts, then rejects with the abort reason. */
  hangExec = false;
  /** When set, a download streams this many bytes and then fails. */
  failDownloadAfterBytes: number | null = null;
  readonly execs: ExecRecord[] = [];
  readonly uploads: UploadRecord[] = [];
  /** Every path readPath was asked for, as the service received it. */
  readonly readPaths: string[] = [];
  readonly sessions = new Map<string, FakeSession>();
  private readonly failures = new Map<ServiceMethod, unknown>();
  private readonly execStartedWaiters: Array<(record: ExecRecord) => void> = [];
  private nextId = 1;

  /** The next call of `method` throws `error` (once). */
  failNext(method: ServiceMethod, error: unknown): void {
    this.failures.set(method, error);
  }

  /** Resolves with the next exec the service receives (or the latest, if one is running). */
  waitForExec(): Promise<ExecRecord> {
    return new Promise((resolve) => this.execStartedWaiters.push(resolve));
  }

  /** Puts a file into a session's workspace (relative path, e.g. `outputs/a.txt`). */
  putFile(sessionId: string, path: string, content: Buffer | string): void {
    this.session(sessionId).files.set(path, Buffer.from(content));
  }

  private takeFailure(method: ServiceMethod): void {
    if (!this.failures.has(method)) return;
    const error = this.failures.get(method);
    this.failures.delete(method);
    throw error;
  }

  private session(sessionId: string): FakeSession {
    const session = this.sessions.get(sessionId);
    if (session === undefined) throw new SandboxError('not-found', `No session ${sessionId}.`);
    return session;
  }

  async health(): Promise<HealthReport> {
    this.takeFailure('health');
    return { ...this.healthReport, sessions: this.sessions.size };
  }

  async createSession(conversationId?: string): Promise<SessionInfo> {
    this.takeFailure('createSession');
    for (const session of this.sessions.values()) {
      if (conversationId !== undefined && session.info.conversation_id === conversationId) {
        return { ...session.info, created: false };
      }
    }
    const number = this.nextId++;
    const info: SessionInfo = {
      session_id: `session-${number}`,
      conversation_id: conversationId ?? `conversation-${number}`,
      restored: false,
      created: true,
    };
    this.sessions.set(info.session_id, { info, files: new Map(), running: false });
    return info;
  }

  async exec(request: ExecRequest, signal: AbortSignal): Promise<ExecResult> {
    this.takeFailure('exec');
    const session = this.session(request.session_id);
    const record = { request, signal };
    this.execs.push(record);
    for (const resolve of this.execStartedWaiters.splice(0)) resolve(record);
    if (this.hangExec) {
      session.running = true;
      try {
        await new Promise<never>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      } finally {
        session.running = false;
      }
    }
    return {
      status: 'ok',
      stdout: request.code,
      stderr: '',
      error: null,
      duration_ms: 1,
      outputs: [],
      stdout_truncated_bytes: 0,
      stderr_truncated_bytes: 0,
      worker_restarted: false,
    };
  }

  async upload(
    sessionId: string,
    name: string,
    body: Readable,
    size: number,
    directory: 'uploads' | 'downloads' = 'uploads',
  ): Promise<OutputFile> {
    this.takeFailure('upload');
    const session = this.session(sessionId);
    const record: UploadRecord = {
      sessionId,
      name,
      declaredSize: size,
      bytesRead: 0,
      streamError: null,
    };
    this.uploads.push(record);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of body) {
        const bytes = Buffer.from(chunk);
        record.bytesRead += bytes.length;
        chunks.push(bytes);
      }
    } catch (error) {
      record.streamError = error instanceof Error ? error : new Error(String(error));
      throw error;
    }
    const path = `${directory}/${name}`;
    const content = Buffer.concat(chunks);
    session.files.set(path, content);
    return { path, size: content.length, mime: mimeOf(name) };
  }

  async readPath(sessionId: string, path: string): Promise<FileRead> {
    this.takeFailure('readPath');
    this.readPaths.push(path);
    const session = this.session(sessionId);
    const content = session.files.get(path);
    if (content !== undefined) {
      const failAfter = this.failDownloadAfterBytes;
      const body =
        failAfter === null
          ? Readable.from([content])
          : Readable.from(
              (async function* () {
                yield content.subarray(0, failAfter);
                await new Promise((resolve) => setTimeout(resolve, 10));
                throw new Error('disk vanished');
              })(),
            );
      return { kind: 'file', size: content.length, mime: mimeOf(path), body };
    }
    const prefix = path === '' ? '' : `${path}/`;
    const entries: WorkspaceEntry[] = [...session.files.entries()]
      .filter(([filePath]) => filePath.startsWith(prefix))
      .map(([filePath, bytes]) => ({
        path: filePath,
        type: 'file',
        size: bytes.length,
        mtime_ms: 0,
      }));
    if (entries.length === 0 && path !== '') {
      throw new SandboxError('not-found', `No such path: ${path}`);
    }
    return { kind: 'directory', entries };
  }

  async interrupt(sessionId: string): Promise<{ interrupted: boolean }> {
    this.takeFailure('interrupt');
    return { interrupted: this.session(sessionId).running };
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.takeFailure('deleteSession');
    this.session(sessionId);
    this.sessions.delete(sessionId);
  }

  /** Conversations reset (tests read it); the fake has no archives, so it only records. */
  readonly resets: string[] = [];

  async resetDamagedWorkspace(conversationId: string): Promise<WorkspaceReset> {
    this.takeFailure('resetDamagedWorkspace');
    this.resets.push(conversationId);
    return { conversation_id: conversationId, kept_as: [`/archives/${conversationId}.damaged`] };
  }
}
