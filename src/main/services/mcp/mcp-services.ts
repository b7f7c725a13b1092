/**
 * The user's MCP services: add (header and env values into the SecretStore), test, sync with a
 * diff, accept, enable/disable, remove — and one live session per service, shared by calls,
 * turns and the service page (see McpConnections for when it closes).
 * `tools/list_changed` only marks a service stale; what models see changes when the user syncs
 * and accepts.
 */
import { originOf } from '../../../shared/url-origin';
import type { ErrorCode } from '../../../shared/errors';
import { AivoryError } from '../../../shared/errors';
import type {
  McpApprovalPolicy,
  McpService,
  McpSignInStatus,
  McpToolChange,
  McpToolRecord,
} from '../../../shared/mcp';
import type { McpRoot } from '../../../shared/mcp-roots';
import type {
  Clock,
  HostResolver,
  IdGenerator,
  Logger,
  McpCompletion,
  McpCompletionRef,
  McpConnector,
  McpLogLevel,
  McpPromptInfo,
  McpResourceContents,
  McpResourceInfo,
  McpResourceTemplateInfo,
  McpSession,
  McpSignIn,
  McpStore,
  NewMcpService,
  SecretStore,
} from '../../core/ports';
import { maskSecret } from '../../policy/secret-mask';
import { McpError, McpSignInRequired } from '../../core/ports';
import { McpConnections } from './mcp-connections';
import type { McpSessionEnd } from './mcp-connections';
import { McpRoots } from './mcp-roots';
import { McpResourceWatches } from './mcp-resource-watch';
import type { McpWatchEvent } from './mcp-resource-watch';
import { McpElicitationRouter } from './mcp-elicitation-router';
import { McpSamplingRouter } from './mcp-sampling-router';
import { diffTools, isCallable, matchesLatest } from './mcp-diff';
import { forgetSignIn, oauthStateRef, signInStatus } from './mcp-oauth-state';
import { parseServiceInput } from './mcp-service-input';
import type { McpServiceInput, ParsedOAuthInput, ParsedServiceInput } from './mcp-service-input';

/** How long the tool listing after a tools/list_changed may take. */
const LIST_CHANGED_CHECK_MS = 20_000;
/** Moves to another authorization server one user action follows (a server ping-ponging stops). */
const MAX_MOVES = 2;

export interface McpServicesDependencies {
  store: McpStore;
  secrets: SecretStore;
  connector: McpConnector;
  resolver: HostResolver;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** The "allow local command servers" setting (stdio). */
  allowLocalCommands: () => boolean;
  /** Where a stdio service's stderr lines go (a per-service log). */
  stderrSink?: (serviceId: string, line: string) => void;
  /** That log's file, named when a stdio server fails to start. */
  stderrLogPath?: (serviceId: string) => string;
  /**
   * What a service's server is asked to log (`logging/setLevel`; its messages go to the same
   * log); absent, the server's default stands.
   */
  logLevel?: (service: McpService) => McpLogLevel;
  /**
   * The user's part of an OAuth sign-in (a loopback listener and their browser); absent, a
   * server that needs a sign-in fails with a message saying so.
   */
  signIn?: (service: McpService, announce: (authorizationUrl: URL) => void) => McpSignIn;
  /** An https URL serving this app's Client ID Metadata Document (setting), if any. */
  oauthClientMetadataUrl?: () => string | undefined;
  /** How long a session may go unused before it is closed; default MCP_IDLE_CLOSE_MS. */
  idleCloseMs?: number;
}

/** A sign-in page opened for the user. */
export interface McpSignInPage {
  serviceId: string;
  serviceName: string;
  url: string;
}

/** A service as listed: counts, and headers / env shown masked. */
export interface McpServiceView extends Omit<McpService, 'headers' | 'env'> {
  headers: { name: string; value: string }[];
  env: { name: string; value: string }[];
  /** The OAuth sign-in (null for stdio services). */
  signIn: McpSignInStatus | null;
  /**
   * The last sign-in of this service was refused because it went to another origin of the
   * service's local host, which the user may trust (`trustSignInOrigin`); null otherwise.
   */
  refusedSignInOrigin: string | null;
  toolCount: number;
  callableCount: number;
  pendingChanges: number;
}

export class McpServices {
  private readonly staleListeners: ((serviceId: string) => void)[] = [];
  private readonly signInListeners: ((page: McpSignInPage) => void)[] = [];
  private readonly connections: McpConnections;
  /** Where a server's elicitation goes: the caller running a call on that service now. */
  readonly elicitation: McpElicitationRouter;
  /** Where a server's sampling request goes: the caller running a call on that service now. */
  readonly sampling: McpSamplingRouter;
  /** Watched resources (resources/subscribe on the shared sessions). */
  private readonly watches: McpResourceWatches;

