/**
 * One live session per MCP service in this process, shared by chat turns, the service page
 * (test, sync, prompts, resources) and the user's own calls: opened on first use, closed after
 * an idle period (McpIdleClock), at once when the service changes (McpServices calls
 * `disconnect`), and replaced when it turns out gone — the server restarted or the connection
 * dropped while idle — with the request sent once more on the new one (`use`). The desktop app
 * and `aivory serve` keep theirs for as long as they run; the one-shot CLI closes its on exit.
 * The endpoint is built at connect time from the service as stored then: header and env values
 * come out of the secret store, the URL passes the address rules, and stdio needs the setting.
 */
import { AivoryError } from '../../../shared/errors';
import type { McpService } from '../../../shared/mcp';
import { isUndelivered, McpError } from '../../core/ports';
import type {
  McpAuthChallenge,
  McpEndpoint,
  McpLogEntry,
  McpSession,
  McpSignIn,
} from '../../core/ports';
import type { McpElicitationRouter } from './mcp-elicitation-router';
import type { McpSamplingRouter } from './mcp-sampling-router';
import { checkedAddresses, checkResolvedAddresses, checkServiceUrl } from './mcp-endpoint-policy';
import { fillSecretParts, hideSecretParts } from './mcp-secret-parts';
import { MCP_IDLE_CLOSE_MS, McpIdleClock } from './mcp-idle-clock';
import { oauthEndpoint } from './mcp-oauth-state';
import type { McpServicesDependencies } from './mcp-services-dependencies';
import { rootsOption } from './mcp-roots';

/** Connect + initialize deadline for tests, syncs and calls. */
const CONNECT_TIMEOUT_MS = 20_000;

/**
 * Why a service's session ended: unused for the idle period; the service was edited, disabled,
 * removed, signed in or out (or its folders changed and it could not be told); the server or
 * the connection went away; the app is closing.
 */
export type McpSessionEnd = 'idle' | 'changed' | 'lost' | 'shutdown';

export class McpConnections {
  private readonly sessions = new Map<string, Promise<McpSession>>();
  private readonly idle: McpIdleClock;
  private readonly endListeners: ((serviceId: string, why: McpSessionEnd) => void)[] = [];
  /**
   * Per service, the last origin its sign-in was refused for (another port of its local host,
   * not trusted): what the settings card offers to trust. In memory only; a new attempt or a
   * change of trust clears it.
   */
  readonly refusedOrigins = new Map<string, string>();

  constructor(
    private readonly dependencies: Omit<McpServicesDependencies, 'signIn'> & {
      signIn?: ((service: McpService) => McpSignIn) | undefined;
    },
    /** tools/list_changed from a service, with the session that announced it. */
    private readonly onToolsChanged: (serviceId: string, session: McpSession) => void,
    /** Routes each server's elicitation to whoever runs a call on the service. */
    private readonly elicitation?: McpElicitationRouter,
    /** Routes each server's sampling request to whoever runs a call on the service. */
    private readonly sampling?: McpSamplingRouter,
  ) {
    this.idle = new McpIdleClock(dependencies.idleCloseMs ?? MCP_IDLE_CLOSE_MS, (serviceId) => {
      void this.disconnect(serviceId, 'idle');
    });
  }

  private readonly libraryListeners: ((serviceId: string) => void)[] = [];

  /** A server's prompts or resources changed (prompts/ or resources/list_changed). */
  onLibraryChanged(listener: (serviceId: string) => void): void {
    this.libraryListeners.push(listener);
  }

  private readonly updateListeners: ((serviceId: string, uri: string) => void)[] = [];

  /** A server says a resource changed (notifications/resources/updated after a subscribe). */
  onResourceUpdated(listener: (serviceId: string, uri: string) => void): void {
    this.updateListeners.push(listener);
  }

  /**
   * Keeps the service's session from its idle close (a watched resource: the subscription lives
   * on the session); the function returned lets it go (once).
   */
  hold(serviceId: string): () => void {
    return this.idle.begin(serviceId);
  }

  /** Called each time a service's session ends, with why (after it was closed). */
  onSessionEnd(listener: (serviceId: string, why: McpSessionEnd) => void): void {
    this.endListeners.push(listener);
  }

  /** The service's session, opened if there is none; its idle period starts (again). */
  session(service: McpService, signal: AbortSignal): Promise<McpSession> {
    const existing = this.sessions.get(service.id);
    if (existing) {
      this.idle.start(service.id);
      return existing;
    }
    const opening = this.open(service, signal);
    this.sessions.set(service.id, opening);
    opening.then(
      (session) => {
        session.onClose((reason) => {
          if (!this.forget(service.id, opening)) return;
          this.dependencies.logger.warn('MCP connection closed', { service: service.name, reason });
          this.ended(service.id, 'lost');
        });
        if (this.sessions.get(service.id) === opening) this.idle.start(service.id);
      },
      () => this.forget(service.id, opening),
    );
    return opening;
  }

