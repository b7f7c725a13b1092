/**
 * The reconnect race seen once under load in host/mcp-shared-sessions.test.ts ("closed the
 * connection during MCP tool echo"), made to happen every time: the server restarts (a new
 * process on the same port, every session forgotten), and the client's event stream, reopening
 * with the old session id, hears "unknown session" just before a tool call sent with that id
 * hears the same. The stream's answer used to close the connection at once, failing the call
 * in flight as "closed during the call" although the server had refused it (nothing ran); now
 * the call gets its own answer, is known undelivered, and is sent again on a new session.
 * The server is the SDK's McpServer over stateful Streamable HTTP in this process; "restart"
 * drops every connection (as a crash does) and forgets every session.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { localMcpServices } from '../support/local-mcp-services';

const home = mkdtempSync(join(tmpdir(), 'aivory-mcp-gone-race-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** One "process" of the server: its sessions, and how it answers an unknown session id. */
function serverProcess(order: string[]) {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let heldStream: ServerResponse | null = null;
  let releaseStream: (() => void) | null = null;
  const streamAnswered = new Promise<void>((resolve) => {
    releaseStream = resolve;
  });
  const build = (): McpServer => {
    const server = new McpServer({ name: 'echo', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Echoes.', inputSchema: { message: z.string() } },
      ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }),
    );
    return server;
  };
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const header = request.headers['mcp-session-id'];
    const known = typeof header === 'string' ? sessions.get(header) : undefined;
    if (known !== undefined) {
      await known.handleRequest(request, response);
      return;
    }
    if (typeof header === 'string') {
      if (request.method === 'GET') {
        // The reopened event stream of a session this process never made: held until the
        // call with that session comes, then refused first.
        heldStream = response;
        order.push('stream held');
        return;
      }
      order.push(`${request.method} refused after the stream`);
      if (heldStream !== null) {
        heldStream.writeHead(404).end();
        order.push('stream refused');
        releaseStream?.();
      }
      await streamAnswered;
      // The call's own refusal comes a moment after the stream's.
      await new Promise((resolve) => setTimeout(resolve, 150));
      response.writeHead(404).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        order.push('session');
      },
    });
    await build().connect(transport);
    await transport.handleRequest(request, response);
  };
  return { handle };
}

async function listen(port: number, order: string[]): Promise<Server> {
  const process = serverProcess(order);
  const http = createServer((request, response) => {
    process.handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((done) => http.listen(port, '127.0.0.1', done));
  return http;
}

function crash(http: Server): Promise<void> {
  return new Promise((done) => {
    http.closeAllConnections();
    http.close(() => done());
  });
}

describe('a restarted server refusing the event stream just before a call', () => {
  it('sends the call again on a new session instead of failing it', async () => {
    const order: string[] = [];
    let http = await listen(0, order);
    const address = http.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const { port } = address;
    const mcp = localMcpServices(home);
    try {
      await mcp.add({
        name: 'echo',
        transport: 'streamable-http',
        url: `http://127.0.0.1:${port}/mcp`,
        description: 'Echoes',
      });
      const signal = AbortSignal.timeout(30_000);
      const service = mcp.get('echo');
      const call = (message: string) =>
        mcp.withSession(service, signal, (session) =>
          session.callTool(
            'echo',
            { message },
            { signal, timeoutMs: 20_000, maxTotalTimeoutMs: 20_000, maxOutputChars: 1000 },
          ),
        );
      expect((await call('before')).text).toBe('Echo: before');
      await crash(http);
      http = await listen(port, order);
      // The client reopens its event stream with the old session id (the SDK's backoff).
      await vi.waitFor(() => expect(order).toContain('stream held'), { timeout: 15_000 });
      const after = await call('after');
      expect(after).toMatchObject({ isError: false, text: 'Echo: after' });
      expect(order.filter((step) => step === 'session')).toHaveLength(2);
      expect(order.indexOf('stream refused')).toBeLessThan(order.lastIndexOf('session'));
    } finally {
      await mcp.close();
      await crash(http);
    }
  }, 120_000);
});
