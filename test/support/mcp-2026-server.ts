/**
 * A real MCP server of the 2026-07-28 protocol revision: the official SDK v2
 * (`@modelcontextprotocol/server` 2.4.0, `createMcpHandler`) on node:http, 127.0.0.1 only, with one
 * tool (`echo`). Two endpoints:
 *
 * - `/mcp` serves both eras (the SDK's default: 2026-07-28 requests, and 2025-era requests
 *   statelessly), so a client of an earlier revision works against it;
 * - `/modern-only` refuses every 2025-era request (`legacy: 'reject'`), as a server that speaks
 *   only the new revision does;
 * - `/header-required` the same server behind a check some 2026-07-28 servers make first (the
 *   conformance suite's among them): a request without `MCP-Protocol-Version` is refused with
 *   JSON-RPC -32020, which names no revision;
 * - `/future-only` a server of a revision no client speaks yet (`2099-01-01`): every request is
 *   refused with HTTP 400 and JSON-RPC -32022 naming that revision.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';

export interface Mcp2026Server {
  origin: string;
  close(): Promise<void>;
}

function buildServer(): McpServer {
  const server = new McpServer({ name: 'revision-2026-server', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method ?? 'GET',
    headers,
    ...(body !== undefined && req.method !== 'GET' && req.method !== 'HEAD' ? { body } : {}),
  });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  if (response.body === null) {
    res.end();
    return;
  }
  for await (const chunk of response.body) res.write(chunk);
  res.end();
}

function forward(
  handler: McpHttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
): void {
  toRequest(req, origin)
    .then((request) => handler.fetch(request))
    .then((response) => send(res, response))
    .catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
}

export async function startMcp2026Server(): Promise<Mcp2026Server> {
  const dual = createMcpHandler(() => buildServer());
  const modernOnly = createMcpHandler(() => buildServer(), { legacy: 'reject' });
  let origin = '';
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const handler = path === '/mcp' ? dual : path === '/modern-only' ? modernOnly : null;
    if (path === '/future-only') {
      req.resume();
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32022,
            message: 'Unsupported protocol version',
            data: { supported: ['2099-01-01'], requested: req.headers['mcp-protocol-version'] },
          },
        }),
      );
      return;
    }
    if (path === '/header-required' && req.headers['mcp-protocol-version'] === undefined) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32020, message: 'Missing MCP-Protocol-Version header' },
        }),
      );
      return;
    }
    if (path === '/header-required') {
      forward(modernOnly, req, res, origin);
      return;
    }
    if (handler === null) {
      res.writeHead(404).end();
      return;
    }
    forward(handler, req, res, origin);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    close: async () => {
      await Promise.all([dual.close(), modernOnly.close()]);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