  /**
   * Runs `action` on the service's session, which counts as in use meanwhile (no idle close).
   * When a session opened before turns out gone before the request reached the server
   * (McpUndelivered: a restarted server no longer knows it, the connection was lost while idle,
   * the server refused the connection), it is replaced and `action` runs once more on a new
   * session; what that one answers, failure included, is the caller's. A request the server may
   * have run (the connection broke during it) is never sent again.
   */
  async use<T>(
    service: McpService,
    signal: AbortSignal,
    action: (session: McpSession) => Promise<T>,
  ): Promise<T> {
    const end = this.idle.begin(service.id);
    try {
      const earlier = this.sessions.get(service.id);
      try {
        return await action(await this.session(service, signal));
      } catch (error) {
        if (earlier === undefined || !isUndelivered(error) || signal.aborted) throw error;
        this.dependencies.logger.info('MCP session gone: reconnecting once', {
          service: service.name,
          error: error.message,
        });
        await this.drop(service.id, earlier, 'lost');
        return await action(await this.session(service, signal));
      }
    } finally {
      end();
    }
  }

  /**
   * The user's OAuth sign-in with the service (a McpSignInRequired told what the server asked
   * for): the connection is dropped, the sign-in runs without any connection deadline, and the
   * next request connects with the new token.
   */
  async signIn(
    service: McpService,
    challenge: McpAuthChallenge,
    signal: AbortSignal,
  ): Promise<void> {
    const user = this.dependencies.signIn?.(service);
    if (user === undefined)
      throw new AivoryError(
        'invalid-input',
        `"${service.name}" needs a sign-in, which needs a browser.`,
      );
    await this.disconnect(service.id);
    await this.dependencies.connector.signIn(
      await this.endpoint(service, signal),
      challenge,
      user,
      signal,
    );
  }

  /** Closes every session (the app or the CLI is exiting). */
  async close(): Promise<void> {
    this.idle.stopAll();
    await Promise.all([...this.sessions.keys()].map((id) => this.disconnect(id, 'shutdown')));
  }

  /**
   * Closes the service's session, if any; the next use opens a new one. The session leaves the
   * table at once (before this resolves), so no request started afterwards gets it.
   */
  async disconnect(serviceId: string, why: McpSessionEnd = 'changed'): Promise<void> {
    const session = this.sessions.get(serviceId);
    if (session) await this.drop(serviceId, session, why);
  }

  /** Closes `session` and, when it still is the service's, takes it out of the table. */
  private async drop(
    serviceId: string,
    session: Promise<McpSession>,
    why: McpSessionEnd,
  ): Promise<void> {
    const current = this.forget(serviceId, session);
    try {
      await (await session).close();
    } catch {
      // It never opened: nothing to close, and nothing ended.
      return;
    }
    if (current) this.ended(serviceId, why);
  }

  /** Takes `session` out of the table if it is the service's; false when it was not. */
  private forget(serviceId: string, session: Promise<McpSession>): boolean {
    if (this.sessions.get(serviceId) !== session) return false;
    this.sessions.delete(serviceId);
    this.idle.stop(serviceId);
    return true;
  }

