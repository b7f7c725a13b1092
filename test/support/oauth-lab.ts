/**
 * A small OAuth-protected MCP server for sign-in tests, on one loopback port: the MCP endpoint
 * (`/mcp`, Streamable HTTP through the SDK's McpServer, stateless, one tool `whoami` answering the
 * token's subject and scope) that answers 401 with `WWW-Authenticate: Bearer resource_metadata=…`
 * without a valid token; its Protected Resource Metadata (RFC 9728); and an authorization server
 * (RFC 8414 metadata, `/register` dynamic registration, `/authorize` redirecting straight back to
 * the redirect_uri with code + state as if the user approved, `/token` for authorization_code with
 * PKCE S256 checked, refresh_token and client_credentials).
 *
 * Knobs (all mutable between requests, see `OAuthLabKnobs`): token lifetime, refresh tokens on or
 * off, `/authorize` answering `error=access_denied` (and with or without `iss`), `/token` answering
 * an OAuth error, and the `authorization_servers` / endpoint
 * URLs replaced (to plant hostile ones, or another lab as a separate authorization server whose
 * tokens this one accepts: `tokenIssuer`; with `ownTokens` off, only those — the resource moved
 * there; `onAuthorized` to move it between two requests). Every request is counted per path, every `/token` grant
 * recorded, every issued token kept, so a test can say what happened and what did not.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface OAuthLabKnobs {
  /** expires_in of each access token (seconds); after it the MCP endpoint answers 401. */
  tokenLifetimeSeconds: number;
  /** Whether token answers carry a refresh token. */
  refresh: boolean;
  /** `/authorize` redirects back with error=access_denied (and this description) instead. */
  deny: string | null;
  /** Replaces the PRM's `authorization_servers`. */
  authorizationServers: string[] | null;
  /**
   * Whether the MCP server has Protected Resource Metadata (off: no PRM and no
   * `resource_metadata` in its challenges — a 2025-03-26 server, its authorization server found
   * at its own origin).
   */
  resourceMetadata: boolean;
  /** Replaces fields of the authorization server metadata (endpoints, issuer, flags). */
  metadata: Record<string, unknown>;
  /** The `iss` of `/authorize`'s redirect (RFC 9207): none, this lab's issuer, or another. */
  iss: 'none' | 'right' | 'wrong';
  /** `/token` answers every request with this OAuth error (status 400) instead. */
  tokenError: { error: string; error_description: string } | null;
  /** The scope granted (and advertised). */
  scope: string;
  /**
   * A scope the MCP endpoint insists on: a token without it gets 403 insufficient_scope asking
   * for `scope` plus this one (step-up).
   */
  requiredScope: string | null;
  /**
   * Another lab whose tokens the MCP endpoint accepts too: that lab plays this server's separate
   * authorization server (with `authorizationServers` naming it), as a local Keycloak would.
   */
  tokenIssuer: Pick<OAuthLab, 'findToken'> | null;
  /**
   * Whether the MCP endpoint accepts the tokens this lab issued (off: only `tokenIssuer`'s, as
   * after the resource moved to that authorization server).
   */
  ownTokens: boolean;
  /** Called for every MCP request a token was accepted for, before it is answered. */
  onAuthorized: ((issued: IssuedToken) => void) | null;
  /** Called for every Protected Resource Metadata request, before it is answered. */
  onResourceMetadata: (() => void) | null;
}

export interface OAuthLabOptions extends Partial<OAuthLabKnobs> {
  /** The hostname in the lab's URLs (default 127.0.0.1; e.g. `localhost`). */
  urlHost?: string;
  /** Pre-registered confidential clients (client_credentials, client_secret_basic/post). */
  clients?: Record<string, string>;
}

export interface IssuedToken {
  token: string;
  subject: string;
  scope: string;
  clientId: string;
  expiresAt: number;
}

export interface OAuthLab {
  /** The MCP endpoint. */
  url: string;
  origin: string;
  knobs: OAuthLabKnobs;
  /** Requests per path (query excluded). */
  counts: Map<string, number>;
  /** grant_type of every /token request, in order. */
  grants: string[];
  /** Every access token issued. */
  accessTokens: IssuedToken[];
  /** Every refresh token issued. */
  refreshTokens: string[];
  /** Every redirect_uri /authorize sent the browser back to. */
  redirects: string[];
  /** The body of every dynamic registration request, in order. */
  registrations: Record<string, unknown>[];
  /** Paths other than the MCP endpoint that received a Bearer Authorization header. */
  bearerElsewhere: string[];
  /** Paths of the requests that carried a client secret (HTTP Basic, or `client_secret`). */
  secretsSeen: string[];
  count(path: string): number;
  /** The access token as this lab issued it, if it did. */
  findToken(token: string): IssuedToken | undefined;
  /** Makes every issued access token expired now. */
  expireAccessTokens(): void;
  /** Forgets every dynamically registered client (a server restarted without its registry). */
  forgetClients(): void;
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  resource: string | null;
}

