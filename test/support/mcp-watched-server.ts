/**
 * A real stateful MCP server (the SDK's McpServer over Streamable HTTP with session ids and the
 * GET event stream, on 127.0.0.1) whose resource changes by itself once watched: `test://clock`
 * reads "tick N". While a session is subscribed to it (`resources/subscribe`; the server declares
 * `resources.subscribe`), every `intervalMs` the tick goes up and the session is sent
 * `notifications/resources/updated` — at most `maxTicks` per subscription, so it stops by itself.
 * server-everything sends its updates only after its `toggle-subscriber-updates` tool ran in
 * the same session, which a one-shot CLI command or the service page cannot do.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

export const CLOCK_URI = 'test://clock';

export interface WatchedServer {
  url: string;
  /** The tick the clock shows now. */
  tick(): number;
  /** Subscribe and unsubscribe requests received, in order. */
  requests: ('subscribe' | 'unsubscribe')[];
  /** Sessions subscribed now. */
  subscribed(): number;
  close(): Promise<void>;
}

export async function startWatchedServer(
  options: { intervalMs?: number; maxTicks?: number } = {},
): Promise<WatchedServer> {
  const intervalMs = options.intervalMs ?? 150;
  const maxTicks = options.maxTicks ?? 40;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const tickers = new Map<string, NodeJS.Timeout>();
  const requests: WatchedServer['requests'] = [];
  let tick = 0;

  const stopTicking = (sessionId: string): void => {
    clearInterval(tickers.get(sessionId));
    tickers.delete(sessionId);
  };

  function build(sessionOf: () => string): McpServer {
    const server = new McpServer(
      { name: 'watched', version: '1.0.0' },
      { capabilities: { resources: { subscribe: true } } },
    );
    server.registerResource('Clock', CLOCK_URI, { mimeType: 'text/plain' }, () => ({
      contents: [{ uri: CLOCK_URI, mimeType: 'text/plain', text: `tick ${tick}` }],
    }));
    server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
      requests.push('subscribe');
      const sessionId = sessionOf();
      stopTicking(sessionId);
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= maxTicks) {
          stopTicking(sessionId);
          return;
        }
        sent += 1;
        tick += 1;
        void server.server
          .notification({
            method: 'notifications/resources/updated',
            params: { uri: request.params.uri },
          })
          .catch(() => stopTicking(sessionId));
      }, intervalMs);
      timer.unref();
      tickers.set(sessionId, timer);
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, () => {
      requests.push('unsubscribe');
      stopTicking(sessionOf());
      return {};
    });
    return server;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const header = request.headers['mcp-session-id'];
    const known = typeof header === 'string' ? sessions.get(header) : undefined;
    if (known !== undefined) {
      await known.handleRequest(request, response);
      return;
    }
    if (typeof header === 'string') {
      response.writeHead(404).end();
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(400).end();
      return;
    }
    let id = '';
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        id = sessionId;
        sessions.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      stopTicking(id);
      sessions.delete(id);
    };
    await build(() => id).connect(transport);
    await transport.handleRequest(request, response);
  }

  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    tick: () => tick,
    requests,
    subscribed: () => tickers.size,
    close: async () => {
      for (const sessionId of [...tickers.keys()]) stopTicking(sessionId);
      for (const transport of sessions.values()) await transport.close().catch(() => undefined);
      await new Promise<void>((done) => {
        http.closeAllConnections();
        http.close(() => done());
      });
    },
  };
}
