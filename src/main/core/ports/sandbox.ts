/**
 * The Python sandbox as tools and services see it. The HTTP client of the sidecar
 * (adapters/sandbox-client/sandbox-client.ts) implements the session calls; the services wrap it
 * per conversation (tool-preparation.ts).
 */

/** A file the code wrote under /workspace/outputs. */
export interface SandboxOutputFile {
  path: string;
  size: number;
  mime: string;
}

export interface SandboxExecResult {
  status: 'ok' | 'error' | 'timeout';
  stdout: string;
  stderr: string;
  error: string | null;
  duration_ms: number;
  outputs: SandboxOutputFile[];
  stdout_truncated_bytes?: number;
  stderr_truncated_bytes?: number;
  worker_restarted?: boolean;
  /** The container had stopped and /workspace was restored from its last save: what happened. */
  workspace_notice?: string;
}

/** The sidecar's GET /healthz answer. */
export interface SandboxHealth {
  ok: boolean;
  docker: boolean;
  image: string;
  image_present?: boolean;
  runc_version?: string | null;
  /** docker or podman (older sidecars leave these out). */
  engine?: string | null;
  engine_version?: string | null;
  /** runc, crun or runsc, and the isolation it gives, e.g. "gVisor (user-space kernel)". */
  runtime?: string | null;
  isolation?: string | null;
  warnings?: string[];
  /** Workspaces whose files could not be saved (newer sidecars); unchecked: see `aivory doctor`. */
  unsaved?: unknown;
}

/** One entry of a workspace directory listing. */
export interface SandboxEntry {
  /** Relative to /workspace. */
  path: string;
  type: 'file' | 'directory';
  size: number;
}

/** What python_execute needs from the sandbox: the conversation's session, exec, file download. */
export interface PythonSandbox {
  sessionFor(conversationId: string, signal: AbortSignal): Promise<string>;
  exec(
    sessionId: string,
    code: string,
    timeoutSeconds: number,
    signal: AbortSignal,
  ): Promise<SandboxExecResult>;
  download(sessionId: string, path: string, signal: AbortSignal): Promise<Uint8Array>;
}

/** What fetch_image needs: writes a file into the conversation's sandbox under /workspace/downloads/. */
export interface DownloadStager {
  /** Returns the file's absolute path in the sandbox (e.g. `/workspace/downloads/cat.png`). */
  stageDownload(
    conversationId: string,
    name: string,
    bytes: Uint8Array,
    signal: AbortSignal,
  ): Promise<string>;
}

/** Where workspace staging lists and uploads a session's /workspace/uploads. */
export interface UploadTarget {
  list(sessionId: string, path: string, signal?: AbortSignal): Promise<SandboxEntry[]>;
  upload(
    sessionId: string,
    name: string,
    body: Uint8Array,
    options: { directory?: 'uploads'; signal?: AbortSignal },
  ): Promise<unknown>;
}

/**
 * The sidecar's HTTP API as the app uses it (adapters/sandbox-client implements it): the sandbox
 * manager hands one out, the composition root wraps it per conversation for the tools. Exec and
 * download are python_execute's (`PythonSandbox`), the listing workspace staging's
 * (`UploadTarget`); its upload takes more than staging's (the downloads folder, for fetch_image)
 * and says what was written.
 */
export interface SandboxConnection
  extends Pick<PythonSandbox, 'exec' | 'download'>, Pick<UploadTarget, 'list'> {
  /** The sidecar's address, or null while a sidecar started on first use has not started. */
  readonly url: string | null;
  health(signal?: AbortSignal): Promise<SandboxHealth>;
  createSession(conversationId: string, signal?: AbortSignal): Promise<string>;
  /** Sets damaged saves of the conversation's workspace aside; where each is kept. */
  resetDamagedWorkspace(conversationId: string, signal?: AbortSignal): Promise<string[]>;
  upload(
    sessionId: string,
    name: string,
    body: Uint8Array,
    options?: { directory?: 'uploads' | 'downloads'; signal?: AbortSignal },
  ): Promise<SandboxOutputFile>;
}

/**
 * Opens a connection to the sidecar at `address`, or to a local sidecar that `address` starts
 * with the first request; `apiKey` is its Bearer key, or gives it at the first request (a local
 * sidecar's random key is made when it starts).
 */
export type SandboxConnector = (
  address: string | (() => Promise<string>),
  apiKey: string | (() => string),
) => SandboxConnection;
