/**
 * OAuth 2.1 for MCP services (the MCP authorization spec, client side), on the SDK's `auth()`:
 * Protected Resource Metadata and Authorization Server Metadata discovery (RFC 9728 / 8414 with
 * the spec's fallbacks and the 2025-03-26 paths), registration (pre-registered, Client ID
 * Metadata Document, dynamic), authorization code + PKCE S256 with the `resource` parameter,
 * scope selection and step-up, refresh, and client_credentials. What the SDK does not check or
 * say (RFC 8414 issuer, the authorization request asked before the browser, OAuth errors as the
 * server wrote them) is in mcp-oauth-checks.ts; the auth requests' fetch in mcp-oauth-fetch.ts.
 *
 * The service's fetch (mcp-fetch.ts) asks `authorization()` for the Bearer header of each request
 * and hands a 401 (or a 403 `insufficient_scope`) to `challenge()`, which signs in and says
 * whether to send the request again — once. A resource that moved to another authorization
 * server (its metadata names another one than the saved tokens', SEP-2352) has the saved sign-in
 * dropped and asks the user anew (`McpAuthChallenge.movedTo`). Discovery, registration and token
 * requests go through their own fetch: never the service's headers, no redirects, every host
 * through the address rules the service layer gives (`resolveAddresses`), plain http:// only
 * where it allows, bodies capped.
 */