  constructor(private readonly dependencies: McpServicesDependencies) {
    const { signIn } = dependencies;
    this.elicitation = new McpElicitationRouter(dependencies.logger);
    this.sampling = new McpSamplingRouter(dependencies.logger);
    this.connections = new McpConnections(
      {
        ...dependencies,
        signIn:
          signIn &&
          ((service) =>
            signIn(service, (url) => {
              const page = { serviceId: service.id, serviceName: service.name, url: url.href };
              for (const listener of this.signInListeners) listener(page);
            })),
      },
      (serviceId, session) => {
        void this.checkToolsChanged(serviceId, session);
      },
      this.elicitation,
      this.sampling,
    );
    this.watches = new McpResourceWatches({
      get: (idOrName) => this.get(idOrName),
      withSession: (service, signal, action) => this.withSession(service, signal, action),
      live: (serviceId) => this.connections.live(serviceId),
      hold: (serviceId) => this.connections.hold(serviceId),
      logger: dependencies.logger,
    });
    this.connections.onResourceUpdated((serviceId, uri) => this.watches.updated(serviceId, uri));
    this.connections.onSessionEnd((serviceId, why) => this.watches.sessionEnded(serviceId, why));
  }

  /**
   * The server's suggestions for an argument of a prompt or resource template as the user types
   * it (`completion/complete`); none when the server does not offer completions.
   */
  async complete(
    idOrName: string,
    ref: McpCompletionRef,
    argument: { name: string; value: string },
    context: Record<string, string>,
    signal: AbortSignal,
  ): Promise<McpCompletion> {
    const service = this.get(idOrName);
    return this.shown(service, async () =>
      this.asUser(service.id, signal, () =>
        this.withSession(service, signal, (session) =>
          session.complete(ref, argument, context, signal),
        ),
      ),
    );
  }

  /**
   * Watches a resource for changes (`resources/subscribe` on the shared session): `listener`
   * hears `updated` (read it again) and `ended`. Resolves with the watch's id once subscribed.
   */
  async watchResource(
    idOrName: string,
    uri: string,
    listener: (event: McpWatchEvent) => void,
    signal: AbortSignal,
  ): Promise<string> {
    const service = this.get(idOrName);
    return this.shown(service, () =>
      this.asUser(service.id, signal, () => this.watches.watch(service.id, uri, listener, signal)),
    );
  }

  /** Ends a watch (the view closed); false when there was none by that id. */
  unwatchResource(watchId: string): Promise<boolean> {
    return this.watches.unwatch(watchId);
  }

  /**
   * Whether the service's server offers resources, as last seen on a connection; true when no
   * connection has told yet (the model's resource reader is then offered, as before).
   */
  offersResources(idOrName: string): boolean {
    return this.dependencies.store.getServerFeatures(this.get(idOrName).id)?.resources !== false;
  }

  /** Ends every watch (nobody is left to show them). */
  unwatchAllResources(): Promise<void> {
    return this.watches.unwatchAll();
  }

  /**
   * Called when a server says its prompts or resources changed: nothing is cached, so the
   * composer's open list reloads (what models see never changes by this).
   */
  onLibraryChanged(listener: (serviceId: string) => void): void {
    this.connections.onLibraryChanged(listener);
  }

  /** Called each time a service's session ends (idle, changed, lost, shutdown). */
  onSessionEnd(listener: (serviceId: string, why: McpSessionEnd) => void): void {
    this.connections.onSessionEnd(listener);
  }

  /** Applies the log-level settings to the services connected now (see McpConnections). */
  applyLogLevels(): Promise<void> {
    return this.connections.applyLogLevels(this.dependencies.store.listServices());
  }

  /** Called with each sign-in page shown to the user (the CLI prints it, the app links it). */
  onSignInPage(listener: (page: McpSignInPage) => void): () => void {
    this.signInListeners.push(listener);
    return () => {
      const index = this.signInListeners.indexOf(listener);
      if (index >= 0) this.signInListeners.splice(index, 1);
    };
  }

  async list(): Promise<McpServiceView[]> {
    return Promise.all(this.dependencies.store.listServices().map((service) => this.view(service)));
  }

  /** The service by id or name; throws `not-found`. */
  get(idOrName: string): McpService {
    const service = this.dependencies.store.getService(idOrName);
    if (!service) throw new AivoryError('not-found', `No MCP service named "${idOrName}".`);
    return service;
  }

