/**
 * What a service offers the user besides tools: its prompts and resources (listed for the
 * composer, read, watched for changes), argument completion, and the folders shared with it
 * (MCP roots). Each request is the user's own action over the shared session (it signs in when
 * the server asks), and a server's error comes back with its message.
 */
import type { McpRoot } from '../../../shared/mcp-roots';
import type {
  Logger,
  McpCompletion,
  McpCompletionRef,
  McpPromptInfo,
  McpResourceContents,
  McpResourceInfo,
  McpResourceTemplateInfo,
  McpSession,
  McpStore,
} from '../../core/ports';
import type { McpConnections } from './mcp-connections';
import { showingFailures } from './mcp-failure';
import { McpResourceWatches } from './mcp-resource-watch';
import type { McpWatchEvent } from './mcp-resource-watch';
import { McpRoots } from './mcp-roots';
import type { McpServiceConfig } from './mcp-service-config';
import type { McpSignIns } from './mcp-sign-in';

export interface McpLibraryDependencies {
  store: McpStore;
  logger: Logger;
  connections: Pick<
    McpConnections,
    'use' | 'live' | 'hold' | 'disconnect' | 'onResourceUpdated' | 'onSessionEnd'
  >;
  config: Pick<McpServiceConfig, 'get'>;
  signIns: Pick<McpSignIns, 'asUser'>;
}

/** The prompts and resources of a service, as the composer lists them. */
export interface McpLibraryListing {
  prompts: McpPromptInfo[];
  resources: McpResourceInfo[];
  templates: McpResourceTemplateInfo[];
  /** The server suggests argument values (`completion/complete`). */
  completions: boolean;
  /** Its resources can be watched for changes (`resources/subscribe`). */
  subscribe: boolean;
}

export class McpLibrary {
  /** Watched resources (resources/subscribe on the shared sessions). */
  private readonly watches: McpResourceWatches;
  /** The shared-folder rules (stateless) over the store and the connections. */
  private readonly sharedFolders: McpRoots;

  constructor(private readonly dependencies: McpLibraryDependencies) {
    const { store, logger, connections, config } = dependencies;
    this.watches = new McpResourceWatches({
      get: (idOrName) => config.get(idOrName),
      withSession: (service, signal, action) => connections.use(service, signal, action),
      live: (serviceId) => connections.live(serviceId),
      hold: (serviceId) => connections.hold(serviceId),
      logger,
    });
    connections.onResourceUpdated((serviceId, uri) => this.watches.updated(serviceId, uri));
    connections.onSessionEnd((serviceId, why) => this.watches.sessionEnded(serviceId, why));
    this.sharedFolders = new McpRoots({
      store,
      live: (serviceId) => connections.live(serviceId),
      disconnect: (serviceId) => connections.disconnect(serviceId),
      logger,
    });
  }

  /** The service's prompts and resources, for the composer (inserted as text by the user). */
  async library(idOrName: string, signal: AbortSignal): Promise<McpLibraryListing> {
    const service = this.dependencies.config.get(idOrName);
    return this.dependencies.signIns.asUser(service.id, signal, () =>
      this.dependencies.connections.use(service, signal, async (session) => {
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
  getPrompt(
    idOrName: string,
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<string> {
    return this.request(idOrName, signal, (session) => session.getPrompt(name, args, signal));
  }

  /** A resource's text; a server's error (an unknown URI, say) comes back with its message. */
  readResource(idOrName: string, uri: string, signal: AbortSignal): Promise<string> {
    return this.request(idOrName, signal, (session) => session.readResource(uri, signal));
  }

  /** A resource's text and its binary parts (for saving them as files). */
  readResourceContents(
    idOrName: string,
    uri: string,
    signal: AbortSignal,
  ): Promise<McpResourceContents> {
    return this.request(idOrName, signal, (session) => session.readResourceContents(uri, signal));
  }

  /**
   * The server's suggestions for an argument of a prompt or resource template as the user types
   * it (`completion/complete`); none when the server does not offer completions.
   */
  complete(
    idOrName: string,
    ref: McpCompletionRef,
    argument: { name: string; value: string },
    context: Record<string, string>,
    signal: AbortSignal,
  ): Promise<McpCompletion> {
    return this.request(idOrName, signal, (session) =>
      session.complete(ref, argument, context, signal),
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
    const service = this.dependencies.config.get(idOrName);
    return showingFailures(this.dependencies.logger, service, () =>
      this.dependencies.signIns.asUser(service.id, signal, () =>
        this.watches.watch(service.id, uri, listener, signal),
      ),
    );
  }

  /** Ends a watch (the view closed); false when there was none by that id. */
  unwatchResource(watchId: string): Promise<boolean> {
    return this.watches.unwatch(watchId);
  }

  /** Ends every watch (nobody is left to show them). */
  unwatchAllResources(): Promise<void> {
    return this.watches.unwatchAll();
  }

  /**
   * Whether the service's server offers resources, as last seen on a connection; true when no
   * connection has told yet (the model's resource reader is then offered, as before).
   */
  offersResources(idOrName: string): boolean {
    const { store, config } = this.dependencies;
    return store.getServerFeatures(config.get(idOrName).id)?.resources !== false;
  }

  /** The folders shared with the service (MCP roots); see mcp-roots.ts for the rules. */
  roots(idOrName: string): McpRoot[] {
    return this.sharedFolders.list(this.dependencies.config.get(idOrName));
  }

  /** Shares an existing folder (absolute path) with the service and tells its live connection. */
  async addRoot(idOrName: string, dir: string, name?: string): Promise<McpRoot[]> {
    return this.sharedFolders.add(this.dependencies.config.get(idOrName), dir, name);
  }

  async removeRoot(idOrName: string, dir: string): Promise<McpRoot[]> {
    return this.sharedFolders.remove(this.dependencies.config.get(idOrName), dir);
  }

  /** `action` on the service's shared session, as the user's request, its failure shown. */
  private async request<T>(
    idOrName: string,
    signal: AbortSignal,
    action: (session: McpSession) => Promise<T>,
  ): Promise<T> {
    const service = this.dependencies.config.get(idOrName);
    return showingFailures(this.dependencies.logger, service, () =>
      this.dependencies.signIns.asUser(service.id, signal, () =>
        this.dependencies.connections.use(service, signal, action),
      ),
    );
  }
}