  private ended(serviceId: string, why: McpSessionEnd): void {
    if (why === 'idle') this.dependencies.logger.info('MCP session closed: idle', { serviceId });
    for (const listener of this.endListeners) {
      try {
        listener(serviceId, why);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  /**
   * Asks each live connection for the log level its settings now say (`logging/setLevel`), so a
   * change applies without reconnecting; connections opened later get it on connecting.
   */
  async applyLogLevels(services: readonly McpService[]): Promise<void> {
    const levelOf = this.dependencies.logLevel;
    if (!levelOf) return;
    await Promise.all(
      services.map(async (service) => {
        const live = this.sessions.get(service.id);
        if (!live) return;
        try {
          await (await live).setLogLevel(levelOf(service));
        } catch {
          // Not open (yet, or any more): the next connection asks for the level.
        }
      }),
    );
  }

  /** The service's live (or opening) connection, if any; never opens one. */
  live(serviceId: string): Promise<McpSession> | undefined {
    return this.sessions.get(serviceId);
  }

  private async open(given: McpService, signal: AbortSignal): Promise<McpSession> {
    // As stored now: a turn that began before an edit reconnects with the edited service.
    const service = this.dependencies.store.getService(given.id);
    if (!service) throw new AivoryError('not-found', `"${given.name}" was removed.`);
    const endpoint = await this.endpoint(service, signal);
    let session: McpSession;
    const router = this.elicitation;
    const sampling = this.sampling;
    try {
      session = await this.dependencies.connector.connect(endpoint, {
        signal,
        timeoutMs: CONNECT_TIMEOUT_MS,
        onStderr: (line) => this.dependencies.stderrSink?.(service.id, line),
        onLog: (entry) => this.dependencies.stderrSink?.(service.id, serverLogLine(entry)),
        ...(this.dependencies.logLevel ? { logLevel: this.dependencies.logLevel(service) } : {}),
        ...rootsOption(this.dependencies.store, service.id),
        ...(router ? { onElicit: (request, asked) => router.route(service, request, asked) } : {}),
        ...(sampling
          ? { onSample: (request, asked) => sampling.route(service, request, asked) }
          : {}),
      });
    } catch (error) {
      const logPath = this.dependencies.stderrLogPath?.(service.id);
      // A local server that did not start: its log has the whole story.
      if (error instanceof McpError && error.kind === 'spawn' && logPath !== undefined)
        throw new McpError('spawn', `${error.message} (its log: ${logPath})`);
      throw withPartsHidden(error, endpoint);
    }
    // What the server offers, for the turns that decide without connecting (the resource reader).
    try {
      this.dependencies.store.setServerFeatures(service.id, session.features);
    } catch (error) {
      this.dependencies.logger.warn('MCP: the server features could not be saved', {
        service: service.name,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    session.onToolsChanged(() => this.onToolsChanged(service.id, session));
    session.onLibraryChanged(() => {
      for (const listener of this.libraryListeners) listener(service.id);
    });
    session.onResourceUpdated((uri) => {
      for (const listener of this.updateListeners) listener(service.id, uri);
    });
    return session;
  }

  private async endpoint(service: McpService, signal: AbortSignal): Promise<McpEndpoint> {
    const reveal = async (entries: McpService['headers']) => {
      const values: Record<string, string> = {};
      for (const entry of entries)
        values[entry.name] = (await this.dependencies.secrets.get(entry.secretRef)) ?? '';
      return values;
    };
    if (service.transport === 'stdio') {
      if (!this.dependencies.allowLocalCommands()) {
        throw new AivoryError(
          'invalid-input',
          'Local command MCP servers are off: aivory settings set mcp.allowLocalCommands true',
        );
      }
      return {
        transport: 'stdio',
        command: service.command ?? '',
        args: await Promise.all(
          service.args.map((arg) =>
            fillSecretParts(arg, service.id, this.dependencies.secrets, []),
          ),
        ),
        env: await reveal(service.env),
        allowedLoaderEnv: service.env
          .filter((entry) => entry.loaderAllowed === true)
          .map((entry) => entry.name),
      };
    }
    // Checked as stored (placeholders, no secret in a message), then with its secret parts.
    checkServiceUrl(service.url ?? '');
    const hidden: string[] = [];
    const url = checkServiceUrl(
      await fillSecretParts(service.url ?? '', service.id, this.dependencies.secrets, hidden),
    );
    const { resolver, secrets } = this.dependencies;
    await checkResolvedAddresses(url, resolver, signal);
    const clientMetadataUrl = this.dependencies.oauthClientMetadataUrl?.();
    return {
      transport: service.transport,
      url: url.url,
      headers: await reveal(service.headers),
      ...(hidden.length > 0 ? { hiddenParts: hidden } : {}),
      oauth: await oauthEndpoint(service, url, {
        secrets,
        resolver,
        ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
        onRefusedOrigin: (origin) => this.refusedOrigins.set(service.id, origin),
      }),
      // Every new connection resolves and checks again, and connects to what it checked.
      resolveAddresses: (hostname, lookupSignal) =>
        hostname.replace(/\.+$/, '').toLowerCase() === url.hostname.toLowerCase()
          ? checkedAddresses(url, resolver, lookupSignal)
          : Promise.reject(
              new AivoryError('invalid-input', `${hostname} is not this service's host`),
            ),
    };
  }
}

/** A server's log message in its service's log, told apart from stderr by its level tag. */
export function serverLogLine(entry: McpLogEntry): string {
  return `[server log: ${entry.level}] ${entry.logger === undefined ? '' : `${entry.logger}: `}${entry.text}`;
}

/**
 * A connect error whose message names a secret part of the URL (a key in the path, say) as
 * `••••` instead (`mcp-secret-parts.ts`); anything else as it is.
 */
function withPartsHidden(error: unknown, endpoint: McpEndpoint): unknown {
  const hidden = endpoint.transport === 'stdio' ? [] : (endpoint.hiddenParts ?? []);
  if (hidden.length === 0 || !(error instanceof Error)) return error;
  // The same error (its kind and class decide what happens next), its message cleaned.
  error.message = hideSecretParts(error.message, hidden);
  return error;
}