  async add(input: McpServiceInput): Promise<{ service: McpServiceView; notice: string | null }> {
    const { store, ids } = this.dependencies;
    const parsed = parseServiceInput(input, this.dependencies.allowLocalCommands());
    const id = ids.next('mcp');
    const service = store.createService({
      id,
      ...configOf(
        parsed,
        await this.saveSecrets(id, 'header', parsed.headers),
        await this.saveSecrets(id, 'env', parsed.env),
        withTrust(await this.saveOAuth(id, parsed.oauth), parsed.trustedOrigins),
      ),
    });
    return { service: await this.view(service), notice: parsed.notice };
  }

  /**
   * Changes a service. Headers / env given replace the old ones (their secrets are deleted);
   * absent, they are kept. Every edit closes the service's session; a changed address, transport
   * or command also makes it untested again; snapshots and approvals stay.
   */
  /**
   * Changes a service: only the fields given. When the URL moves to another origin and no new
   * headers are given, the saved headers (keys, tokens) are dropped — they were meant for the old
   * server — unless `keepHeaders` says to send them to the new one.
   */
  async update(
    idOrName: string,
    changes: Partial<McpServiceInput> & { keepHeaders?: boolean },
  ): Promise<{ service: McpServiceView; notice: string | null }> {
    const current = this.get(idOrName);
    const parsed = parseServiceInput(
      {
        name: changes.name ?? current.name,
        icon: changes.icon ?? current.icon,
        description: changes.description ?? current.description,
        transport: changes.transport ?? current.transport,
        ...((changes.url ?? current.url) ? { url: changes.url ?? current.url ?? '' } : {}),
        ...((changes.command ?? current.command)
          ? { command: changes.command ?? current.command ?? '' }
          : {}),
        args: changes.args ?? current.args,
        headers: changes.headers ?? [],
        env: changes.env ?? [],
        timeoutSeconds: changes.timeoutSeconds ?? current.timeoutMs / 1000,
        maxTimeoutSeconds: changes.maxTimeoutSeconds ?? current.maxTimeoutMs / 1000,
        ...(current.transport === 'stdio' && changes.transport === undefined
          ? {}
          : await this.oauthInput(current, changes)),
        ...(changes.trustedOrigins === undefined ? {} : { trustedOrigins: changes.trustedOrigins }),
      },
      current.transport === 'stdio' || this.dependencies.allowLocalCommands(),
    );
    const replace = async (
      kind: string,
      given: unknown,
      old: McpService['headers'],
      entries: [string, string][],
    ) => {
      if (given === undefined) return old;
      for (const entry of old) await this.dependencies.secrets.delete(entry.secretRef);
      return this.saveSecrets(current.id, kind, entries);
    };
    const originMoved =
      current.url !== null && parsed.url !== null && originOf(parsed.url) !== originOf(current.url);
    const dropHeaders =
      originMoved &&
      changes.headers === undefined &&
      changes.keepHeaders !== true &&
      current.headers.length > 0;
    const headers = await replace(
      'header',
      dropHeaders ? [] : changes.headers,
      current.headers,
      dropHeaders ? [] : parsed.headers,
    );
    const env = await replace('env', changes.env, current.env, parsed.env);
    const oauthChanged =
      changes.clientId !== undefined ||
      changes.clientSecret !== undefined ||
      changes.clientKey !== undefined ||
      changes.oauthGrant !== undefined;
    let oauth = current.oauth;
    if (oauthChanged || parsed.transport === 'stdio') {
      if (current.oauth?.clientSecretRef)
        await this.dependencies.secrets.delete(current.oauth.clientSecretRef);
      if (current.oauth?.clientKeyRef)
        await this.dependencies.secrets.delete(current.oauth.clientKeyRef);
      oauth = await this.saveOAuth(current.id, parsed.oauth);
    }
    // Trust names other origins of the service's host: it goes when the service moves.
    const trusted =
      changes.trustedOrigins !== undefined
        ? parsed.trustedOrigins
        : originMoved || parsed.transport === 'stdio'
          ? []
          : (current.oauth?.trustedOrigins ?? []);
    const trustChanged = trusted.join('\n') !== (current.oauth?.trustedOrigins ?? []).join('\n');
    oauth = withTrust(oauth, trusted);
    if (trustChanged) this.connections.refusedOrigins.delete(current.id);
    const moved =
      parsed.url !== current.url ||
      parsed.transport !== current.transport ||
      parsed.command !== current.command ||
      changes.headers !== undefined ||
      changes.env !== undefined ||
      oauthChanged;
    // Any edit closes the session (the next use opens one with the service as it is now), and
    // a server's state goes with it: what the user changed is what they get, without a stale
    // session carrying the old name, timeouts or address.
    await this.disconnect(current.id);
    // A sign-in belongs to the server it was made with, and to the client that made it.
    if (originMoved || oauthChanged || parsed.transport === 'stdio')
      await forgetSignIn(this.dependencies.secrets, current.id, true);
    const service = this.dependencies.store.updateConfig(
      current.id,
      configOf(parsed, headers, env, oauth),
    );
    const updated = moved
      ? this.dependencies.store.updateService(service.id, {
          testState: 'untested',
          testMessage: null,
          testedAt: null,
        })
      : service;
    const dropped = dropHeaders
      ? `The saved request headers (${current.headers.map((entry) => entry.name).join(', ')}) were removed: they were for ${originOf(current.url ?? '')}, not ${originOf(parsed.url ?? '')}. Enter them again, or keep them with --keep-headers.`
      : null;
    const untrusted =
      changes.trustedOrigins === undefined && trustChanged
        ? `The trusted sign-in origins (${(current.oauth?.trustedOrigins ?? []).join(', ')}) were removed: they were trusted for ${originOf(current.url ?? '')}.`
        : null;
    const notice = [parsed.notice, dropped, untrusted].filter(
      (text): text is string => text !== null,
    );
    return {
      service: await this.view(updated),
      notice: notice.length > 0 ? notice.join(' ') : null,
    };
  }

