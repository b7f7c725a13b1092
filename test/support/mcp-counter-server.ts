/**
 * A real stateful MCP server (the SDK's McpServer over Streamable HTTP with session ids, on
 * 127.0.0.1) that follows the spec where server-everything does not: an unknown session id gets
 * HTTP 404, and there is no GET event stream (405), so a client learns that the server restarted
 * only from its next request — the case a reconnect-once must handle. Its one tool, `count`,
 * answers how many times it was called in this session (state that a new session starts over,
 * like sequential-thinking's thought history). `spawnCounterServer` runs it in a child process,
 * so stopping it is a crash as the client sees it (SIGKILL: the kernel ends its connections).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface CounterServer {
  url: string;
  port: number;
  /** The session ids this server process created, in order. */
  sessionIds: string[];
  /** Requests that carried a session id it does not know (answered 404). */
  unknownSessions: () => number;
  /** Stops listening and drops every connection and session. */
  close(): Promise<void>;
}

/** What the server tells its host: a new session, or a request for an unknown one. */
export type CounterEvent = { session: string } | { unknown: true };

function counterServer(): McpServer {
  const server = new McpServer({ name: 'counter', version: '1.0.0' });
  let count = 0;
  server.registerTool(
    'count',
    { description: 'How many times this tool was called in this session.' },
    () => {
      count += 1;
      return { content: [{ type: 'text', text: `call ${count} in this session` }] };
    },
  );
  return server;
}

/** Starts the server on `port` (a restart where the client knows it) or a random one. */
export async function startCounterServer(
  port = 0,
  onEvent: (event: CounterEvent) => void = () => undefined,
): Promise<CounterServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const sessionIds: string[] = [];
  let unknown = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const sessionId = request.headers['mcp-session-id'];
    if (request.method === 'GET') {
      response.writeHead(405, { allow: 'POST, DELETE' }).end();
      return;
    }
    if (typeof sessionId === 'string') {
      const known = sessions.get(sessionId);
      if (known === undefined) {
        unknown += 1;
        onEvent({ unknown: true });
        response.writeHead(404, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32001, message: 'Session not found' },
            id: null,
          }),
        );
        return;
      }
      await known.handleRequest(request, response);
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        sessionIds.push(id);
        onEvent({ session: id });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await counterServer().connect(transport);
    await transport.handleRequest(request, response);
  }

  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((done, fail) => {
    http.once('error', fail);
    http.listen(port, '127.0.0.1', done);
  });
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    port: address.port,
    sessionIds,
    unknownSessions: () => unknown,
    close: () =>
      new Promise<void>((done) => {
        http.closeAllConnections();
        http.close(() => done());
      }),
  };
}

const CHILD = new URL('./mcp-counter-child.ts', import.meta.url).pathname;

/** The server in a child process on `port` (or a free one); `close` kills it (SIGKILL). */
export async function spawnCounterServer(port = 0): Promise<CounterServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const sessionIds: string[] = [];
  let unknown = 0;
  let buffered = '';
  const listening = new Promise<number>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const event = JSON.parse(line) as CounterEvent | { listening: number };
        if ('listening' in event) resolve(event.listening);
        else if ('session' in event) sessionIds.push(event.session);
        else unknown += 1;
      }
    });
    void exited.then(() => reject(new Error('the counter server exited before listening')));
  });
  const actual = await listening;
  return {
    url: `http://127.0.0.1:${actual}/mcp`,
    port: actual,
    sessionIds,
    unknownSessions: () => unknown,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
