/**
 * The user's MCP services, as one object for the CLI, the host and the app's composition: a thin
 * facade over the modules that hold each concept, sharing one live session per service
 * (`McpConnections`, shared by calls, turns and the service page; see it for when it closes):
 * - configuration: add, update, remove, enable, approvals, the services as listed
 *   (`mcp-service-config.ts`);
 * - sign-in: login, logout, trusted sign-in origins, `asUser` (`mcp-sign-in.ts`);
 * - the tool catalog: test, sync, diff, accept, callable tools, `tools/list_changed` staleness
 *   (`mcp-catalog-sync.ts`);
 * - the library: prompts, resources, watches, completion, shared folders (`mcp-library.ts`).
 */
import type {
  McpApprovalPolicy,
  McpService,
  McpSignInStatus,
  McpToolChange,
  McpToolRecord,
} from '../../../shared/mcp';
import type { McpRoot } from '../../../shared/mcp-roots';
import type {
  McpCompletion,
  McpCompletionRef,
  McpResourceContents,
  McpSession,
} from '../../core/ports';
import { ChangeCoalescer, LIST_CHANGED_MIN_INTERVAL_MS } from './mcp-change-coalescer';
import { McpCatalogSync } from './mcp-catalog-sync';
import { McpConnections } from './mcp-connections';
import type { McpSessionEnd } from './mcp-connections';
import { McpElicitationRouter } from './mcp-elicitation-router';
import { McpLibrary } from './mcp-library';
import type { McpLibraryListing } from './mcp-library';
import type { McpWatchEvent } from './mcp-resource-watch';
import { McpSamplingRouter } from './mcp-sampling-router';
import { McpServiceConfig } from './mcp-service-config';
import type { McpServiceInput } from './mcp-service-input';
import type { McpServiceView } from './mcp-service-view';
import type { McpServicesDependencies } from './mcp-services-dependencies';
import { McpSignIns } from './mcp-sign-in';
import type { McpSignInPage } from './mcp-sign-in';

export type { McpServicesDependencies } from './mcp-services-dependencies';
export type { McpServiceView } from './mcp-service-view';
export type { McpSignInPage } from './mcp-sign-in';

export class McpServices {
  private readonly connections: McpConnections;
  /** Where a server's elicitation goes: the caller running a call on that service now. */
  readonly elicitation: McpElicitationRouter;
  /** Where a server's sampling request goes: the caller running a call on that service now. */
  readonly sampling: McpSamplingRouter;
  private readonly config: McpServiceConfig;
  private readonly signIns: McpSignIns;
  private readonly catalog: McpCatalogSync;
  private readonly libraries: McpLibrary;
  /** A server's list_changed bursts, coalesced and throttled per service. */
  private readonly changes: ChangeCoalescer;
  private libraryListenerCount = 0;