  async remove(idOrName: string): Promise<void> {
    const service = this.get(idOrName);
    await this.disconnect(service.id);
    this.connections.refusedOrigins.delete(service.id);
    this.dependencies.store.deleteService(service.id);
    for (const entry of [...service.headers, ...service.env])
      await this.dependencies.secrets.delete(entry.secretRef);
    for (const ref of [service.oauth?.clientSecretRef, service.oauth?.clientKeyRef])
      if (ref) await this.dependencies.secrets.delete(ref);
    await this.dependencies.secrets.delete(oauthStateRef(service.id));
  }

  /**
   * Signs in to the service with OAuth (its browser page, then back to a loopback listener) and
   * connects; a server that needs no sign-in just connects. A sign-in made before is replaced;
   * `newClient` also drops the client registration, so a new one is made.
   */
  async login(
    idOrName: string,
    signal: AbortSignal,
    options: { newClient?: boolean } = {},
  ): Promise<{ ok: boolean; message: string }> {
    const service = this.get(idOrName);
    if (service.transport === 'stdio')
      throw new AivoryError(
        'invalid-input',
        `"${service.name}" runs locally: there is no sign-in.`,
      );
    if (options.newClient === true && service.oauth?.clientId != null)
      throw new AivoryError(
        'invalid-input',
        `"${service.name}" signs in with the client ID you entered (${service.oauth.clientId}): there is no registration to make again. Change it with aivory mcp edit.`,
      );
    await this.disconnect(service.id);
    await forgetSignIn(this.dependencies.secrets, service.id, options.newClient === true);
    const result = await this.test(service.id, signal);
    if (!result.ok) return result;
    const status = await signInStatus(this.dependencies.secrets, service);
    return {
      ok: true,
      message: status?.signedIn
        ? `signed in${status.authServer ? ` at ${status.authServer}` : ''}; ${result.message}`
        : `no sign-in needed; ${result.message}`,
    };
  }

  /**
   * Trusts (or stops trusting) another origin of the service's local host for its sign-in — the
   * user's answer when a sign-in was refused for going there (`refusedSignInOrigin` of the view).
   * Checked like `--trust-auth-server`; the connection is closed so the next one uses it.
   */
  async trustSignInOrigin(
    idOrName: string,
    origin: string,
    trusted: boolean,
  ): Promise<McpServiceView> {
    const service = this.get(idOrName);
    if (service.transport === 'stdio')
      throw new AivoryError(
        'invalid-input',
        `"${service.name}" runs locally: there is no sign-in.`,
      );
    const current = service.oauth?.trustedOrigins ?? [];
    const next = trusted
      ? [...current, origin]
      : current.filter((entry) => entry !== origin.trim().replace(/\/$/, ''));
    if (!trusted && next.length === current.length)
      throw new AivoryError(
        'not-found',
        `"${service.name}" does not trust ${JSON.stringify(origin.slice(0, 100))} for its sign-in.`,
      );
    const { service: view } = await this.update(service.id, { trustedOrigins: next });
    return view;
  }

