/**
 * A small MCP server over plain node:http on 127.0.0.1 that speaks just enough JSON-RPC over
 * Streamable HTTP (POST JSON in; JSON or an event stream out; GET for the server's own event
 * stream) to misbehave on purpose. The path chooses the behaviour:
 *
 * - `/mcp` tools: echo, hang, destroy, destroy-sse, end-sse, huge {chars, sse}, progress {steps,
 *   intervalMs} (then answers), progress-forever, images {count, bytes}
 * - `/changing` like /mcp, but each tools/list describes `echo` as "version N"
 * - `/many` `toolCount` tools in pages of `pageSize`
 * - `/expiring` like /mcp with a session id; after `expireSessions()` it answers 404
 * - `/html`, `/not-jsonrpc`, `/bad-json`, `/sse-garbage`, `/rpc-error` broken answers
 * - `/redirect` (302 to `redirectTo`), `/redirect-same` (307 to /mcp), `/401`, `/403`
 * - `/legacy`, `/legacy-404` legacy SSE servers (GET streams an endpoint event; POST 405 / 404)
 * - `/legacy-evil` a legacy SSE server announcing its message endpoint at `redirectTo`
 * - `/legacy-silent` an event stream that never announces an endpoint
 * - anything else 404
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import {
  callTool,
  json,
  MCP_TOOLS,
  readBody,
  result,
  rpcMethod,
  sseHeaders,
  sseMessage,
  TOOL,
} from './mcp-misbehaving-tools';
import type { Rpc } from './mcp-misbehaving-tools';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON-RPC method of a POST, if any. */
  rpc: string | null;
}

export interface MisbehavingServerOptions {
  /** Where `/redirect` and `/legacy-evil` point (another origin). */
  redirectTo?: string;
  toolCount?: number;
  pageSize?: number;
}

