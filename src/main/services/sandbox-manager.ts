/**
 * Decides where python_execute runs, following the seed's three ways (Python 沙盒：三种启用方式):
 * an external sandbox (address + key from settings, else SANDBOX_BASE_URL / SANDBOX_API_KEY), or a
 * local sidecar this process starts on loopback with a random key when Docker and the runner image
 * are there, or none — then python_execute is hidden and the status says why ("请先配置沙盒").
 *
 * Deciding that a local sidecar can run is a cheap check over the engine's socket
 * (`@aivory/sandbox/engine-check`, no dockerode). Without a warm pool (the CLI) the sidecar itself
 * — dockerode, the HTTP server — starts with the client's first request, so `aivory tools` or a
 * turn that never runs Python does not pay for it; with one (the app, `aivory serve`) it starts at
 * once, so the warm container is ready by the first call.
 */
import { join } from 'node:path';
import type { RunningSidecar } from '@aivory/sandbox';
import type { SandboxConfig } from '@aivory/sandbox/engine-check';
import type { Logger, SandboxConnection, SandboxConnector, SecretStore } from '../core/ports';
import { AivoryError, toPublicError } from '../../shared/errors';
import type { SettingsService } from './settings-service';

/** The seed's status line when no sandbox can be used. */
export const SANDBOX_NOT_CONFIGURED = '请先配置沙盒';

export type SandboxStatus =
  | { state: 'external'; url: string }
  /** `url` is null while a sidecar started on first use has not started. */
  | { state: 'local'; url: string | null }
  | { state: 'unavailable'; reason: string };

export interface SandboxManagerOptions {
  env: Record<string, string | undefined>;
  settings: SettingsService;
  secrets: SecretStore;
  dataDir: string;
  logger: Logger;
  /** Opens the sidecar's HTTP API (the composition root passes the adapter's). */
  connect: SandboxConnector;
  /** Pre-started containers for the local sidecar (the desktop app keeps one warm). */
  warmPool?: number;
}

export class SandboxManager {
  private resolved: Promise<{ client: SandboxConnection | null; status: SandboxStatus }> | null =
    null;
  /** The local sidecar, started or starting. */
  private local: Promise<RunningSidecar> | null = null;
  /** Counts decisions: a client from an earlier one (before reset or close) starts nothing. */
  private generation = 0;

  constructor(private readonly options: SandboxManagerOptions) {}

  /** The client to use and the status to show; resolved once, then cached. */
  resolve(): Promise<{ client: SandboxConnection | null; status: SandboxStatus }> {
    this.resolved ??= this.decide();
    return this.resolved;
  }

  /** Forgets the decision (settings changed): a local sidecar is stopped, the next use decides again. */
  async reset(): Promise<void> {
    const pending = this.resolved;
    this.resolved = null;
    this.generation += 1;
    if (pending) await pending.catch(() => undefined);
    await this.close();
  }

  /**
   * Stops a local sidecar (its workspaces are saved first). Returns what the user must be told:
   * one line per workspace that could not be saved (its container was kept with the files).
   */
  async close(): Promise<string[]> {
    this.generation += 1;
    const starting = this.local;
    this.local = null;
    if (!starting) return [];
    let local: RunningSidecar;
    try {
      local = await starting;
    } catch {
      return []; // it never started: nothing to save
    }
    const report = await local.close();
    return report.unsaved.map((unsaved) => {
      const line = unsavedWorkspaceLine(unsaved.conversation_id, unsaved.error);
      this.options.logger.error(line);
      return line;
    });
  }

  private async decide(): Promise<{ client: SandboxConnection | null; status: SandboxStatus }> {
    const { env, settings, secrets } = this.options;
    const saved = settings.get('sandbox');
    const url = saved.baseUrl.trim() || env.SANDBOX_BASE_URL?.trim() || '';
    const savedKey = saved.apiKeyRef ? await secrets.get(saved.apiKeyRef) : null;
    const key = savedKey ?? env.SANDBOX_API_KEY ?? '';
    if (url !== '') {
      if (key === '') {
        return unavailable(
          `the sandbox address ${url} is set but its key is not (SANDBOX_API_KEY or the sandbox key in settings)`,
        );
      }
      return { client: this.options.connect(url, key), status: { state: 'external', url } };
    }
    if (env.AIVORY_LOCAL_SANDBOX === '0')
      return unavailable('the local sandbox is switched off (AIVORY_LOCAL_SANDBOX=0)');
    return this.startLocal();
  }