  /**
   * Signs out: the tokens are deleted and the connection closed. The client registration is kept
   * (a sign-in registers again by itself if the server forgot it) unless `forgetClient`.
   */
  async logout(idOrName: string, options: { forgetClient?: boolean } = {}): Promise<boolean> {
    const service = this.get(idOrName);
    const before = await signInStatus(this.dependencies.secrets, service);
    await this.disconnect(service.id);
    await forgetSignIn(this.dependencies.secrets, service.id, options.forgetClient === true);
    return before?.signedIn === true;
  }

  /** The service's OAuth sign-in as shown (null for stdio services). */
  async signInStatus(idOrName: string): Promise<McpSignInStatus | null> {
    return signInStatus(this.dependencies.secrets, this.get(idOrName));
  }

  /**
   * Runs `action` as the user's own explicit action on the service (a test, a sync, a call from
   * the CLI or the settings page): when the server asks for an OAuth sign-in meanwhile, the user
   * signs in (their browser) and the action runs once more. A second refusal ends it (the retry
   * limit) — unless the resource has moved to another authorization server since (SEP-2352):
   * the action signs in there too, once per server. Chat turns never run this way: a model's
   * call fails with the message saying how to sign in, and no browser opens.
   */
  async asUser<T>(idOrName: string, signal: AbortSignal, action: () => Promise<T>): Promise<T> {
    const service = this.get(idOrName);
    let challenge;
    try {
      return await action();
    } catch (error) {
      if (!(error instanceof McpSignInRequired) || this.dependencies.signIn === undefined)
        throw error;
      challenge = error.challenge;
    }
    const movedTo = new Set<string>();
    // The sign-in's own failures (denied, timed out, no browser) and a second refusal are the
    // user's to read: one line, not "an internal error".
    try {
      for (;;) {
        await this.connections.signIn(service, challenge, signal);
        try {
          return await action();
        } catch (error) {
          const next = error instanceof McpSignInRequired ? error.challenge : undefined;
          const to = next?.movedTo;
          if (
            next === undefined ||
            to === undefined ||
            movedTo.has(to) ||
            movedTo.size >= MAX_MOVES
          )
            throw error;
          movedTo.add(to);
          challenge = next;
        }
      }
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      throw new AivoryError(
        error.kind === 'canceled' ? 'canceled' : 'auth',
        `"${service.name}": ${error.message}`,
        { cause: error },
      );
    }
  }

  /** Connect + initialize + list tools; records connected / error with a specific message. */
  async test(idOrName: string, signal: AbortSignal): Promise<{ ok: boolean; message: string }> {
    const service = this.get(idOrName);
    this.connections.refusedOrigins.delete(service.id);
    try {
      // Over the live session when there is one (a test must not end a server's state); a
      // session found gone is replaced on the way (McpConnections.use).
      const { tools, session } = await this.asUser(service.id, signal, () =>
        this.withSession(service, signal, async (session) => ({
          tools: await session.listTools(signal),
          session,
        })),
      );
      const message = `connected to ${session.serverName} ${session.serverVersion}: ${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}`;
      this.record(service.id, 'connected', message);
      return { ok: true, message };
    } catch (error) {
      const message = describeFailure(error);
      this.record(service.id, 'error', message);
      return { ok: false, message };
    }
  }

  /** Fetches the tool list into the `latest` snapshot and returns the diff to the accepted one. */
  async sync(
    idOrName: string,
    options: { accept: boolean; signal: AbortSignal },
  ): Promise<{ toolCount: number; changes: McpToolChange[] }> {
    const service = this.get(idOrName);
    this.connections.refusedOrigins.delete(service.id);
    let tools;
    try {
      tools = await this.asUser(service.id, options.signal, () =>
        this.withSession(service, options.signal, (session) => session.listTools(options.signal)),
      );
    } catch (error) {
      const message = describeFailure(error);
      this.record(service.id, 'error', message);
      throw new AivoryError('connection', `Sync of "${service.name}" failed: ${message}`);
    }
    const { store, clock } = this.dependencies;
    store.saveLatest(service.id, tools);
    const changes = diffTools(store.listTools(service.id));
    if (options.accept) store.acceptLatest(service.id);
    store.updateService(service.id, { syncedAt: clock.now(), stale: false });
    this.record(
      service.id,
      'connected',
      `${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}`,
    );
    return { toolCount: tools.length, changes };
  }

  diff(idOrName: string): McpToolChange[] {
    return diffTools(this.dependencies.store.listTools(this.get(idOrName).id));
  }