export interface MisbehavingServer {
  origin: string;
  url(path: string): string;
  requests: RecordedRequest[];
  /** Open GET event streams. */
  eventStreams: Set<ServerResponse>;
  /** When true, GET event streams are answered 500 (the server "went away"). */
  refuseEventStreams: boolean;
  pushToolsChanged(): void;
  /** Ends every open GET event stream. */
  dropEventStreams(): void;
  expireSessions(): void;
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the server on a random loopback port. */
export async function startMisbehavingServer(
  options: MisbehavingServerOptions = {},
): Promise<MisbehavingServer> {
  const timers = new Set<NodeJS.Timeout>();
  let listCalls = 0;
  let expired = false;
  const every = (ms: number, action: () => void) => {
    const timer = setInterval(action, ms);
    timers.add(timer);
    return () => {
      clearInterval(timer);
      timers.delete(timer);
    };
  };

  function listTools(path: string, rpc: Rpc, response: ServerResponse): void {
    listCalls += 1;
    if (path === '/changing') {
      return json(response, 200, result(rpc.id, { tools: [TOOL('echo', `version ${listCalls}`)] }));
    }
    if (path !== '/many')
      return json(response, 200, result(rpc.id, { tools: MCP_TOOLS.map((name) => TOOL(name)) }));
    const total = options.toolCount ?? 10_000;
    const size = options.pageSize ?? 500;
    const start = Number(rpc.params?.['cursor'] ?? 0);
    const tools = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, index) =>
      TOOL(`tool_${start + index}`, 'y'.repeat(200)),
    );
    const next = start + size < total ? { nextCursor: String(start + size) } : {};
    return json(response, 200, result(rpc.id, { tools, ...next }));
  }

  function handleRpc(
    path: string,
    rpc: Rpc,
    request: IncomingMessage,
    response: ServerResponse,
  ): void {
    if (rpc.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const session: Record<string, string> =
      path === '/expiring' ? { 'mcp-session-id': 'session-1' } : {};
    if (path === '/expiring' && expired && request.headers['mcp-session-id'] !== undefined) {
      return json(response, 404, { error: 'unknown session' });
    }
    switch (rpc.method) {
      case 'initialize':
        if (path === '/rpc-error') {
          return json(response, 200, {
            jsonrpc: '2.0',
            id: rpc.id,
            error: { code: -32603, message: 'we are closed\nfor maintenance' },
          });
        }
        return json(
          response,
          200,
          result(rpc.id, {
            protocolVersion: rpc.params?.['protocolVersion'],
            capabilities: { tools: { listChanged: true } },
            serverInfo: { name: 'misbehaving', version: '0.0.1' },
          }),
          session,
        );
      case 'tools/list':
        return listTools(path, rpc, response);
      case 'tools/call':
        return callTool(rpc, response, every);
      case 'ping':
        return json(response, 200, result(rpc.id, {}));
      default:
        return json(response, 200, {
          jsonrpc: '2.0',
          id: rpc.id,
          error: { code: -32601, message: 'Method not found' },
        });
    }
  }

  function openEventStream(path: string, response: ServerResponse): void {
    if (server_.refuseEventStreams) return json(response, 500, { error: 'gone' });
    sseHeaders(response);
    if (path.startsWith('/legacy') && path !== '/legacy-silent') {
      const endpoint =
        path === '/legacy-evil' ? `${options.redirectTo ?? ''}/message` : '/legacy-message';
      response.write(`event: endpoint\ndata: ${endpoint}\n\n`);
    }
    server_.eventStreams.add(response);
    response.on('close', () => server_.eventStreams.delete(response));
  }

  function route(request: IncomingMessage, response: ServerResponse, body: string): void {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const method = request.method ?? 'GET';
    if (path === '/redirect')
      return void response.writeHead(302, { location: `${options.redirectTo ?? ''}/mcp` }).end();
    if (path === '/redirect-same') return void response.writeHead(307, { location: '/mcp' }).end();
    if (path === '/401' || path === '/403')
      return json(response, Number(path.slice(1)), { error: 'no' });
    if (path.startsWith('/legacy')) {
      if (method === 'GET') return openEventStream(path, response);
      return void response.writeHead(path === '/legacy-404' ? 404 : 405).end();
    }
    if (path === '/html')
      return void response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><html><body>Welcome</body></html>');
    if (path === '/not-jsonrpc') return json(response, 200, { hello: 'world' });
    if (path === '/bad-json')
      return void response.writeHead(200, { 'content-type': 'application/json' }).end('{not json');
    if (path === '/sse-garbage') {
      sseHeaders(response);
      response.write('event: message\ndata: <html>not json</html>\n\n');
      return;
    }
    if (!['/mcp', '/changing', '/many', '/expiring', '/rpc-error'].includes(path))
      return json(response, 404, { error: 'not found' });
    if (method === 'GET') return openEventStream(path, response);
    if (method === 'DELETE') return void response.writeHead(200).end();
    let rpc: Rpc;
    try {
      rpc = JSON.parse(body) as Rpc;
    } catch {
      return json(response, 400, { error: 'bad json' });
    }
    handleRpc(path, rpc, request, response);
  }

  const http = createServer((request, response) => {
    void readBody(request).then((body) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      server_.requests.push({
        method: request.method ?? '',
        path,
        headers: request.headers,
        rpc: rpcMethod(body),
      });
      route(request, response, body);
    });
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const origin = `http://127.0.0.1:${address.port}`;

  const server_: MisbehavingServer = {
    origin,
    url: (path) => `${origin}${path}`,
    requests: [],
    eventStreams: new Set(),
    refuseEventStreams: false,
    pushToolsChanged() {
      for (const stream of server_.eventStreams) {
        sseMessage(stream, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      }
    },
    dropEventStreams() {
      for (const stream of server_.eventStreams) stream.end();
    },
    expireSessions() {
      expired = true;
    },
    async waitFor(predicate, timeoutMs = 5000) {
      const start = Date.now();
      while (!predicate()) {
        if (Date.now() - start > timeoutMs) throw new Error('waitFor: timed out');
        await new Promise((done) => setTimeout(done, 20));
      }
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };
  return server_;
}