  constructor(private readonly dependencies: McpServicesDependencies) {
    const { signIn, store, secrets, clock, ids, logger, allowLocalCommands } = dependencies;
    this.changes = new ChangeCoalescer(
      dependencies.listChangedIntervalMs ?? LIST_CHANGED_MIN_INTERVAL_MS,
      (key, error) =>
        logger.warn('MCP list_changed: the follow-up failed', {
          key,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
    this.elicitation = new McpElicitationRouter(logger);
    this.sampling = new McpSamplingRouter(logger);
    this.connections = new McpConnections(
      {
        ...dependencies,
        signIn:
          signIn &&
          ((service) =>
            signIn(service, (url) =>
              this.signIns.announce({
                serviceId: service.id,
                serviceName: service.name,
                url: url.href,
              }),
            )),
      },
      // One listing in flight per service, one more queued, a few seconds apart: a burst of
      // announcements costs two listings, not one each.
      (serviceId, session) => {
        this.changes.request(`tools:${serviceId}`, () =>
          this.catalog.checkToolsChanged(serviceId, session),
        );
      },
      this.elicitation,
      this.sampling,
    );
    const connections = this.connections;
    this.config = new McpServiceConfig({
      store,
      secrets,
      clock,
      ids,
      allowLocalCommands,
      connections,
    });
    const config = this.config;
    this.signIns = new McpSignIns({
      secrets,
      canSignIn: signIn !== undefined,
      connections,
      config,
      test: (idOrName, signal) => this.catalog.test(idOrName, signal),
    });
    const signIns = this.signIns;
    this.catalog = new McpCatalogSync({ store, clock, logger, connections, config, signIns });
    this.libraries = new McpLibrary({ store, logger, connections, config, signIns });
  }

  // Configuration (mcp-service-config.ts)

  list(): Promise<McpServiceView[]> {
    return this.config.list();
  }

  /** The service by id or name; throws `not-found`. */
  get(idOrName: string): McpService {
    return this.config.get(idOrName);
  }

  add(input: McpServiceInput): Promise<{ service: McpServiceView; notice: string | null }> {
    return this.config.add(input);
  }

  /** Changes a service: only the fields given (see McpServiceConfig.update). */
  update(
    idOrName: string,
    changes: Partial<McpServiceInput> & { keepHeaders?: boolean },
  ): Promise<{ service: McpServiceView; notice: string | null }> {
    return this.config.update(idOrName, changes);
  }

  async remove(idOrName: string): Promise<void> {
    const { id } = this.config.get(idOrName);
    await this.config.remove(idOrName);
    this.forgetChanges(id);
  }

  /** "Available to me": only a synced service can be switched on; off closes its session. */
  setEnabled(idOrName: string, enabled: boolean): McpService {
    const service = this.config.setEnabled(idOrName, enabled);
    if (!enabled) this.forgetChanges(service.id);
    return service;
  }

  /**
   * Drops the re-listings still queued for a service that was removed or switched off (its keys
   * are `tools:<id>` and `library:<listener>:<id>`): nothing is left to list, and the coalescer's
   * entry for it would otherwise stay for the life of the process.
   */
  private forgetChanges(serviceId: string): void {
    this.changes.forgetWhere((key) => key.endsWith(`:${serviceId}`));
  }

  setApproval(idOrName: string, tool: string, policy: McpApprovalPolicy): void {
    this.config.setApproval(idOrName, tool, policy);
  }

  // Sign-in (mcp-sign-in.ts)

  /** Called with each sign-in page shown to the user (the CLI prints it, the app links it). */
  onSignInPage(listener: (page: McpSignInPage) => void): () => void {
    return this.signIns.onSignInPage(listener);
  }

  /** Signs in to the service with OAuth and connects (see McpSignIns.login). */
  login(
    idOrName: string,
    signal: AbortSignal,
    options: { newClient?: boolean } = {},
  ): Promise<{ ok: boolean; message: string }> {
    return this.signIns.login(idOrName, signal, options);
  }

  /** Trusts (or stops trusting) another origin of a local service's host for its sign-in. */
  trustSignInOrigin(idOrName: string, origin: string, trusted: boolean): Promise<McpServiceView> {
    return this.signIns.trustSignInOrigin(idOrName, origin, trusted);
  }

  /** Binds the service's sign-in to an authorization server: the approval of a move. */
  approveAuthServer(idOrName: string, issuer: string): Promise<McpServiceView> {
    return this.signIns.approveAuthServer(idOrName, issuer);
  }

  /** Signs out; true when the service was signed in. */
  logout(idOrName: string, options: { forgetClient?: boolean } = {}): Promise<boolean> {
    return this.signIns.logout(idOrName, options);
  }

  /** The service's OAuth sign-in as shown (null for stdio services). */
  signInStatus(idOrName: string): Promise<McpSignInStatus | null> {
    return this.signIns.signInStatus(idOrName);
  }

  /** Runs `action` as the user's own action: a sign-in the server asks for happens first. */
  asUser<T>(idOrName: string, signal: AbortSignal, action: () => Promise<T>): Promise<T> {
    return this.signIns.asUser(idOrName, signal, action);
  }

  // The tool catalog (mcp-catalog-sync.ts)

  /** Connect + initialize + list tools; records connected / error with a specific message. */
  test(idOrName: string, signal: AbortSignal): Promise<{ ok: boolean; message: string }> {
    return this.catalog.test(idOrName, signal);
  }

  /** Fetches the tool list into the `latest` snapshot and returns the diff to the accepted one. */
  sync(
    idOrName: string,
    options: { accept: boolean; signal: AbortSignal },
  ): Promise<{ toolCount: number; changes: McpToolChange[] }> {
    return this.catalog.sync(idOrName, options);
  }

  diff(idOrName: string): McpToolChange[] {
    return this.catalog.diff(idOrName);
  }

  accept(idOrName: string): void {
    this.catalog.accept(idOrName);
  }

  tools(idOrName: string): McpToolRecord[] {
    return this.catalog.tools(idOrName);
  }

  /** Enabled, synced services with the tools models may call (accepted and unchanged). */
  callable(): { service: McpService; tools: McpToolRecord[] }[] {
    return this.catalog.callable();
  }

  /** Called when a server announces changed tools that differ from the last sync. */
  onStale(listener: (serviceId: string) => void): void {
    this.catalog.onStale(listener);
  }

  // The library (mcp-library.ts)

  /** The service's prompts and resources, for the composer (inserted as text by the user). */
  library(idOrName: string, signal: AbortSignal): Promise<McpLibraryListing> {
    return this.libraries.library(idOrName, signal);
  }

  getPrompt(
    idOrName: string,
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<string> {
    return this.libraries.getPrompt(idOrName, name, args, signal);
  }

  readResource(idOrName: string, uri: string, signal: AbortSignal): Promise<string> {
    return this.libraries.readResource(idOrName, uri, signal);
  }

  /** A resource's text and its binary parts (for saving them as files). */
  readResourceContents(
    idOrName: string,
    uri: string,
    signal: AbortSignal,
  ): Promise<McpResourceContents> {
    return this.libraries.readResourceContents(idOrName, uri, signal);
  }

  /** The server's suggestions for an argument of a prompt or resource template. */
  complete(
    idOrName: string,
    ref: McpCompletionRef,
    argument: { name: string; value: string },
    context: Record<string, string>,
    signal: AbortSignal,
  ): Promise<McpCompletion> {
    return this.libraries.complete(idOrName, ref, argument, context, signal);
  }

  /** Watches a resource for changes; resolves with the watch's id once subscribed. */
  watchResource(
    idOrName: string,
    uri: string,
    listener: (event: McpWatchEvent) => void,
    signal: AbortSignal,
  ): Promise<string> {
    return this.libraries.watchResource(idOrName, uri, listener, signal);
  }

  /** Ends a watch (the view closed); false when there was none by that id. */
  unwatchResource(watchId: string): Promise<boolean> {
    return this.libraries.unwatchResource(watchId);
  }

  /** Ends every watch (nobody is left to show them). */
  unwatchAllResources(): Promise<void> {
    return this.libraries.unwatchAllResources();
  }

  /** Whether the service's server offers resources, as last seen (true when not yet known). */
  offersResources(idOrName: string): boolean {
    return this.libraries.offersResources(idOrName);
  }

  /** The folders shared with the service (MCP roots); see mcp-roots.ts for the rules. */
  roots(idOrName: string): McpRoot[] {
    return this.libraries.roots(idOrName);
  }

  /** Shares an existing folder (absolute path) with the service and tells its live connection. */
  addRoot(idOrName: string, dir: string, name?: string): Promise<McpRoot[]> {
    return this.libraries.addRoot(idOrName, dir, name);
  }

  removeRoot(idOrName: string, dir: string): Promise<McpRoot[]> {
    return this.libraries.removeRoot(idOrName, dir);
  }

  /**
   * Called when a server says its prompts or resources changed: nothing is cached, so the
   * composer's open list reloads (what models see never changes by this).
   */
  onLibraryChanged(listener: (serviceId: string) => void): void {
    // Coalesced per listener and service like the tools' re-lists: each call makes windows
    // reload a list.
    const id = (this.libraryListenerCount += 1);
    this.connections.onLibraryChanged((serviceId) =>
      this.changes.request(`library:${id}:${serviceId}`, () => listener(serviceId)),
    );
  }

  // Sessions (mcp-connections.ts)

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

  /** Called each time a service's session ends (idle, changed, lost, shutdown). */
  onSessionEnd(listener: (serviceId: string, why: McpSessionEnd) => void): void {
    this.connections.onSessionEnd(listener);
  }

  /** Applies the log-level settings to the services connected now (see McpConnections). */
  applyLogLevels(): Promise<void> {
    return this.connections.applyLogLevels(this.dependencies.store.listServices());
  }

  /** Closes every connection (the app or CLI is exiting). */
  async close(): Promise<void> {
    this.changes.close();
    await this.connections.close();
  }
}