  accept(idOrName: string): void {
    const service = this.get(idOrName);
    if (service.syncedAt === null) throw notSynced(service);
    this.dependencies.store.acceptLatest(service.id);
  }

  /**
   * "Available to me": only a synced service can be switched on; switching it off closes its
   * session (it leaves the table at once; the close itself finishes in the background).
   */
  setEnabled(idOrName: string, enabled: boolean): McpService {
    const service = this.get(idOrName);
    if (enabled && service.syncedAt === null) throw notSynced(service);
    const updated = this.dependencies.store.updateService(service.id, { enabled });
    if (!enabled) void this.disconnect(service.id);
    return updated;
  }

  setApproval(idOrName: string, tool: string, policy: McpApprovalPolicy): void {
    this.dependencies.store.setToolApproval(this.get(idOrName).id, tool, policy);
  }

  tools(idOrName: string): McpToolRecord[] {
    return this.dependencies.store.listTools(this.get(idOrName).id);
  }

  /** Enabled, synced services with the tools models may call (accepted and unchanged). */
  callable(): { service: McpService; tools: McpToolRecord[] }[] {
    const { store } = this.dependencies;
    return store
      .listServices()
      .filter((service) => service.enabled && service.syncedAt !== null)
      .map((service) => ({ service, tools: store.listTools(service.id).filter(isCallable) }));
  }

  /** The service's prompts and resources, for the composer (inserted as text by the user). */
  async library(
    idOrName: string,
    signal: AbortSignal,
  ): Promise<{
    prompts: McpPromptInfo[];
    resources: McpResourceInfo[];
    templates: McpResourceTemplateInfo[];
    /** The server suggests argument values (`completion/complete`). */
    completions: boolean;
    /** Its resources can be watched for changes (`resources/subscribe`). */
    subscribe: boolean;
  }> {
    const service = this.get(idOrName);
    return this.asUser(service.id, signal, () =>
      this.withSession(service, signal, async (session) => {
        const [prompts, resources, templates] = await Promise.all([
          session.listPrompts(signal).catch(() => []),
          session.listResources(signal).catch(() => []),
          session.listResourceTemplates(signal).catch(() => []),
        ]);
        const { completions, resourceSubscribe } = session.features;
        return { prompts, resources, templates, completions, subscribe: resourceSubscribe };
      }),
    );
  }

  /** A prompt's text; a server's error (an unknown name, say) comes back with its message. */
  async getPrompt(
    idOrName: string,
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<string> {
    const service = this.get(idOrName);
    return this.shown(service, async () =>
      this.asUser(service.id, signal, () =>
        this.withSession(service, signal, (session) => session.getPrompt(name, args, signal)),
      ),
    );
  }

  /** A resource's text; a server's error (an unknown URI, say) comes back with its message. */
  async readResource(idOrName: string, uri: string, signal: AbortSignal): Promise<string> {
    const service = this.get(idOrName);
    return this.shown(service, async () =>
      this.asUser(service.id, signal, () =>
        this.withSession(service, signal, (session) => session.readResource(uri, signal)),
      ),
    );
  }

  /** A resource's text and its binary parts (for saving them as files). */
  async readResourceContents(
    idOrName: string,
    uri: string,
    signal: AbortSignal,
  ): Promise<McpResourceContents> {
    const service = this.get(idOrName);
    return this.shown(service, async () =>
      this.asUser(service.id, signal, () =>
        this.withSession(service, signal, (session) => session.readResourceContents(uri, signal)),
      ),
    );
  }

  /**
   * Runs a request whose McpError (already one line, bounded, control characters stripped by the
   * adapter) is worth showing: as an AivoryError it reaches the CLI and the settings page as is,
   * instead of "An internal error occurred".
   */
  private async shown<T>(service: McpService, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      this.dependencies.logger.warn('MCP request failed', {
        service: service.name,
        kind: error.kind,
        error: error.message,
      });
      throw new AivoryError(codeOfShown(error), `"${service.name}": ${error.message}`, {
        cause: error,
      });
    }
  }

  /** The shared-folder rules (stateless) over this service layer's store and connections. */
  private get sharedFolders(): McpRoots {
    return new McpRoots({
      store: this.dependencies.store,
      live: (serviceId) => this.connections.live(serviceId),
      disconnect: (serviceId) => this.disconnect(serviceId),
      logger: this.dependencies.logger,
    });
  }

  /** The folders shared with the service (MCP roots); see mcp-roots.ts for the rules. */
  roots(idOrName: string): McpRoot[] {
    return this.sharedFolders.list(this.get(idOrName));
  }

