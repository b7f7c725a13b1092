/**
 * A service's tool catalog: test (connect, list the tools), sync (the `latest` snapshot and its
 * diff to the accepted one), accept, the tools models may call (`mcp-diff.ts`), and what a
 * `tools/list_changed` does — it only marks the service stale; what models see changes when the
 * user syncs and accepts.
 */
import { AivoryError } from '../../../shared/errors';
import type { McpService, McpToolChange, McpToolRecord } from '../../../shared/mcp';
import type { Clock, Logger, McpSession, McpStore } from '../../core/ports';
import type { McpConnections } from './mcp-connections';
import { diffTools, isCallable, matchesLatest } from './mcp-diff';
import { describeFailure } from './mcp-failure';
import { notSynced } from './mcp-service-config';
import type { McpServiceConfig } from './mcp-service-config';
import type { McpSignIns } from './mcp-sign-in';

/** How long the tool listing after a tools/list_changed may take. */
const LIST_CHANGED_CHECK_MS = 20_000;

export interface McpCatalogSyncDependencies {
  store: McpStore;
  clock: Clock;
  logger: Logger;
  /** The shared sessions (`use`); a test or sync clears the last refused sign-in origin. */
  connections: Pick<McpConnections, 'use' | 'refusedOrigins'>;
  config: Pick<McpServiceConfig, 'get'>;
  /** Tests and syncs are the user's own actions: they sign in when the server asks. */
  signIns: Pick<McpSignIns, 'asUser'>;
}

export class McpCatalogSync {
  private readonly staleListeners: ((serviceId: string) => void)[] = [];

  constructor(private readonly dependencies: McpCatalogSyncDependencies) {}

  /** Connect + initialize + list tools; records connected / error with a specific message. */
  async test(idOrName: string, signal: AbortSignal): Promise<{ ok: boolean; message: string }> {
    const { connections, config, signIns } = this.dependencies;
    const service = config.get(idOrName);
    connections.refusedOrigins.delete(service.id);
    try {
      // Over the live session when there is one (a test must not end a server's state); a
      // session found gone is replaced on the way (McpConnections.use).
      const { tools, session } = await signIns.asUser(service.id, signal, () =>
        connections.use(service, signal, async (session) => ({
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
    const { store, clock, connections, config, signIns } = this.dependencies;
    const service = config.get(idOrName);
    connections.refusedOrigins.delete(service.id);
    let tools;
    try {
      tools = await signIns.asUser(service.id, options.signal, () =>
        connections.use(service, options.signal, (session) => session.listTools(options.signal)),
      );
    } catch (error) {
      const message = describeFailure(error);
      this.record(service.id, 'error', message);
      throw new AivoryError('connection', `Sync of "${service.name}" failed: ${message}`);
    }
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
    return diffTools(this.dependencies.store.listTools(this.dependencies.config.get(idOrName).id));
  }

  accept(idOrName: string): void {
    const service = this.dependencies.config.get(idOrName);
    if (service.syncedAt === null) throw notSynced(service);
    this.dependencies.store.acceptLatest(service.id);
  }

  tools(idOrName: string): McpToolRecord[] {
    return this.dependencies.store.listTools(this.dependencies.config.get(idOrName).id);
  }

  /** Enabled, synced services with the tools models may call (accepted and unchanged). */
  callable(): { service: McpService; tools: McpToolRecord[] }[] {
    const { store } = this.dependencies;
    return store
      .listServices()
      .filter((service) => service.enabled && service.syncedAt !== null)
      .map((service) => ({ service, tools: store.listTools(service.id).filter(isCallable) }));
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
  async checkToolsChanged(serviceId: string, session: McpSession): Promise<void> {
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

  private record(serviceId: string, state: 'connected' | 'error', message: string): void {
    this.dependencies.store.updateService(serviceId, {
      testState: state,
      testMessage: message,
      testedAt: this.dependencies.clock.now(),
    });
  }
}
