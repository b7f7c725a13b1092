/**
 * What the MCP service layer is built from (the composition root hands it in): the stores, the
 * connector and the settings it reads. `McpServices` passes each part on to the module that needs
 * it (configuration, sign-in, catalog sync, library, connections).
 */
import type { McpService } from '../../../shared/mcp';
import type {
  Clock,
  HostResolver,
  IdGenerator,
  Logger,
  McpConnector,
  McpLogLevel,
  McpSignIn,
  McpStore,
  SecretStore,
} from '../../core/ports';

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
  /**
   * The least time between two re-lists (or list-reload events) a service's `list_changed`
   * notifications cause; default LIST_CHANGED_MIN_INTERVAL_MS (`mcp-change-coalescer.ts`).
   */
  listChangedIntervalMs?: number;
}