import {
  auth,
  discoverOAuthProtectedResourceMetadata,
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
import { McpAuthorizationRefused, McpError } from '../../core/ports';
import type { McpSignInRequired } from '../../core/ports';
import type {
  McpAuthChallenge,
  McpOAuthEndpoint,
  McpOAuthState,
  McpSignIn,
} from '../../core/ports';
import { oneLine } from '../../../shared/untrusted-text';
import { IssuerBinding, signInNeeded } from './mcp-oauth-binding';
import { checkBrowserUrl, createAuthFetch } from './mcp-oauth-fetch';
import {
  checkAuthorizationRequest,
  checkMetadataIssuer,
  recordOAuthErrors,
  refusalOf,
  sameIssuer,
  type RecordedError,
} from './mcp-oauth-checks';

/** The redirect URL of a non-interactive attempt (refresh only; a redirect fails before use). */
const LOOPBACK_PLACEHOLDER = 'http://127.0.0.1/callback';
/** OAuth errors that say the authorization server does not (or no longer) know the client. */
const CLIENT_REFUSALS = new Set(['invalid_client', 'unauthorized_client']);

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
  private readonly binding: IssuerBinding;
  private readonly authFetch: FetchLike;

  constructor(
    private readonly config: McpOAuthEndpoint,
    private readonly serverUrl: URL,
  ) {
    const access = stateAccess(this);
    this.binding = new IssuerBinding(config, access, serverUrl.origin);
    this.provider = new ServiceProvider(config, serverUrl.origin, access, this.binding);
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
    // SEP-2352: a resource that names another authorization server than the bound one gets
    // nothing sent there — no refresh token, no client secret, no registration — until the
    // user approves it (the move is thrown from here).
    await this.admitNamed(challenge);
    if (this.config.grant === 'authorization_code') {
      // More scope, or nothing to refresh: only the user can sign in.
      if (challenge.stepUp || typeof state.tokens?.refresh_token !== 'string')
        throw signInNeeded(server, challenge, this.config.serviceName);
      this.provider.redirectUrl = state.redirectUrl ?? LOOPBACK_PLACEHOLDER;
    }
    try {
      const result = await auth(
        this.provider,
        authOptions(this.serverUrl, challenge, this.authFetch),
      );
      if (result !== 'AUTHORIZED') throw signInNeeded(server, challenge, this.config.serviceName);
      return true;
    } catch (error) {
      if (error instanceof McpError) throw error;
      // A refresh the server refused: the user signs in again.
      if (this.config.grant === 'authorization_code')
        throw signInNeeded(server, challenge, this.config.serviceName);
      throw new McpError(
        'unauthorized',
        `getting a token from ${server}'s authorization server failed: ${describe(error)}`,
      );
    }
  }

  /**
   * Checks the authorization server the resource names now against the bound one (nothing is
   * asked when the service is not bound yet: its first token binds it).
   */
  private async admitNamed(challenge: McpAuthChallenge): Promise<void> {
    if ((await this.binding.bound()) === undefined) return;
    const cached = (await this.loaded()).discovery?.resourceMetadataUrl;
    const where =
      challenge.resourceMetadataUrl ?? (typeof cached === 'string' ? cached : undefined);
    await this.binding.admit(await namedAuthorizationServer(this.serverUrl, where, this.authFetch));
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

/**
 * The authorization server a sign-in would use now, found as the SDK's `auth()` finds it
 * (`discoverOAuthServerInfo`): the first one the resource's metadata (RFC 9728) names, else —
 * no metadata, or none that can be read — the MCP server's own origin (the 2025-03-26 fallback).
 * Only the resource is asked.
 */
async function namedAuthorizationServer(
  serverUrl: URL,
  resourceMetadataUrl: string | undefined,
  fetchFn: FetchLike,
): Promise<string> {
  try {
    const metadata = await discoverOAuthProtectedResourceMetadata(
      serverUrl,
      resourceMetadataUrl === undefined
        ? {}
        : { resourceMetadataUrl: new URL(resourceMetadataUrl) },
      fetchFn,
    );
    const named: unknown = metadata.authorization_servers?.[0];
    if (typeof named === 'string' && named !== '') return named;
  } catch (error) {
    // A refused address is the user's to read; anything else falls back as the SDK does.
    if (error instanceof McpError) throw error;
  }
  return String(new URL('/', serverUrl));
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

/**
 * A step-up's scope: what the saved token was granted plus what the server asks for now (SEP-2350),
 * so the new token still covers the requests the old one did (a server that wants `mcp:basic` for
 * every request and `mcp:write` for tools/call would otherwise refuse the next handshake).
 */
export function withGrantedScope(
  challenge: McpAuthChallenge,
  state: McpOAuthState,
): McpAuthChallenge {
  const granted = state.tokens?.scope;
  if (!challenge.stepUp || challenge.scope === undefined || typeof granted !== 'string')
    return challenge;
  const words = [...granted.split(/\s+/), ...challenge.scope.split(/\s+/)].filter(
    (word) => word !== '',
  );
  return { ...challenge, scope: [...new Set(words)].join(' ') };
}

function describe(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error), 300);
}

/**
 * The user's sign-in (see McpConnector.signIn): a fresh authorization — never a refresh — through
 * the loopback listener and the browser, then the code for tokens; saved through `config.save`.
 * Discovery is made anew (the resource may have moved to another authorization server: the SDK
 * then registers again, the saved client being stamped with the old issuer). When the server no
 * longer knows the saved registration (`invalid_client`, or it answers the authorization request
 * itself), the registration is dropped and made again, once.
 */
export async function interactiveSignIn(
  config: McpOAuthEndpoint,
  serverUrl: URL,
  challenge: McpAuthChallenge,
  user: McpSignIn,
  signal: AbortSignal,
): Promise<void> {
  const server = serverUrl.origin;
  let state: McpOAuthState = { ...(await config.load()) };
  delete state.discovery;
  const access: StateAccess = {
    load: async () => state,
    save: async (next) => {
      state = next;
      await config.save(next);
    },
  };
  const binding = new IssuerBinding(config, access, server);
  const provider = new ServiceProvider(config, server, access, binding);
  const recorded: RecordedError = { last: null };
  const fetchFn = recordOAuthErrors(createAuthFetch(config), server, recorded);
  try {
    // A moved resource is the user's to approve before anything goes to its new server (not even
    // the browser page); `auth()`'s own discovery is checked again (saveDiscoveryState).
    if ((await binding.bound()) !== undefined)
      await binding.admit(
        await namedAuthorizationServer(serverUrl, challenge.resourceMetadataUrl, fetchFn),
      );
    if (config.grant === 'authorization_code') {
      provider.redirectUrl = await user.open(state.redirectUrl, signal);
      provider.session = user;
    }
    const options = authOptions(serverUrl, withGrantedScope(challenge, state), fetchFn);
    for (let attempt = 0; ; attempt += 1) {
      try {
        await signInOnce(provider, options, recorded, signal);
        break;
      } catch (error) {
        if (attempt > 0 || !provider.mayRegisterAgain(error)) throw error;
        await provider.forgetClient();
      }
    }
    if (provider.redirectUrl !== undefined)
      await access.save({ ...state, redirectUrl: provider.redirectUrl });
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (signal.aborted) throw new McpError('canceled', `signing in to ${server} was canceled`);
    // The server's own words (the SDK may have retried and thrown its own).
    throw (
      recorded.last ??
      refusalOf(error, server) ??
      new McpError('unauthorized', `signing in to ${server} failed: ${describe(error)}`)
    );
  } finally {
    user.close();
  }
}

/** One pass of the sign-in: discovery (and registration), the browser, the code for tokens. */
async function signInOnce(
  provider: ServiceProvider,
  options: ReturnType<typeof authOptions>,
  recorded: RecordedError,
  signal: AbortSignal,
): Promise<void> {
  recorded.last = null;
  provider.beginAttempt();
  let result = await auth(provider, options);
  if (result === 'REDIRECT') {
    // A registration made just now is known; a saved one may have been forgotten.
    if (!provider.registeredNow) await provider.checkRequest(options.fetchFn, signal);
    const code = await provider.awaitCode(signal);
    provider.fresh = false;
    result = await auth(provider, { ...options, authorizationCode: code });
  }
  if (result !== 'AUTHORIZED') throw provider.signInNeeded();
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
  /** A client was registered (or named by its metadata URL) during this attempt. */
  registeredNow = false;
  /** The authorization server refused the client at the token endpoint (the SDK dropped it). */
  private clientRefused = false;
  private verifier = '';
  private expectedState = '';
  private authorizationUrl: URL | null = null;

  private readonly load: () => Promise<McpOAuthState>;
  private readonly save: (state: McpOAuthState) => Promise<void>;

  constructor(
    private readonly config: McpOAuthEndpoint,
    private readonly server: string,
    access: StateAccess,
    private readonly binding: IssuerBinding,
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
      // OpenID Connect Registration (which MCP's dynamic registration follows): a native app, so
      // a loopback http:// redirect URI is accepted (the default "web" refuses it). The SDK's
      // type does not list the field; registerClient sends the object as it is.
      ...{ application_type: 'native' },
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
    const before = (await this.load()).client?.client_id;
    if (before !== client.client_id) this.registeredNow = true;
    await this.save({ ...(await this.load()), client: client as McpOAuthState['client'] });
  }

  /** Starts a pass of the interactive sign-in. */
  beginAttempt(): void {
    this.fresh = this.session !== null;
    this.registeredNow = false;
    this.clientRefused = false;
  }

  /**
   * Whether `error` says the authorization server does not know the saved client — an
   * `invalid_client` / `unauthorized_client` answer, or the authorization request answered
   * without a redirect — and a new registration may cure it: a client this app registered
   * (never one the user entered), and not one registered in this very attempt.
   */
  mayRegisterAgain(error: unknown): boolean {
    if (this.config.client !== undefined || this.registeredNow) return false;
    if (this.clientRefused) return true;
    return (
      error instanceof McpAuthorizationRefused &&
      (error.beforeRedirect || CLIENT_REFUSALS.has(error.code))
    );
  }

  /** Drops the saved registration (the next pass registers again). */
  async forgetClient(): Promise<void> {
    const state = { ...(await this.load()) };
    delete state.client;
    await this.save(state);
  }

  signInNeeded(): McpSignInRequired {
    return signInNeeded(this.server, { stepUp: false }, this.config.serviceName);
  }

  /** Asks the authorization endpoint first (mcp-oauth-checks.ts, `checkAuthorizationRequest`). */
  async checkRequest(fetchFn: FetchLike, signal: AbortSignal): Promise<void> {
    if (this.authorizationUrl === null || this.redirectUrl === undefined) return;
    await checkAuthorizationRequest(
      this.authorizationUrl,
      this.redirectUrl,
      fetchFn,
      this.server,
      signal,
    );
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.fresh) return undefined;
    return (await this.load()).tokens as OAuthTokens | undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    // The first token binds the service to its issuer (the SDK stamps it on what it saves).
    await this.binding.bind(tokens.issuer);
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
    const cached = (await this.load()).discovery as OAuthDiscoveryState | undefined;
    if (cached === undefined) return undefined;
    // Found for another authorization server than the bound one: looked up (and checked) again.
    const bound = await this.binding.bound();
    if (bound !== undefined && !sameIssuer(String(cached.authorizationServerUrl), bound))
      return undefined;
    // Saved before the issuer was checked: looked up again (and refused when it still differs).
    try {
      checkMetadataIssuer(cached);
    } catch {
      return undefined;
    }
    return cached;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    // `auth()` saves what it found before any registration or token request: a resource that
    // named another server to it than to the check before is stopped here.
    await this.binding.admit(discovery.authorizationServerUrl);
    checkMetadataIssuer(discovery);
    await this.save({ ...(await this.load()), discovery: { ...discovery } });
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    const state = { ...(await this.load()) };
    if (scope === 'all') this.clientRefused = true;
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
    if (this.session === null) throw this.signInNeeded();
    checkBrowserUrl(authorizationUrl, this.config);
    this.authorizationUrl = authorizationUrl;
  }

  /**
   * Shows the authorization URL and waits for the browser to come back with the code; the
   * redirect's `iss` is checked against the metadata's issuer (RFC 9207), required when the
   * metadata says the server sends it.
   */
  async awaitCode(signal: AbortSignal): Promise<string> {
    const url = this.authorizationUrl;
    this.authorizationUrl = null;
    if (this.session === null || url === null) throw this.signInNeeded();
    const metadata = (await this.load()).discovery?.authorizationServerMetadata as
      { issuer?: unknown; authorization_response_iss_parameter_supported?: unknown } | undefined;
    const issuer =
      typeof metadata?.issuer === 'string'
        ? {
            expected: metadata.issuer,
            required: metadata.authorization_response_iss_parameter_supported === true,
          }
        : undefined;
    return this.session.authorize(url, this.expectedState, signal, issuer);
  }
}