  private async startLocal(): Promise<{ client: SandboxConnection | null; status: SandboxStatus }> {
    const { env, dataDir } = this.options;
    // The configuration and the engine check only; dockerode and the sidecar load when it starts.
    const { checkEngine, loadSandboxConfig } = await import('@aivory/sandbox/engine-check');
    const saved = this.options.settings.get('sandbox');
    let config: SandboxConfig;
    try {
      // Read without a key (allowed on loopback): the sidecar's random key is made when it
      // starts (`sidecarKey`), so a start that only asks whether Python can run (`aivory tools`)
      // never loads node:crypto (~7 ms).
      config = loadSandboxConfig({
        ...env,
        SANDBOX_HOST: '127.0.0.1',
        SANDBOX_PORT: '0',
        SANDBOX_API_KEY: undefined,
        SANDBOX_ALLOW_NO_AUTH: '1',
        SANDBOX_ARCHIVE_DIR: env.SANDBOX_ARCHIVE_DIR ?? join(dataDir, 'sandbox', 'archives'),
        SANDBOX_WARM_POOL: String(this.options.warmPool ?? 0),
        SANDBOX_DEFAULT_TIMEOUT_S: String(saved.execTimeoutSeconds),
        SANDBOX_IDLE_SECONDS: String(saved.idleReapSeconds),
        SANDBOX_MEMORY: `${saved.memoryMiB}m`,
        // The saved choice; left at auto, SANDBOX_RUNTIME from the environment still applies.
        SANDBOX_RUNTIME: sandboxRuntime(saved.runtime, env),
      });
    } catch (error) {
      return unavailable(`the local sandbox configuration is invalid: ${String(error)}`);
    }
    const check = await checkEngine(config.dockerSocket, config.runtime, config.image);
    if (!check.ok) {
      if (check.problem === 'unreachable') {
        this.options.logger.info('sandbox: the container engine is not reachable', {
          socket: config.dockerSocket,
          reason: check.reason,
        });
        return unavailable(
          `Docker is not reachable at ${config.dockerSocket} (install Docker and start it, or Podman's socket service, or set a sandbox address)`,
        );
      }
      if (check.problem === 'runtime') return unavailable(check.error);
      return unavailable(
        `the runner image ${config.image} is missing (build it: npx aivory sandbox image build)`,
      );
    }
    let key: string | null = null;
    /** This sidecar's Bearer key: random, made once, when first needed. */
    const apiKey = (): string => (key ??= sidecarKey());
    const generation = this.generation;
    const start = async (): Promise<string> => {
      if (generation !== this.generation) {
        throw new AivoryError(
          'connection',
          'The local sandbox was stopped (settings changed or the app is closing).',
        );
      }
      this.local ??= this.startSidecar({ ...config, apiKey: apiKey(), authDisabled: false });
      try {
        return (await this.local).url;
      } catch (error) {
        this.local = null; // the next request tries again
        throw new AivoryError(
          'connection',
          `The local sandbox could not start: ${toPublicError(error).message}`,
        );
      }
    };
    if ((this.options.warmPool ?? 0) > 0) {
      const url = await start();
      return { client: this.options.connect(url, apiKey), status: { state: 'local', url } };
    }
    return { client: this.options.connect(start, apiKey), status: { state: 'local', url: null } };
  }

  private async startSidecar(config: SandboxConfig): Promise<RunningSidecar> {
    const { logger } = this.options;
    const { startSidecar } = await import('@aivory/sandbox');
    const sidecarLog = (level: 'info' | 'warn' | 'error') => (message: string, fields?: object) =>
      logger[level](`sandbox: ${message}`, fields ? { ...fields } : undefined);
    return startSidecar(config, {
      info: sidecarLog('info'),
      warn: sidecarLog('warn'),
      error: sidecarLog('error'),
    });
  }
}

/** A local sidecar's Bearer key: 24 random bytes. */
function sidecarKey(): string {
  // node:crypto at first use, not imported: loading it costs every start ~7 ms (issue 24).
  return process.getBuiltinModule('node:crypto').randomBytes(24).toString('base64url');
}

/** What the user reads about a workspace the sandbox could not save when it stopped. */
export function unsavedWorkspaceLine(conversationId: string, error: string): string {
  return `The sandbox files of conversation ${conversationId} could not be saved (${error}). Its container was kept running with the files; saving is tried again the next time the sandbox starts.`;
}

function sandboxRuntime(
  saved: 'runc' | 'runsc' | 'auto',
  env: Record<string, string | undefined>,
): string | undefined {
  return saved === 'auto' ? env.SANDBOX_RUNTIME : saved;
}

function unavailable(reason: string): { client: null; status: SandboxStatus } {
  return {
    client: null,
    status: { state: 'unavailable', reason: `${SANDBOX_NOT_CONFIGURED}: ${reason}` },
  };
}
