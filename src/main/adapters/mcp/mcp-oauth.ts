/**
 * OAuth 2.1 for MCP services (the MCP authorization spec, client side), on the SDK's `auth()`:
 * Protected Resource Metadata and Authorization Server Metadata discovery (RFC 9728 / 8414 with
 * the spec's fallbacks and the 2025-03-26 paths), registration (pre-registered, Client ID
 * Metadata Document, dynamic), authorization code + PKCE S256 with the `resource` parameter,
 * scope selection and step-up, refresh, and client_credentials.
 *
 * The service's fetch (mcp-fetch.ts) asks `authorization()` for the Bearer header of each request
 * and hands a 401 (or a 403 `insufficient_scope`) to `challenge()`, which signs in and says
 * whether to send the request again — once. Discovery, registration and token requests go through
 * their own fetch: never the service's headers, no redirects, every host through the address rules
 * the service layer gives (`resolveAddresses`), plain http:// only where it allows, bodies capped.
 */
import {
  auth,
  extractWWWAuthenticateParams,
  type AddClientAuthentication,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { fetch as undiciFetch } from 'undici';
import { McpError, McpSignInRequired } from '../../core/ports';
import type {
  McpAuthChallenge,
  McpOAuthEndpoint,
  McpOAuthState,
  McpSignIn,
} from '../../core/ports';
import { ADDRESS_BLOCKED, errorCode, networkFailure } from './mcp-errors';
import { oneLine } from '../../../shared/untrusted-text';
import { pinnedAgent } from './mcp-fetch';

/** Longest wait for one discovery / registration / token answer. */
const AUTH_REQUEST_TIMEOUT_MS = 30_000;
/** The redirect URL of a non-interactive attempt (refresh only; a redirect fails before use). */
const LOOPBACK_PLACEHOLDER = 'http://127.0.0.1/callback';
/** Largest metadata or token answer read. */
const AUTH_BODY_MAX_BYTES = 256 * 1024;

/** The message of a sign-in the user must make (a chat turn shows it as is). */
function signInNeeded(server: string, challenge: McpAuthChallenge): McpSignInRequired {
  return new McpSignInRequired(
    challenge.stepUp
      ? `${server} needs more permission than your sign-in grants${challenge.scope ? ` (${oneLine(challenge.scope, 120)})` : ''}; sign in again from the service's card in Settings → MCP or run aivory mcp login`
      : `${server} needs you to sign in (OAuth); sign in from the service's card in Settings → MCP or run aivory mcp login`,
    challenge,
  );
}

/**
 * The OAuth side of one service connection, without the user: the Bearer header, and a refusal
 * answered by refreshing (or, for client credentials, by a new token). When only the user can
 * help (no token yet, a refresh refused, more scope), it throws McpSignInRequired; the user's own
 * actions then call `interactiveSignIn` and try again.
 */
export class McpOAuth {
  private state: McpOAuthState | null = null;
  private pending: Promise<boolean> | null = null;
  private readonly provider: ServiceProvider;
  private readonly authFetch: FetchLike;

  constructor(
    private readonly config: McpOAuthEndpoint,
    private readonly serverUrl: URL,
  ) {
    this.provider = new ServiceProvider(config, serverUrl.origin, stateAccess(this));
    this.authFetch = createAuthFetch(config);
  }

  /** The Authorization header value for the next request, or null (not signed in). */
  async authorization(): Promise<string | null> {
    const token = (await this.loaded()).tokens?.access_token;
    return typeof token === 'string' && token !== '' ? `Bearer ${token}` : null;
  }

  /**
   * Handles a 401, or a 403 asking for more scope: says whether the refused request may be sent
   * again (a new token was obtained without the user). Concurrent refusals share one attempt.
   */
  challenge(response: Response, _signal: AbortSignal): Promise<boolean> {
    const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
    if (response.status === 403 && error !== 'insufficient_scope') return Promise.resolve(false);
    const challenge: McpAuthChallenge = {
      ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}),
      ...(scope ? { scope } : {}),
      stepUp: response.status === 403,
    };
    this.pending ??= this.renew(challenge).finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async renew(challenge: McpAuthChallenge): Promise<boolean> {
    const server = this.serverUrl.origin;
    const state = await this.loaded();
    if (this.config.grant === 'authorization_code') {
      // More scope, or nothing to refresh: only the user can sign in.
      if (challenge.stepUp || typeof state.tokens?.refresh_token !== 'string')
        throw signInNeeded(server, challenge);
      this.provider.redirectUrl = state.redirectUrl ?? LOOPBACK_PLACEHOLDER;
    }
    try {
      const result = await auth(
        this.provider,
        authOptions(this.serverUrl, challenge, this.authFetch),
      );
      if (result !== 'AUTHORIZED') throw signInNeeded(server, challenge);
      return true;
    } catch (error) {
      if (error instanceof McpError) throw error;
      // A refresh the server refused: the user signs in again.
      if (this.config.grant === 'authorization_code') throw signInNeeded(server, challenge);
      throw new McpError(
        'unauthorized',
        `getting a token from ${server}'s authorization server failed: ${describe(error)}`,
      );
    }
  }

  async loaded(): Promise<McpOAuthState> {
    this.state ??= await this.config.load();
    return this.state;
  }

  async store(next: McpOAuthState): Promise<void> {
    this.state = next;
    await this.config.save(next);
  }
}

