/**
 * HTTP client for the sandbox sidecar (sandbox/README.md), local or external: same contract,
 * Bearer key, JSON. Errors become AivoryErrors whose messages say what to check (the seed's
 * 运行与故障检查 list: address, key, Docker, image), never containing the key.
 */
import { AivoryError } from '../../../shared/errors';
import { DamagedWorkspaceError } from '../../../shared/sandbox-workspace';
import type {
  SandboxConnection,
  SandboxConnector,
  SandboxEntry,
  SandboxExecResult,
  SandboxHealth,
  SandboxOutputFile,
} from '../../core/ports';

/** Seed: the sidecar's exec cap plus a client margin of 120 s (预留 120 秒客户端余量). */
export const CLIENT_MARGIN_MS = 120_000;
/** Health and session calls are quick; a slow answer means something is wrong. */
const CONTROL_TIMEOUT_MS = 30_000;
/**
 * Longest error message kept from the sidecar: a damaged save's names what is damaged and
 * where the save is (a path of up to a few hundred characters); anything longer is cut.
 */
const ERROR_MESSAGE_CHARS = 1000;
/** The lead of the sidecar's restore failures, left out where the app words its own. */
const RESTORE_FAILED_LEAD = 'Restoring the archived workspace failed: ';

/** What setting damaged saves aside did (POST /workspaces/reset-damaged). */
export interface WorkspaceReset {
  conversation_id: string;
  /** Where each damaged save is kept, newest first. */
  kept_as: string[];
}

export class SandboxClient implements SandboxConnection {
  /** The address once known (a local sidecar started on first use has none before). */
  private baseUrl: string | null;
  private readonly address: () => Promise<string>;

  /**
   * `baseUrl` is the sidecar's address, or a function that starts a local sidecar and gives its
   * address: then the sidecar starts with the first request, not before (`aivory tools` and a
   * turn that never runs Python do not pay for it).
   */
  constructor(
    baseUrl: string | (() => Promise<string>),
    private readonly apiKey: string | (() => string),
  ) {
    this.baseUrl = typeof baseUrl === 'string' ? trimSlashes(baseUrl) : null;
    this.address = typeof baseUrl === 'string' ? () => Promise.resolve(baseUrl) : baseUrl;
  }

  /** The sidecar's address, or null while a sidecar started on first use has not started. */
  get url(): string | null {
    return this.baseUrl;
  }

  health(signal?: AbortSignal): Promise<SandboxHealth> {
    return this.json<SandboxHealth>('GET', '/healthz', undefined, signal, CONTROL_TIMEOUT_MS);
  }

  async createSession(conversationId: string, signal?: AbortSignal): Promise<string> {
    const answer = await this.json<{ session_id: string }>(
      'POST',
      '/sessions',
      { conversation_id: conversationId },
      signal,
      CONTROL_TIMEOUT_MS,
    );
    return answer.session_id;
  }

  /**
   * Sets the conversation's damaged saves aside so its next session starts empty. The sidecar
   * refuses (409 `not-damaged`, nothing changed) when a save can be read: then an AivoryError
   * with its reason.
   */
  async resetDamagedWorkspace(conversationId: string, signal?: AbortSignal): Promise<string[]> {
    const answer = await this.json<Partial<WorkspaceReset>>(
      'POST',
      '/workspaces/reset-damaged',
      { conversation_id: conversationId },
      signal,
      CONTROL_TIMEOUT_MS * 4,
    );
    const kept = Array.isArray(answer.kept_as) ? answer.kept_as : [];
    // Untrusted like any answer: strings only, bounded.
    return kept
      .filter((where): where is string => typeof where === 'string')
      .slice(0, 2)
      .map((where) => where.slice(0, ERROR_MESSAGE_CHARS));
  }

  exec(
    sessionId: string,
    code: string,
    timeoutSeconds: number,
    signal: AbortSignal,
  ): Promise<SandboxExecResult> {
    return this.json<SandboxExecResult>(
      'POST',
      '/exec',
      { session_id: sessionId, code, timeout_s: timeoutSeconds },
      signal,
      timeoutSeconds * 1000 + CLIENT_MARGIN_MS,
    );
  }

