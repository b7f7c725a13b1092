/**
 * What the HTTP layer needs from the sandbox: the seed's contract (health, sessions, exec) plus
 * ours (files, interrupt, delete). The Docker-backed implementation is `session-manager.ts`;
 * the HTTP tests use a fake.
 */
import type { Readable } from 'node:stream';

export interface HealthReport {
  ok: boolean;
  docker: boolean;
  image: string;
  /** Whether the runner image is present on the Docker host. */
  image_present: boolean;
  runc_version: string | null;
  /** The container engine behind the socket (Podman speaks the Docker API), or null if unreachable. */
  engine: 'docker' | 'podman' | null;
  engine_version: string | null;
  /** The OCI runtime sessions run under (runc, crun, runsc), or null when it cannot be used. */
  runtime: string | null;
  /** How sessions are isolated, e.g. "gVisor (user-space kernel)"; null with `runtime`. */
  isolation: string | null;
  /** Human-readable problems (missing image, outdated runc, Docker unreachable). */
  warnings: string[];
  /**
   * Workspaces whose last save failed, whose files only their container holds: live sessions and
   * containers kept after their session ended (see kept-containers.ts). Older sidecars leave it
   * out (and told of these in `warnings`).
   */
  unsaved?: UnsavedWorkspace[];
  sessions: number;
  max_sessions: number;
}

/** A workspace whose files could not be saved (`HealthReport.unsaved`). */
export interface UnsavedWorkspace {
  conversation_id: string;
  /** Why the last save failed. */
  error: string;
  /** The container that holds the files. */
  container_id: string;
  /** Since when a container is kept after its session ended (ISO time); null for a live session. */
  kept_since: string | null;
}

export interface SessionInfo {
  session_id: string;
  conversation_id: string;
  /** True when the workspace was restored from an archive. */
  restored: boolean;
  /** False when an existing live session was returned. */
  created: boolean;
}

export interface OutputFile {
  /** Relative to /workspace, e.g. `outputs/plot.png`. */
  path: string;
  size: number;
  mime: string;
}

/** Where uploads may land inside /workspace. */
export const UPLOAD_DIRECTORIES = ['uploads', 'downloads'] as const;
export type UploadDirectory = (typeof UPLOAD_DIRECTORIES)[number];

export type ExecStatus = 'ok' | 'error' | 'timeout';

export interface ExecResult {
  status: ExecStatus;
  stdout: string;
  stderr: string;
  /** Traceback text when status is error; a short explanation on timeout. */
  error: string | null;
  duration_ms: number;
  outputs: OutputFile[];
  stdout_truncated_bytes: number;
  stderr_truncated_bytes: number;
  /** True when the worker had to be killed and restarted (variables were lost). */
  worker_restarted: boolean;
  /**
   * Set when the session's container had stopped (killed outside the app) and /workspace was
   * restored from its last save, or when its last save could not be read and an older one was
   * restored: what happened to the files, in words.
   */
  workspace_notice?: string;
}

/** What POST /workspaces/reset-damaged did. */
export interface WorkspaceReset {
  conversation_id: string;
  /** Where each damaged save now is (a path on the sidecar's host, or an S3 URL), newest first. */
  kept_as: string[];
}

export interface ExecRequest {
  session_id: string;
  code: string;
  timeout_s?: number;
}

export interface WorkspaceEntry {
  /** Relative to /workspace. */
  path: string;
  type: 'file' | 'directory';
  size: number;
  mtime_ms: number;
}

export type FileRead =
  | { kind: 'directory'; entries: WorkspaceEntry[] }
  | { kind: 'file'; size: number; mime: string; body: Readable };

export type SandboxErrorCode =
  | 'bad-request'
  | 'not-found'
  | 'too-large'
  | 'busy'
  | 'limit'
  | 'unavailable'
  /**
   * The conversation's workspace cannot be restored because no save of it can be read: its
   * sessions fail until the user chooses to start empty (POST /workspaces/reset-damaged).
   */
  | 'damaged-save'
  /** POST /workspaces/reset-damaged refused: no damaged save stands in the way; nothing changed. */
  | 'not-damaged';

/** An error with an HTTP status and a message that is safe to return to the client. */
export class SandboxError extends Error {
  readonly code: SandboxErrorCode;

  constructor(code: SandboxErrorCode, message: string) {
    super(message);
    this.name = 'SandboxError';
    this.code = code;
  }

  get status(): number {
    switch (this.code) {
      case 'bad-request':
        return 400;
      case 'not-found':
        return 404;
      case 'too-large':
        return 413;
      case 'busy':
      case 'damaged-save':
      case 'not-damaged':
        return 409;
      case 'limit':
        return 429;
      case 'unavailable':
        return 503;
    }
  }
}

export interface SandboxService {
  health(): Promise<HealthReport>;
  /** One session per conversation; a missing id gets a fresh conversation id. */
  createSession(conversationId?: string): Promise<SessionInfo>;
  /**
   * Runs code in the session's worker. Aborting `signal` (the HTTP client went away) interrupts
   * the running code, so nothing keeps running for a caller that is gone.
   */
  exec(request: ExecRequest, signal: AbortSignal): Promise<ExecResult>;
  /**
   * Writes `body` (at most `size` bytes, already checked) to /workspace/<directory>/<name>:
   * `uploads` for the user's files, `downloads` for files a tool fetched (fetch_image).
   */
  upload(
    sessionId: string,
    name: string,
    body: Readable,
    size: number,
    directory?: UploadDirectory,
  ): Promise<OutputFile>;
  /** Lists a directory or streams a file, confined to /workspace. */
  readPath(sessionId: string, path: string): Promise<FileRead>;
  interrupt(sessionId: string): Promise<{ interrupted: boolean }>;
  deleteSession(sessionId: string): Promise<void>;
  /**
   * The user's way out when no save of the conversation's workspace can be read: the damaged
   * saves are kept aside (never deleted) so the next session starts with an empty /workspace.
   * Refused ('not-damaged', nothing changed) when a save can be read, or a session is open.
   */
  resetDamagedWorkspace(conversationId: string): Promise<WorkspaceReset>;
}