/** The saved state as the provider reads and writes it. */
interface StateAccess {
  load(): Promise<McpOAuthState>;
  save(state: McpOAuthState): Promise<void>;
}

function stateAccess(owner: {
  loaded(): Promise<McpOAuthState>;
  store(state: McpOAuthState): Promise<void>;
}): StateAccess {
  return { load: () => owner.loaded(), save: (state) => owner.store(state) };
}

function authOptions(serverUrl: URL, challenge: McpAuthChallenge, fetchFn: FetchLike) {
  return {
    serverUrl,
    ...(challenge.resourceMetadataUrl
      ? { resourceMetadataUrl: new URL(challenge.resourceMetadataUrl) }
      : {}),
    ...(challenge.scope ? { scope: challenge.scope } : {}),
    fetchFn,
  };
}

function describe(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error), 300);
}

/**
 * The user's sign-in (see McpConnector.signIn): a fresh authorization — never a refresh — through
 * the loopback listener and the browser, then the code for tokens; saved through `config.save`.
 */
export async function interactiveSignIn(
  config: McpOAuthEndpoint,
  serverUrl: URL,
  challenge: McpAuthChallenge,
  user: McpSignIn,
  signal: AbortSignal,
): Promise<void> {
  const server = serverUrl.origin;
  let state = await config.load();
  const access: StateAccess = {
    load: async () => state,
    save: async (next) => {
      state = next;
      await config.save(next);
    },
  };
  const provider = new ServiceProvider(config, server, access);
  const fetchFn = createAuthFetch(config);
  try {
    if (config.grant === 'authorization_code') {
      provider.redirectUrl = await user.open(state.redirectUrl, signal);
      provider.session = user;
      provider.fresh = true;
    }
    const options = authOptions(serverUrl, challenge, fetchFn);
    let result = await auth(provider, options);
    if (result === 'REDIRECT') {
      const code = await provider.awaitCode(signal);
      provider.fresh = false;
      result = await auth(provider, { ...options, authorizationCode: code });
    }
    if (result !== 'AUTHORIZED') throw signInNeeded(server, challenge);
    if (provider.redirectUrl !== undefined)
      await access.save({ ...state, redirectUrl: provider.redirectUrl });
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (signal.aborted) throw new McpError('canceled', `signing in to ${server} was canceled`);
    throw new McpError('unauthorized', `signing in to ${server} failed: ${describe(error)}`);
  } finally {
    user.close();
  }
}

/** The SDK's view of a service's OAuth client, over the saved state. */
class ServiceProvider implements OAuthClientProvider {
  redirectUrl: string | undefined;
  /** The user's part, during an interactive sign-in only. */
  session: McpSignIn | null = null;
  /** An interactive sign-in asks anew: the saved tokens are not offered for a refresh. */
  fresh = false;
  /** private_key_jwt: signs a fresh client assertion for each token request. */
  readonly addClientAuthentication: AddClientAuthentication | undefined;
  private verifier = '';
  private expectedState = '';
  private authorizationUrl: URL | null = null;

  private readonly load: () => Promise<McpOAuthState>;
  private readonly save: (state: McpOAuthState) => Promise<void>;

  constructor(
    private readonly config: McpOAuthEndpoint,
    private readonly server: string,
    access: StateAccess,
  ) {
    this.load = access.load;
    this.save = access.save;
    this.redirectUrl = config.grant === 'client_credentials' ? undefined : LOOPBACK_PLACEHOLDER;
    const client = config.client;
    this.addClientAuthentication =
      client?.privateKey !== undefined
        ? createPrivateKeyJwtAuth({
            issuer: client.id,
            subject: client.id,
            privateKey: client.privateKey,
            alg: client.keyAlgorithm ?? 'ES256',
          })
        : undefined;
  }

