/**
 * A small MCP server (the SDK's McpServer over Streamable HTTP with sessions, on 127.0.0.1 port 0)
 * whose tools answer "URL elicitation required" (-32042) until the user has visited a page:
 *
 * - `link-account`: -32042 with one URL elicitation (`/link/<id>` on this server) until that id
 *   is completed, then "Account linked.". Visiting the page completes it and sends
 *   `notifications/elicitation/complete` on the session's stream (`?silent=1`: completes it
 *   without the notification, as a server that relies on the user saying "done").
 * - `quiet-link`: like `link-account`, but its page (`?silent=1`) sends no notification: the
 *   user's own "Done" is what tells the client to try again.
 * - `always-link`: -32042 every time (the client retries once only).
 * - `many-links`: -32042 listing `MANY_LINKS` elicitations (more than the client shows).
 * - `bad-link`: -32042 whose URL carries credentials (never shown).
 *
 * `calls` counts each tool's calls; `visit(url)` is the test's browser "opening" a page.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  isInitializeRequest,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';

export const LINK_MESSAGE = 'Link your example account to continue.';
export const MANY_LINKS = 5;

export interface UrlRequiredServer {
  /** The MCP endpoint (`/mcp`). */
  url: string;
  origin: string;
  calls: Record<string, number>;
  /** Ids completed so far (by a visit). */
  completed: Set<string>;
  /** Completion notifications sent. */
  notified: string[];
  /** The browser's visit of a page this server handed out; resolves with the HTTP status. */
  visit(url: string): Promise<number>;
  /** Resolves when `predicate` holds (checked on each request and visit). */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** The id of this session's link-account elicitation, once asked. */
  linkId: string | null;
  /** The same for quiet-link. */
  quietId: string | null;
}

export async function startUrlRequiredServer(): Promise<UrlRequiredServer> {
  const sessions = new Map<string, Session>();
  const owners = new Map<string, Session>();
  const calls: Record<string, number> = {};
  const completed = new Set<string>();
  const notified: string[] = [];
  const waiters = new Set<() => void>();
  const changed = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  let origin = '';

  const count = (tool: string): void => {
    calls[tool] = (calls[tool] ?? 0) + 1;
    changed();
  };
  const page = (session: Session | null, id: string, message = LINK_MESSAGE) => {
    if (session !== null) owners.set(id, session);
    return { mode: 'url' as const, elicitationId: id, url: `${origin}/link/${id}`, message };
  };

  function mcpServer(session: () => Session): McpServer {
    const server = new McpServer({ name: 'url-required', version: '1.0.0' });
    server.registerTool('link-account', { description: 'Needs a linked account.' }, () => {
      count('link-account');
      const own = session();
      own.linkId ??= `link-${randomUUID()}`;
      if (completed.has(own.linkId))
        return { content: [{ type: 'text' as const, text: 'Account linked.' }] };
      throw new UrlElicitationRequiredError([page(own, own.linkId)]);
    });
    server.registerTool('quiet-link', { description: 'Needs a page visited.' }, () => {
      count('quiet-link');
      const own = session();
      own.quietId ??= `quiet-${randomUUID()}`;
      if (completed.has(own.quietId))
        return { content: [{ type: 'text' as const, text: 'Visited, quietly.' }] };
      const asked = page(own, own.quietId);
      throw new UrlElicitationRequiredError([{ ...asked, url: `${asked.url}?silent=1` }]);
    });
    server.registerTool('always-link', { description: 'Never satisfied.' }, () => {
      count('always-link');
      throw new UrlElicitationRequiredError([page(session(), `always-${randomUUID()}`)]);
    });
    server.registerTool('many-links', { description: 'Too many pages.' }, () => {
      count('many-links');
      throw new UrlElicitationRequiredError(
        Array.from({ length: MANY_LINKS }, (_, index) => page(null, `many-${index}`)),
      );
    });
    server.registerTool('bad-link', { description: 'A URL with credentials.' }, () => {
      count('bad-link');
      throw new UrlElicitationRequiredError([
        {
          mode: 'url',
          elicitationId: 'bad-1',
          url: origin.replace('http://', 'http://user:secret@') + '/link/bad-1',
          message: 'Sign in here.',
        },
      ]);
    });
    return server;
  }

  async function onMcp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const header = request.headers['mcp-session-id'];
    const sessionId = typeof header === 'string' ? header : undefined;
    const known = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (known !== undefined) {
      await known.transport.handleRequest(request, response);
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(400).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (!isInitializeRequest(body)) {
      response.writeHead(400).end();
      return;
    }
    const session = {} as Session;
    session.linkId = null;
    session.quietId = null;
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
    });
    session.server = mcpServer(() => session);
    await session.server.connect(session.transport);
    await session.transport.handleRequest(request, response, body);
  }

  async function onVisit(url: URL, response: ServerResponse): Promise<void> {
    const id = decodeURIComponent(url.pathname.slice('/link/'.length));
    completed.add(id);
    const owner = owners.get(id);
    if (owner !== undefined && url.searchParams.get('silent') !== '1') {
      await owner.server.server.createElicitationCompletionNotifier(id)();
      notified.push(id);
    }
    changed();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Linked</title><p>Linked. You can close this page.</p>');
  }

  const http = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const handled =
      url.pathname === '/mcp'
        ? onMcp(request, response)
        : url.pathname.startsWith('/link/') && request.method === 'GET'
          ? onVisit(url, response)
          : Promise.resolve(void response.writeHead(404).end());
    handled.catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  return {
    url: `${origin}/mcp`,
    origin,
    calls,
    completed,
    notified,
    async visit(link) {
      const response = await fetch(link);
      await response.text();
      return response.status;
    },
    waitFor(predicate, timeoutMs = 20_000) {
      if (predicate()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (!predicate()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error('url-required server: condition not met in time'));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    async stop() {
      for (const session of sessions.values()) await session.server.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