export async function startOAuthLab(options: OAuthLabOptions = {}): Promise<OAuthLab> {
  const knobs: OAuthLabKnobs = {
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
    refresh: options.refresh ?? true,
    deny: options.deny ?? null,
    authorizationServers: options.authorizationServers ?? null,
    resourceMetadata: options.resourceMetadata ?? true,
    metadata: options.metadata ?? {},
    scope: options.scope ?? 'mcp:tools',
    requiredScope: options.requiredScope ?? null,
    tokenIssuer: options.tokenIssuer ?? null,
    ownTokens: options.ownTokens ?? true,
    onAuthorized: options.onAuthorized ?? null,
    onResourceMetadata: options.onResourceMetadata ?? null,
    iss: options.iss ?? 'none',
    tokenError: options.tokenError ?? null,
  };
  const confidential = new Map(Object.entries(options.clients ?? {}));
  const registered = new Map<string, string[]>();
  const codes = new Map<string, PendingCode>();
  const access = new Map<string, IssuedToken>();
  const refreshes = new Map<string, { clientId: string; scope: string; subject: string }>();
  const counts = new Map<string, number>();
  const grants: string[] = [];
  const accessTokens: IssuedToken[] = [];
  const refreshTokens: string[] = [];
  const redirects: string[] = [];
  const registrations: Record<string, unknown>[] = [];
  const bearerElsewhere: string[] = [];
  const secretsSeen: string[] = [];
  let origin = '';

  const prmPath = '/.well-known/oauth-protected-resource/mcp';

  function issue(clientId: string, scope: string, subject: string): Record<string, unknown> {
    const token = `lab-at-${randomBytes(18).toString('hex')}`;
    const issued: IssuedToken = {
      token,
      subject,
      scope,
      clientId,
      expiresAt: Date.now() + knobs.tokenLifetimeSeconds * 1000,
    };
    access.set(token, issued);
    accessTokens.push(issued);
    const answer: Record<string, unknown> = {
      access_token: token,
      token_type: 'Bearer',
      expires_in: knobs.tokenLifetimeSeconds,
      scope,
    };
    if (knobs.refresh) {
      const refreshToken = `lab-rt-${randomBytes(18).toString('hex')}`;
      refreshes.set(refreshToken, { clientId, scope, subject });
      refreshTokens.push(refreshToken);
      answer.refresh_token = refreshToken;
    }
    return answer;
  }

  function metadata(): Record<string, unknown> {
    return {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      scopes_supported: [knobs.scope],
      ...knobs.metadata,
    };
  }

  /** The client of a token request: public (client_id in the body) or with its secret. */
  function clientOf(request: IncomingMessage, form: URLSearchParams): string | null {
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '');
    if (basic?.[1] !== undefined) {
      const [id = '', secret = ''] = Buffer.from(basic[1], 'base64')
        .toString('utf8')
        .split(':')
        .map((part) => decodeURIComponent(part));
      return confidential.get(id) === secret ? id : null;
    }
    const id = form.get('client_id') ?? '';
    const secret = form.get('client_secret');
    if (confidential.has(id)) return confidential.get(id) === secret ? id : null;
    return registered.has(id) ? id : null;
  }

  function token(request: IncomingMessage, response: ServerResponse, body: string): void {
    const form = new URLSearchParams(body);
    const grant = form.get('grant_type') ?? '';
    grants.push(grant);
    if (form.has('client_secret')) secretsSeen.push('/token');
    const clientId = clientOf(request, form);
    if (clientId === null)
      return send(response, 401, { error: 'invalid_client', error_description: 'unknown client' });
    if (knobs.tokenError !== null) return send(response, 400, knobs.tokenError);
    if (grant === 'authorization_code') {
      const pending = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (
        pending === undefined ||
        pending.clientId !== clientId ||
        pending.redirectUri !== form.get('redirect_uri') ||
        pending.challenge !== challenge
      )
        return send(response, 400, { error: 'invalid_grant' });
      return send(response, 200, issue(clientId, pending.scope, `user-of-${clientId}`));
    }
    if (grant === 'refresh_token') {
      const saved = refreshes.get(form.get('refresh_token') ?? '');
      if (saved === undefined || saved.clientId !== clientId)
        return send(response, 400, { error: 'invalid_grant' });
      refreshes.delete(form.get('refresh_token') ?? '');
      return send(response, 200, issue(clientId, saved.scope, saved.subject));
    }
    if (grant === 'client_credentials' && confidential.has(clientId))
      return send(response, 200, issue(clientId, knobs.scope, `client-${clientId}`));
    return send(response, 400, { error: 'unsupported_grant_type' });
  }

  function authorize(url: URL, response: ServerResponse): void {
    const clientId = url.searchParams.get('client_id') ?? '';
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    const uris = registered.get(clientId);
    // Neither an unknown client nor an unregistered redirect URI may be redirected to.
    if (uris === undefined && !confidential.has(clientId))
      return send(response, 400, { error: 'invalid_client', error_description: 'unknown client' });
    if (uris === undefined || !uris.includes(redirectUri))
      return send(response, 400, { error: 'invalid_request' });
    if (url.searchParams.get('code_challenge_method') !== 'S256')
      return send(response, 400, { error: 'invalid_request', error_description: 'PKCE S256' });
    const back = new URL(redirectUri);
    const state = url.searchParams.get('state');
    if (state !== null) back.searchParams.set('state', state);
    if (knobs.iss !== 'none')
      back.searchParams.set('iss', knobs.iss === 'right' ? origin : 'https://mix-up.example');
    if (knobs.deny !== null) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', knobs.deny);
    } else {
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        clientId,
        redirectUri,
        challenge: url.searchParams.get('code_challenge') ?? '',
        scope: url.searchParams.get('scope') ?? knobs.scope,
        resource: url.searchParams.get('resource'),
      });
      back.searchParams.set('code', code);
    }
    redirects.push(redirectUri);
    response.writeHead(302, { location: back.href }).end();
  }

  async function mcp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const issued =
      bearer === undefined
        ? undefined
        : ((knobs.ownTokens ? access.get(bearer) : undefined) ??
          knobs.tokenIssuer?.findToken(bearer));
    if (issued === undefined || issued.expiresAt <= Date.now()) {
      response
        .writeHead(401, {
          'www-authenticate': `Bearer error="invalid_token"${knobs.resourceMetadata ? `, resource_metadata="${origin}${prmPath}"` : ''}`,
          'content-type': 'application/json',
        })
        .end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    const required = knobs.requiredScope;
    if (required !== null && !issued.scope.split(' ').includes(required)) {
      response
        .writeHead(403, {
          'www-authenticate': `Bearer error="insufficient_scope", scope="${knobs.scope} ${required}", resource_metadata="${origin}${prmPath}"`,
          'content-type': 'application/json',
        })
        .end(JSON.stringify({ error: 'insufficient_scope' }));
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    knobs.onAuthorized?.(issued);
    const server = new McpServer({ name: 'oauth-lab', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Who the access token belongs to.' }, () => ({
      content: [{ type: 'text', text: `subject=${issued.subject} scope=${issued.scope}` }],
    }));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  }

  const http = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    if (url.pathname !== '/mcp' && /^Bearer /i.test(request.headers.authorization ?? ''))
      bearerElsewhere.push(url.pathname);
    if (/^Basic /i.test(request.headers.authorization ?? '')) secretsSeen.push(url.pathname);
    const done = (error: unknown) => {
      if (!response.headersSent)
        send(response, 500, { error: 'server_error', error_description: String(error) });
    };
    if (url.pathname === '/mcp') {
      mcp(request, response).catch(done);
      return;
    }
    if (
      knobs.resourceMetadata &&
      (url.pathname === prmPath || url.pathname === '/.well-known/oauth-protected-resource')
    ) {
      knobs.onResourceMetadata?.();
      send(response, 200, {
        resource: `${origin}/mcp`,
        authorization_servers: knobs.authorizationServers ?? [origin],
        scopes_supported: [knobs.scope],
        bearer_methods_supported: ['header'],
      });
      return;
    }
    if (
      url.pathname === '/.well-known/oauth-authorization-server' ||
      url.pathname === '/.well-known/openid-configuration'
    ) {
      send(response, 200, metadata());
      return;
    }
    if (url.pathname === '/authorize' && request.method === 'GET') {
      authorize(url, response);
      return;
    }
    if ((url.pathname === '/register' || url.pathname === '/token') && request.method === 'POST') {
      readText(request)
        .then((body) => {
          if (url.pathname === '/token') return token(request, response, body);
          const metadata = JSON.parse(body) as Record<string, unknown>;
          registrations.push(metadata);
          const clientId = `lab-client-${randomBytes(6).toString('hex')}`;
          const uris = Array.isArray(metadata.redirect_uris)
            ? metadata.redirect_uris.map(String)
            : [];
          registered.set(clientId, uris);
          send(response, 201, {
            ...metadata,
            client_id: clientId,
            client_id_issued_at: Math.floor(Date.now() / 1000),
          });
        })
        .catch(done);
      return;
    }
    send(response, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  origin = `http://${options.urlHost ?? '127.0.0.1'}:${port}`;

  return {
    url: `${origin}/mcp`,
    origin,
    knobs,
    counts,
    grants,
    accessTokens,
    refreshTokens,
    redirects,
    registrations,
    bearerElsewhere,
    secretsSeen,
    count: (path) => counts.get(path) ?? 0,
    findToken: (token) => access.get(token),
    expireAccessTokens() {
      for (const issued of access.values()) issued.expiresAt = 0;
    },
    forgetClients() {
      registered.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response
    .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(JSON.stringify(body));
}

function readText(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}
