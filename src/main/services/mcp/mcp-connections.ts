/**
 * One live connection per MCP service, opened on first use and reused by tests, syncs and calls;
 * dropped when the server goes away. The endpoint is built at connect time: header and env values
 * come out of the secret store, the URL passes the address rules, and stdio needs the setting.
 */
import { AivoryError } from '../../../shared/errors';
import type { McpService } from '../../../shared/mcp';
import { McpError } from '../../core/ports';
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
import { oauthEndpoint } from './mcp-oauth-state';
import type { McpServicesDependencies } from './mcp-services';
import { rootsOption } from './mcp-roots';

/** Connect + initialize deadline for tests, syncs and calls. */
const CONNECT_TIMEOUT_MS = 20_000;

export class McpConnections {
  private readonly sessions = new Map<string, Promise<McpSession>>();
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
  ) {}

  private readonly libraryListeners: ((serviceId: string) => void)[] = [];

  /** A server's prompts or resources changed (prompts/ or resources/list_changed). */
  onLibraryChanged(listener: (serviceId: string) => void): void {
    this.libraryListeners.push(listener);
  }

  session(service: McpService, signal: AbortSignal): Promise<McpSession> {
    const existing = this.sessions.get(service.id);
    if (existing) return existing;
    const opening = this.open(service, signal);
    this.sessions.set(service.id, opening);
    opening.catch(() => this.sessions.delete(service.id));
    return opening;
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

  async close(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.disconnect(id)));
  }

  async disconnect(serviceId: string): Promise<void> {
    const session = this.sessions.get(serviceId);
    this.sessions.delete(serviceId);
    if (!session) return;
    try {
      await (await session).close();
    } catch {
      // It never opened: nothing to close.
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

  private async open(service: McpService, signal: AbortSignal): Promise<McpSession> {
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
      throw error;
    }
    session.onToolsChanged(() => this.onToolsChanged(service.id, session));
    session.onLibraryChanged(() => {
      for (const listener of this.libraryListeners) listener(service.id);
    });
    session.onClose((reason) => {
      this.dependencies.logger.warn('MCP connection closed', { service: service.name, reason });
      this.sessions.delete(service.id);
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
        args: service.args,
        env: await reveal(service.env),
      };
    }
    const url = checkServiceUrl(service.url ?? '');
    const { resolver, secrets } = this.dependencies;
    await checkResolvedAddresses(url, resolver, signal);
    const clientMetadataUrl = this.dependencies.oauthClientMetadataUrl?.();
    return {
      transport: service.transport,
      url: url.url,
      headers: await reveal(service.headers),
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
