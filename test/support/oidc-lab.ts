/**
 * A real authorization server in front of an MCP server, for sign-in tests: `oidc-provider` (its
 * in-memory store, dynamic registration, PKCE, RFC 8707 resource indicators, RFC 9207 `iss` in
 * authorization responses) and, on the same loopback origin, an MCP endpoint (`/mcp`, one tool
 * `whoami`) that accepts only access tokens this provider issued for it, with its Protected
 * Resource Metadata. The user's login and consent are a page (`/interaction/:uid`) that approves
 * at once, as the user would; it needs the provider's interaction cookie, so the browser must keep
 * cookies (test/support/oauth-browser.ts does).
 *
 * `restart()` starts a new provider on the same port with an empty store: every registered client,
 * grant and token is forgotten, as after a restart of a real server without persistence.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const SCOPE = 'mcp:tools';

export interface OidcLab {
  /** The MCP endpoint. */
  url: string;
  /** The issuer (and the MCP server's origin). */
  origin: string;
  /** Requests per path since the start (query excluded), across restarts. */
  count(path: string): number;
  /** Starts a fresh provider on the same port: clients, grants and tokens are gone. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

function newProvider(issuer: string, resource: string): Provider {
  return new Provider(issuer, {
    // Dynamic registration open to anyone (as MCP servers allow), no initial access token.
    features: {
      registration: { enabled: true },
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new Error(`unknown resource ${indicator}`);
          return { scope: SCOPE, audience: resource, accessTokenFormat: 'opaque' };
        },
      },
    },
    scopes: ['openid', 'offline_access', SCOPE],
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['oidc-lab-cookie-key'] },
    findAccount: (_ctx, id) => Promise.resolve({ accountId: id, claims: () => ({ sub: id }) }),
  });
}

export async function startOidcLab(): Promise<OidcLab> {
  const counts = new Map<string, number>();
  let origin = '';
  let provider: Provider | null = null;
  let handler: ReturnType<Provider['callback']> | null = null;
  const prmPath = '/.well-known/oauth-protected-resource/mcp';

  /** The user logs in and consents to what was asked, at once. */
  async function approve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (provider === null) throw new Error('no provider');
    const details = await provider.interactionDetails(request, response);
    const accountId = 'oidc-lab-user';
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    // What was asked: the scope (listed by the provider, so also an OpenID scope) and the scope
    // at the resource.
    grant.addOIDCScope(SCOPE);
    const resource = details.params.resource;
    if (typeof resource === 'string') grant.addResourceScope(resource, SCOPE);
    const grantId = await grant.save();
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  async function mcp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const token = bearer && provider ? await provider.AccessToken.find(bearer) : undefined;
    if (token === undefined || token.aud !== `${origin}/mcp`) {
      response
        .writeHead(401, {
          'www-authenticate': `Bearer error="invalid_token", resource_metadata="${origin}${prmPath}"`,
          'content-type': 'application/json',
        })
        .end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    const server = new McpServer({ name: 'oidc-lab', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Who the access token belongs to.' }, () => ({
      content: [{ type: 'text', text: `subject=${token.accountId} client=${token.clientId}` }],
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

  const route = (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', origin);
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    const failed = (error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    };
    if (url.pathname === '/mcp') {
      mcp(request, response).catch(failed);
      return;
    }
    if (url.pathname === prmPath) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          resource: `${origin}/mcp`,
          authorization_servers: [origin],
          scopes_supported: [SCOPE],
          bearer_methods_supported: ['header'],
        }),
      );
      return;
    }
    if (url.pathname.startsWith('/interaction/')) {
      approve(request, response).catch(failed);
      return;
    }
    if (handler === null) {
      response.writeHead(503).end();
      return;
    }
    void handler(request, response);
  };

  const http: Server = createServer(route);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  const start = () => {
    provider = newProvider(origin, `${origin}/mcp`);
    handler = provider.callback();
  };
  start();

  return {
    url: `${origin}/mcp`,
    origin,
    count: (path) => counts.get(path) ?? 0,
    restart: () => {
      // The port stays (the service's URL is saved); the provider and its store are new.
      http.closeAllConnections();
      start();
      return Promise.resolve();
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