  /** Shares an existing folder (absolute path) with the service and tells its live connection. */
  async addRoot(idOrName: string, dir: string, name?: string): Promise<McpRoot[]> {
    return this.sharedFolders.add(this.get(idOrName), dir, name);
  }

  async removeRoot(idOrName: string, dir: string): Promise<McpRoot[]> {
    return this.sharedFolders.remove(this.get(idOrName), dir);
  }

  /** Called when a server announces changed tools (the UI prompts a re-sync). */
  onStale(listener: (serviceId: string) => void): void {
    this.staleListeners.push(listener);
  }

  /**
   * After tools/list_changed: lists the tools again and marks the service stale only when they
   * differ from the last synced snapshot (or cannot be listed). Nothing is saved: what models see
   * changes only when the user syncs and accepts.
   */
  private async checkToolsChanged(serviceId: string, session: McpSession): Promise<void> {
    const { store, logger } = this.dependencies;
    let unchanged: boolean;
    try {
      const tools = await session.listTools(AbortSignal.timeout(LIST_CHANGED_CHECK_MS));
      unchanged = matchesLatest(store.listTools(serviceId), tools);
    } catch (error) {
      // Closed meanwhile (the CLI exits, a test reconnects) or failing: nothing is known to
      // differ, and the next sync lists the tools anyway.
      logger.warn('MCP tools/list_changed: listing the tools failed', {
        serviceId,
        error: describeFailure(error),
      });
      return;
    }
    const service = store.getService(serviceId);
    if (!service) return;
    if (unchanged) {
      // Nothing to sync: a mark left by an earlier announcement goes too.
      if (service.stale) store.updateService(serviceId, { stale: false });
      logger.info('MCP tools/list_changed: the tools match the last sync', {
        service: service.name,
      });
      return;
    }
    logger.info('MCP tools/list_changed: the tools differ from the last sync', {
      service: service.name,
    });
    store.updateService(serviceId, { stale: true });
    for (const listener of this.staleListeners) listener(serviceId);
  }

  /**
   * The live session of a service, opened on first use and reused. Requests should go through
   * `withSession`, which keeps it from closing while they run and replaces a session found gone.
   */
  session(service: McpService, signal: AbortSignal): Promise<McpSession> {
    return this.connections.session(service, signal);
  }

  /** Whether the service has a session open (or opening) now; never opens one. */
  liveSession(idOrName: string): boolean {
    return this.connections.live(this.get(idOrName).id) !== undefined;
  }

  /** Runs `action` on the service's shared session (see McpConnections.use). */
  withSession<T>(
    service: McpService,
    signal: AbortSignal,
    action: (session: McpSession) => Promise<T>,
  ): Promise<T> {
    return this.connections.use(service, signal, action);
  }

  /** Closes every connection (the app or CLI is exiting). */
  async close(): Promise<void> {
    await this.connections.close();
  }

  private disconnect(serviceId: string): Promise<void> {
    return this.connections.disconnect(serviceId);
  }

  /** Stores header / env values in the secret store; the service keeps only references. */
  private async saveSecrets(
    serviceId: string,
    kind: string,
    entries: readonly [string, string][],
  ): Promise<McpService['headers']> {
    const saved = [];
    const stamp = this.dependencies.clock.now().toString(36);
    for (const [index, [name, value]] of entries.entries()) {
      const secretRef = `mcp.${serviceId}.${kind}.${stamp}.${index}`;
      await this.dependencies.secrets.set(secretRef, value);
      saved.push({ name, secretRef });
    }
    return saved;
  }

  /** The OAuth client settings as stored: the secret goes to the SecretStore. */
  private async saveOAuth(
    serviceId: string,
    oauth: ParsedOAuthInput | null,
  ): Promise<McpService['oauth']> {
    if (oauth === null) return null;
    const stamp = this.dependencies.clock.now().toString(36);
    let clientSecretRef: string | null = null;
    if (oauth.clientSecret !== null) {
      clientSecretRef = `mcp.${serviceId}.oauth-client.${stamp}`;
      await this.dependencies.secrets.set(clientSecretRef, oauth.clientSecret);
    }
    let clientKeyRef: string | null = null;
    if (oauth.clientKey !== null) {
      clientKeyRef = `mcp.${serviceId}.oauth-key.${stamp}`;
      await this.dependencies.secrets.set(clientKeyRef, oauth.clientKey.pem);
    }
    return {
      grant: oauth.grant,
      clientId: oauth.clientId,
      clientSecretRef,
      clientKeyRef,
      keyAlgorithm: oauth.clientKey?.algorithm ?? null,
      trustedOrigins: [],
    };
  }