  get clientMetadataUrl(): string | undefined {
    return this.config.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    if (this.config.grant === 'client_credentials') {
      return {
        client_name: this.config.clientName,
        redirect_uris: [],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: this.addClientAuthentication
          ? 'private_key_jwt'
          : 'client_secret_basic',
      };
    }
    return {
      client_name: this.config.clientName,
      redirect_uris: [this.redirectUrl ?? LOOPBACK_PLACEHOLDER],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A desktop app cannot keep a secret: a public client, PKCE protects the code.
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.expectedState = randomBytes(24).toString('base64url');
    return this.expectedState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const saved = (await this.load()).client as OAuthClientInformationMixed | undefined;
    const given = this.config.client;
    if (given !== undefined) {
      if (saved !== undefined && saved.client_id === given.id) return saved;
      return { client_id: given.id, ...(given.secret ? { client_secret: given.secret } : {}) };
    }
    if (saved === undefined) return undefined;
    // A dynamic registration names its redirect URLs: a new loopback port needs a new one.
    const uris = (saved as { redirect_uris?: unknown }).redirect_uris;
    if (
      Array.isArray(uris) &&
      this.redirectUrl !== undefined &&
      !saved.client_id.startsWith('https://') &&
      !uris.includes(this.redirectUrl)
    )
      return undefined;
    return saved;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.save({ ...(await this.load()), client: client as McpOAuthState['client'] });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.fresh) return undefined;
    return (await this.load()).tokens as OAuthTokens | undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const previous = (await this.load()).tokens;
    // A refresh answer without a new refresh token keeps the old one (RFC 6749 §6).
    const refresh = tokens.refresh_token ?? previous?.refresh_token;
    await this.save({
      ...(await this.load()),
      tokens: {
        ...tokens,
        ...(typeof refresh === 'string' ? { refresh_token: refresh } : {}),
        obtained_at: Date.now(),
      },
    });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.load()).discovery as OAuthDiscoveryState | undefined;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.save({ ...(await this.load()), discovery: { ...discovery } });
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    const state = { ...(await this.load()) };
    if (scope === 'all' || scope === 'tokens') delete state.tokens;
    if ((scope === 'all' || scope === 'client') && this.config.client === undefined)
      delete state.client;
    if (scope === 'all' || scope === 'discovery') delete state.discovery;
    await this.save(state);
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.config.grant !== 'client_credentials') return undefined;
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) params.set('scope', scope);
    return params;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (this.session === null) throw signInNeeded(this.server, { stepUp: false });
    checkBrowserUrl(authorizationUrl, this.config);
    this.authorizationUrl = authorizationUrl;
  }

  /** Shows the authorization URL and waits for the browser to come back with the code. */
  async awaitCode(signal: AbortSignal): Promise<string> {
    const url = this.authorizationUrl;
    this.authorizationUrl = null;
    if (this.session === null || url === null) throw signInNeeded(this.server, { stepUp: false });
    return this.session.authorize(url, this.expectedState, signal);
  }
}

/** Only an http(s) page may be opened in the browser (never file:, javascript:, a custom scheme). */
function checkBrowserUrl(url: URL, config: McpOAuthEndpoint): void {
  const refused = config.refusedOrigin(url);
  if (refused !== null) {
    throw new McpError(
      'unauthorized',
      `refused to open the sign-in page: ${oneLine(refused, 800)}`,
    );
  }
  const plainAllowed = url.protocol === 'http:' && config.allowsHttp(url.hostname);
  if (url.protocol !== 'https:' && !plainAllowed) {
    throw new McpError(
      'unauthorized',
      `refused to open the sign-in page ${oneLine(`${url.protocol}//${url.host}`, 80)}: an authorization server must use https://`,
    );
  }
  if (url.username !== '' || url.password !== '')
    throw new McpError('unauthorized', 'refused a sign-in page address with credentials in it');
}

/**
 * The fetch for discovery, registration and token requests: the address rules for every host, no
 * redirects (an answer is used as it is), a deadline, and at most AUTH_BODY_MAX_BYTES read.
 */
export function createAuthFetch(config: McpOAuthEndpoint): FetchLike {
  const agent = pinnedAgent(config.resolveAddresses);
  return async (input, init) => {
    const url = new URL(input);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && config.allowsHttp(url.hostname)))
      throw new McpError(
        'unauthorized',
        `refused ${oneLine(url.origin, 100)} for sign-in: an authorization server must use https://`,
      );
    if (url.username !== '' || url.password !== '')
      throw new McpError('unauthorized', 'refused a sign-in address with credentials in it');
    const refused = config.refusedOrigin(url);
    if (refused !== null) throw new McpError('unauthorized', `refused: ${oneLine(refused, 800)}`);
    const signal = AbortSignal.any([
      ...(init?.signal ? [init.signal] : []),
      AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS),
    ]);
    // Node connects to an address literal without a lookup, so the pinned agent never checks
    // one: a typed address is checked here.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0) {
      await config.resolveAddresses(literal, signal).catch((error: unknown) => {
        throw new McpError(
          'other',
          `blocked: ${oneLine(error instanceof Error ? error.message : String(error), 300)}`,
        );
      });
    }
    let response: Response;
    try {
      response = (await undiciFetch(url, {
        ...(init as Parameters<typeof undiciFetch>[1]),
        redirect: 'manual',
        signal,
        dispatcher: agent,
      })) as unknown as Response;
    } catch (error) {
      // A host the address rules refused ends the sign-in naming it: left a TypeError ("fetch
      // failed"), the SDK takes it for a missing document and goes on with its fallbacks.
      if (errorCode(error) === ADDRESS_BLOCKED) throw networkFailure(error, url.origin) ?? error;
      throw error;
    }
    const body = await boundedText(response, url.origin);
    return new Response(NULL_BODY.has(response.status) ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

async function boundedText(response: Response, origin: string): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > AUTH_BODY_MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new McpError(
        'too-large',
        `${oneLine(origin, 100)} sent a sign-in answer over ${AUTH_BODY_MAX_BYTES / 1024} KiB`,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