  /** Stores `body` as /workspace/<directory>/<name> (uploads: the user's files; downloads: fetched). */
  async upload(
    sessionId: string,
    name: string,
    body: Uint8Array,
    options: { directory?: 'uploads' | 'downloads'; signal?: AbortSignal } = {},
  ): Promise<SandboxOutputFile> {
    const query = `name=${encodeURIComponent(name)}&dir=${options.directory ?? 'uploads'}`;
    const response = await this.send(
      'POST',
      `/sessions/${encodeURIComponent(sessionId)}/files?${query}`,
      body,
      'application/octet-stream',
      options.signal,
      CONTROL_TIMEOUT_MS * 4,
    );
    return (await response.json()) as SandboxOutputFile;
  }

  /** The entries of a workspace directory (relative to /workspace); [] when it does not exist. */
  async list(sessionId: string, path: string, signal?: AbortSignal): Promise<SandboxEntry[]> {
    try {
      const answer = await this.json<{ entries?: SandboxEntry[] }>(
        'GET',
        `/sessions/${encodeURIComponent(sessionId)}/files?path=${encodeURIComponent(path)}`,
        undefined,
        signal,
        CONTROL_TIMEOUT_MS,
      );
      return Array.isArray(answer.entries) ? answer.entries : [];
    } catch (error) {
      if (error instanceof AivoryError && error.code === 'not-found') return [];
      throw error;
    }
  }

  /** Downloads one workspace file (path relative to /workspace). */
  async download(sessionId: string, path: string, signal?: AbortSignal): Promise<Uint8Array> {
    const response = await this.send(
      'GET',
      `/sessions/${encodeURIComponent(sessionId)}/files?path=${encodeURIComponent(path)}`,
      undefined,
      undefined,
      signal,
      CONTROL_TIMEOUT_MS * 4,
    );
    return new Uint8Array(await response.arrayBuffer());
  }

  private async json<T>(
    method: string,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<T> {
    const response = await this.send(
      method,
      path,
      body === undefined ? undefined : JSON.stringify(body),
      'application/json',
      signal,
      timeoutMs,
    );
    return (await response.json()) as T;
  }

  private async send(
    method: string,
    path: string,
    body: string | Uint8Array | undefined,
    contentType: string | undefined,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<Response> {
    const baseUrl = (this.baseUrl ??= trimSlashes(await this.address()));
    const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${typeof this.apiKey === 'string' ? this.apiKey : this.apiKey()}`,
          ...(contentType ? { 'content-type': contentType } : {}),
        },
        ...(body === undefined ? {} : { body }),
        redirect: 'error',
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? 'it did not answer in time'
          : describeNetworkError(error);
      throw new AivoryError(
        'connection',
        `Cannot reach the sandbox at ${baseUrl}: ${reason}. Is it running?`,
      );
    }
    if (response.ok) return response;
    const { code, message } = await errorBody(response);
    if (response.status === 401) {
      throw new AivoryError(
        'auth',
        `The sandbox at ${baseUrl} rejected the key (HTTP 401): the sandbox key in settings must match the sidecar's SANDBOX_API_KEY.`,
      );
    }
    if (response.status === 409 && code === 'damaged-save') {
      throw new DamagedWorkspaceError(
        message.startsWith(RESTORE_FAILED_LEAD)
          ? message.slice(RESTORE_FAILED_LEAD.length)
          : message,
      );
    }
    if (response.status === 409 && code === 'not-damaged')
      throw new AivoryError('provider', message);
    throw new AivoryError(
      response.status === 404 ? 'not-found' : 'provider',
      `Sandbox error (HTTP ${response.status}): ${message}`,
    );
  }
}

/** The sidecar's `{error: {code, message}}`; the status text when the body is not that. */
async function errorBody(response: Response): Promise<{ code: string | null; message: string }> {
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
    return {
      code: typeof body.error?.code === 'string' ? body.error.code : null,
      message:
        typeof body.error?.message === 'string'
          ? body.error.message.slice(0, ERROR_MESSAGE_CHARS)
          : response.statusText,
    };
  } catch {
    return { code: null, message: response.statusText };
  }
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code =
    typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : '';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND') return 'host not found';
  return cause instanceof Error ? cause.message : String(cause);
}

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The `SandboxConnector` the composition root hands the sandbox manager. */
export const connectSandbox: SandboxConnector = (address, apiKey) =>
  new SandboxClient(address, apiKey);
