/**
 * A service's OAuth sign-in as the service layer keeps it: the saved state (tokens, the client's
 * registration, discovery) as one JSON value in the SecretStore — never in the database or a log —
 * the address rules for the authorization server's hosts, and what the settings card shows.
 */
import type { McpService, McpSignInStatus } from '../../../shared/mcp';
import type { HostResolver, McpOAuthEndpoint, McpOAuthState, SecretStore } from '../../core/ports';
import { authServerAddresses, refusedSignInOrigin } from './mcp-endpoint-policy';
import type { ServiceUrl } from './mcp-endpoint-policy';

/** The client_name Aivory registers with. */
const CLIENT_NAME = 'Aivory Personal';

/** Where a service's OAuth state is kept. */
export function oauthStateRef(serviceId: string): string {
  return `mcp.${serviceId}.oauth`;
}

/**
 * Where the authorization server (issuer) a service's sign-in and entered client are bound to is
 * kept: beside the client's secret, apart from the sign-in (a sign-out, a new registration keep
 * it; a new address or client drops it, `McpServiceConfig.update`).
 */
export function issuerRef(serviceId: string): string {
  return `mcp.${serviceId}.oauth-issuer`;
}

export async function loadOAuthState(
  secrets: SecretStore,
  serviceId: string,
): Promise<McpOAuthState> {
  const text = await secrets.get(oauthStateRef(serviceId));
  if (text === null) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as McpOAuthState)
      : {};
  } catch {
    // A damaged value is a sign-out, not a crash: the next sign-in writes a good one.
    return {};
  }
}

/** What the endpoint needs beyond the service: secrets, DNS, and the user's part. */
export interface OAuthEndpointDeps {
  secrets: SecretStore;
  resolver: HostResolver;
  /** An https URL serving this app's Client ID Metadata Document, if the user has one. */
  clientMetadataUrl?: string;
  /**
   * Told each origin a sign-in request or page was refused for (another port of the service's
   * local host, not trusted): the settings card offers to trust it.
   */
  onRefusedOrigin?: (origin: string) => void;
}

/** The OAuth side of an HTTP service's endpoint. */
export async function oauthEndpoint(
  service: McpService,
  url: ServiceUrl,
  deps: OAuthEndpointDeps,
): Promise<McpOAuthEndpoint> {
  const config = service.oauth;
  const secret =
    config?.clientSecretRef != null ? await deps.secrets.get(config.clientSecretRef) : null;
  const key = config?.clientKeyRef != null ? await deps.secrets.get(config.clientKeyRef) : null;
  const issuer = await deps.secrets.get(issuerRef(service.id));
  const sameHost = (hostname: string) =>
    hostname
      .replace(/^\[|\]$/g, '')
      .replace(/\.+$/, '')
      .toLowerCase() === url.hostname.toLowerCase();
  return {
    load: () => loadOAuthState(deps.secrets, service.id),
    save: (state) => deps.secrets.set(oauthStateRef(service.id), JSON.stringify(state)),
    serviceName: service.name,
    clientName: CLIENT_NAME,
    ...(config?.clientId != null
      ? {
          client: {
            id: config.clientId,
            ...(secret ? { secret } : {}),
            ...(key ? { privateKey: key, keyAlgorithm: config.keyAlgorithm ?? 'ES256' } : {}),
          },
        }
      : {}),
    grant: config?.grant ?? 'authorization_code',
    ...(issuer ? { issuer } : {}),
    bindIssuer: (bound) => deps.secrets.set(issuerRef(service.id), bound),
    ...(deps.clientMetadataUrl ? { clientMetadataUrl: deps.clientMetadataUrl } : {}),
    resolveAddresses: (hostname, signal) =>
      authServerAddresses(url, hostname, deps.resolver, signal),
    // Plain http only to the service's own host when it is on this machine or the LAN.
    allowsHttp: (hostname) => url.local && sameHost(hostname),
    refusedOrigin: (target) => {
      const refused = refusedSignInOrigin(url, target, config?.trustedOrigins ?? []);
      if (refused === null) return null;
      deps.onRefusedOrigin?.(target.origin);
      return `${refused}. If ${target.origin} is the sign-in server of "${service.name}", allow it: aivory mcp edit ${cliWord(service.name)} --trust-auth-server ${target.origin} (or "Allow sign-in through ${target.origin}" on the service in Settings → MCP)`;
    },
  };
}

/** The sign-in as the settings card and the CLI show it; null for stdio services. */
export async function signInStatus(
  secrets: SecretStore,
  service: McpService,
): Promise<McpSignInStatus | null> {
  if (service.transport === 'stdio') return null;
  const state = await loadOAuthState(secrets, service.id);
  const tokens = state.tokens;
  const signedIn = typeof tokens?.access_token === 'string' && tokens.access_token !== '';
  const expiresIn = Number(tokens?.expires_in);
  const obtained = Number(tokens?.obtained_at);
  const issuer = tokens?.issuer ?? state.client?.issuer;
  return {
    signedIn,
    authServer: typeof issuer === 'string' ? originOrNull(issuer) : null,
    expiresAt:
      signedIn && Number.isFinite(expiresIn) && Number.isFinite(obtained) && expiresIn > 0
        ? obtained + expiresIn * 1000
        : null,
    scope: signedIn && typeof tokens?.scope === 'string' ? tokens.scope.slice(0, 500) : null,
    refreshable: signedIn && typeof tokens?.refresh_token === 'string',
  };
}

/**
 * The move awaiting the user's approval: the resource named `to` instead of the bound `from`, and
 * nothing was sent there (null for none, and for stdio services).
 */
export async function pendingMove(
  secrets: SecretStore,
  service: McpService,
): Promise<{ from: string; to: string } | null> {
  if (service.transport === 'stdio') return null;
  const moved = (await loadOAuthState(secrets, service.id)).moved;
  return typeof moved?.from === 'string' && typeof moved.to === 'string'
    ? { from: moved.from, to: moved.to }
    : null;
}

/**
 * Binds the service's sign-in to `issuer` (the user's approval of a move, or of an issuer named
 * beforehand): the sign-in, registration and discovery made with another one are dropped.
 */
export async function bindSignIn(
  secrets: SecretStore,
  serviceId: string,
  issuer: string,
): Promise<void> {
  await secrets.delete(oauthStateRef(serviceId));
  await secrets.set(issuerRef(serviceId), issuer);
}

/**
 * Signs out: the tokens go; `everything` also drops the registration and discovery (the next
 * sign-in registers anew and looks the authorization server up again).
 */
export async function forgetSignIn(
  secrets: SecretStore,
  serviceId: string,
  everything: boolean,
): Promise<void> {
  if (everything) {
    await secrets.delete(oauthStateRef(serviceId));
    return;
  }
  const state = await loadOAuthState(secrets, serviceId);
  if (state.tokens === undefined) return;
  delete state.tokens;
  await secrets.set(oauthStateRef(serviceId), JSON.stringify(state));
}

/** A service name as one shell word (the CLI's `shellWord`, which the services do not import). */
export function cliWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

function originOrNull(text: string): string | null {
  try {
    return new URL(text).origin;
  } catch {
    return null;
  }
}
