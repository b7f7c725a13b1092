/**
 * MCP services, their tool snapshots and approvals: what the MCP services need from persistence
 * (adapters/sqlite/mcp-store.ts, `SqliteStore.mcp`).
 */
import type {
  McpApprovalPolicy,
  McpService,
  McpToolInfo,
  McpToolRecord,
} from '../../../shared/mcp';
import type { McpRoot } from '../../../shared/mcp-roots';
import type { McpServerFeatures } from './mcp';

/** What the user configured for a new service (state, timestamps and snapshots come later). */
export type NewMcpService = Pick<
  McpService,
  | 'id'
  | 'name'
  | 'icon'
  | 'description'
  | 'transport'
  | 'url'
  | 'command'
  | 'args'
  | 'env'
  | 'headers'
  | 'timeoutMs'
  | 'maxTimeoutMs'
  | 'oauth'
>;

export type McpServicePatch = Partial<
  Pick<
    McpService,
    | 'enabled'
    | 'testState'
    | 'testMessage'
    | 'testedAt'
    | 'syncedAt'
    | 'stale'
    | 'timeoutMs'
    | 'maxTimeoutMs'
  >
>;

export interface McpStore {
  listServices(): McpService[];
  /** By id, or by name. */
  getService(idOrName: string): McpService | null;
  createService(input: NewMcpService): McpService;
  updateService(id: string, patch: McpServicePatch): McpService;
  /** Replaces what the user configured (name … timeouts); keeps state, snapshots, approvals. */
  updateConfig(id: string, config: Omit<NewMcpService, 'id'>): McpService;
  deleteService(id: string): boolean;
  /** What the service's server offers, as last seen on a connection; null when never seen. */
  getServerFeatures(serviceId: string): McpServerFeatures | null;
  /** Records what the server offers (each new connection). */
  setServerFeatures(serviceId: string, features: McpServerFeatures): void;
  listTools(serviceId: string): McpToolRecord[];
  saveLatest(serviceId: string, tools: readonly McpToolInfo[]): void;
  acceptLatest(serviceId: string): void;
  setToolApproval(serviceId: string, tool: string, policy: McpApprovalPolicy): void;
  allowForConversation(conversationId: string, serviceId: string, tool: string): void;
  isAllowedForConversation(conversationId: string, serviceId: string, tool: string): boolean;
  /** The folders shared with the service (MCP roots), in the order they were added. */
  listRoots(serviceId: string): McpRoot[];
  /** Replaces the service's shared folders (checked by the service layer). */
  setRoots(serviceId: string, roots: readonly McpRoot[]): void;
}