  /** The OAuth fields for re-validating an edit: the changes, else what is stored. */
  private async oauthInput(
    current: McpService,
    changes: Partial<McpServiceInput>,
  ): Promise<Pick<McpServiceInput, 'clientId' | 'clientSecret' | 'clientKey' | 'oauthGrant'>> {
    const stored = current.oauth;
    const reveal = async (ref: string | null | undefined) =>
      ref ? ((await this.dependencies.secrets.get(ref)) ?? undefined) : undefined;
    const clientId = changes.clientId ?? stored?.clientId ?? undefined;
    const sameClient = changes.clientId === undefined || changes.clientId === stored?.clientId;
    const credentialGiven = changes.clientSecret !== undefined || changes.clientKey !== undefined;
    // A new secret or key replaces the old credential; a new client id drops it.
    const keep = sameClient && !credentialGiven;
    const clientSecret =
      changes.clientSecret ?? (keep ? await reveal(stored?.clientSecretRef) : undefined);
    const clientKey = changes.clientKey ?? (keep ? await reveal(stored?.clientKeyRef) : undefined);
    const oauthGrant = changes.oauthGrant ?? stored?.grant;
    return {
      ...(clientId ? { clientId } : {}),
      ...(clientSecret ? { clientSecret } : {}),
      ...(clientKey ? { clientKey } : {}),
      ...(oauthGrant ? { oauthGrant } : {}),
    };
  }

  private record(serviceId: string, state: 'connected' | 'error', message: string): void {
    this.dependencies.store.updateService(serviceId, {
      testState: state,
      testMessage: message,
      testedAt: this.dependencies.clock.now(),
    });
  }

  private async view(service: McpService): Promise<McpServiceView> {
    const mask = async (entries: McpService['headers']) =>
      Promise.all(
        entries.map(async (entry) => ({
          name: entry.name,
          value: maskSecret((await this.dependencies.secrets.get(entry.secretRef)) ?? ''),
        })),
      );
    const tools = this.dependencies.store.listTools(service.id);
    return {
      ...service,
      headers: await mask(service.headers),
      env: await mask(service.env),
      signIn: await signInStatus(this.dependencies.secrets, service),
      refusedSignInOrigin: this.connections.refusedOrigins.get(service.id) ?? null,
      toolCount: tools.filter((tool) => tool.latest !== null).length,
      callableCount: tools.filter(isCallable).length,
      pendingChanges: diffTools(tools).length,
    };
  }
}

/**
 * The stored OAuth settings with `trusted` as the service's trusted sign-in origins; null when
 * everything is the default (no client, the user signs in, no trust).
 */
function withTrust(oauth: McpService['oauth'], trusted: readonly string[]): McpService['oauth'] {
  const base = oauth ?? {
    grant: 'authorization_code' as const,
    clientId: null,
    clientSecretRef: null,
    clientKeyRef: null,
    keyAlgorithm: null,
    trustedOrigins: [],
  };
  const next = { ...base, trustedOrigins: [...trusted] };
  const defaults =
    next.grant === 'authorization_code' &&
    next.clientId === null &&
    next.clientSecretRef === null &&
    next.clientKeyRef === null &&
    next.trustedOrigins.length === 0;
  return defaults ? null : next;
}

/** The stored configuration from validated input and the secret references of its values. */
function configOf(
  parsed: ParsedServiceInput,
  headers: McpService['headers'],
  env: McpService['env'],
  oauth: McpService['oauth'],
): Omit<NewMcpService, 'id'> {
  return {
    name: parsed.name,
    icon: parsed.icon,
    description: parsed.description,
    transport: parsed.transport,
    url: parsed.url,
    command: parsed.command,
    args: parsed.args,
    headers,
    env,
    timeoutMs: parsed.timeoutMs,
    maxTimeoutMs: parsed.maxTimeoutMs,
    oauth,
  };
}

function notSynced(service: McpService): AivoryError {
  return new AivoryError(
    'invalid-input',
    `"${service.name}" has never been synced: run aivory mcp sync ${service.name} first.`,
  );
}

/** One line for a failure, never a stack. */
export function describeFailure(error: unknown): string {
  if (error instanceof McpError || error instanceof AivoryError) return error.message;
  return error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
}

/**
 * A shown MCP failure's code: a server that answered with an error is a failed request (the CLI
 * exits 1), not a connection problem (3).
 */
function codeOfShown(error: McpError): ErrorCode {
  if (error.kind === 'canceled') return 'canceled';
  return error.kind === 'server-error' ? 'provider' : 'connection';
}
