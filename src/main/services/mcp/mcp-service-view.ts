/**
 * A service as the CLI and the settings page list it: header and env values masked, the sign-in
 * state, and counts of its tools.
 */
import type { McpService, McpSignInStatus } from '../../../shared/mcp';
import type { McpStore, SecretStore } from '../../core/ports';
import { maskSecret } from '../../policy/secret-mask';
import { diffTools, isCallable } from './mcp-diff';
import { pendingMove, signInStatus } from './mcp-oauth-state';

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
  /**
   * The resource moved its sign-in to another authorization server (`to`) than the one the
   * service is bound to (`from`) and nothing was sent there: the user may approve it
   * (`approveAuthServer`); null otherwise.
   */
  movedSignIn: { from: string; to: string } | null;
  toolCount: number;
  callableCount: number;
  pendingChanges: number;
}

/** The view of `service`; `refusedOrigins` is McpConnections', by service id. */
export async function viewService(
  service: McpService,
  from: {
    store: McpStore;
    secrets: SecretStore;
    refusedOrigins: ReadonlyMap<string, string>;
  },
): Promise<McpServiceView> {
  const mask = async (entries: McpService['headers']) =>
    Promise.all(
      entries.map(async (entry) => ({
        name: entry.name,
        value: maskSecret((await from.secrets.get(entry.secretRef)) ?? ''),
      })),
    );
  const tools = from.store.listTools(service.id);
  return {
    ...service,
    headers: await mask(service.headers),
    env: await mask(service.env),
    signIn: await signInStatus(from.secrets, service),
    refusedSignInOrigin: from.refusedOrigins.get(service.id) ?? null,
    movedSignIn: await pendingMove(from.secrets, service),
    toolCount: tools.filter((tool) => tool.latest !== null).length,
    callableCount: tools.filter(isCallable).length,
    pendingChanges: diffTools(tools).length,
  };
}
