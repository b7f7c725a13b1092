/**
 * The wire helpers and tool behaviours of the misbehaving MCP test server
 * (mcp-misbehaving-server.ts): JSON and event-stream answers, and what each tool does wrong.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Runs `action` every `ms` until the returned stop function is called. */
export type Every = (ms: number, action: () => void) => () => void;

export type Rpc = { id?: string | number; method?: string; params?: Record<string, unknown> };
export type Args = Record<string, unknown>;

export const TOOL = (name: string, description = `the ${name} tool`) => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

export const MCP_TOOLS = [
  'echo',
  'hang',
  'destroy',
  'destroy-sse',
  'end-sse',
  'huge',
  'progress',
  'progress-forever',
  'images',
];

export function sseHeaders(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
}

export function sseMessage(response: ServerResponse, message: unknown): void {
  response.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...extra });
  response.end(JSON.stringify(body));
}

export function result(id: Rpc['id'], value: unknown) {
  return { jsonrpc: '2.0', id, result: value };
}

export function rpcMethod(body: string): string | null {
  try {
    return (JSON.parse(body) as Rpc).method ?? null;
  } catch {
    return null;
  }
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Answers tools/call on the misbehaving server's `/mcp`-like paths. */
export function callTool(rpc: Rpc, response: ServerResponse, every: Every): void {
  const name = String(rpc.params?.['name'] ?? '');
  const args = (rpc.params?.['arguments'] ?? {}) as Args;
  const token = (rpc.params?.['_meta'] as Args | undefined)?.['progressToken'];
  const text = (value: string) => result(rpc.id, { content: [{ type: 'text', text: value }] });
  switch (name) {
    case 'echo':
      return json(response, 200, text(`echo: ${String(args['message'] ?? '')}`));
    case 'hang':
      return; // never answers; the socket stays open
    case 'destroy':
      response.socket?.destroy();
      return;
    case 'destroy-sse':
    case 'end-sse': {
      sseHeaders(response);
      const progress = {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1 },
      };
      sseMessage(response, progress);
      // destroy-sse cuts the socket; end-sse ends the answer politely, without a result.
      setTimeout(() => (name === 'end-sse' ? response.end() : response.socket?.destroy()), 100);
      return;
    }
    case 'huge': {
      const body = text('x'.repeat(Number(args['chars'] ?? 1000)));
      if (args['sse'] !== true) return json(response, 200, body);
      sseHeaders(response);
      sseMessage(response, body);
      response.end();
      return;
    }
    case 'images': {
      const data = Buffer.alloc(Number(args['bytes'] ?? 10), 7).toString('base64');
      const count = Number(args['count'] ?? 1);
      const content = Array.from({ length: count }, () => ({
        type: 'image',
        data,
        mimeType: 'image/png',
      }));
      return json(response, 200, result(rpc.id, { content }));
    }
    case 'progress':
    case 'progress-forever': {
      sseHeaders(response);
      let step = 0;
      const steps = name === 'progress' ? Number(args['steps'] ?? 5) : Infinity;
      const stop = every(Number(args['intervalMs'] ?? 200), () => {
        step += 1;
        if (step > steps) {
          stop();
          sseMessage(response, text(`done after ${steps} steps`));
          response.end();
          return;
        }
        const params = { progressToken: token, progress: step, message: `step ${step}` };
        sseMessage(response, { jsonrpc: '2.0', method: 'notifications/progress', params });
      });
      response.on('close', stop);
      return;
    }
    default:
      return json(response, 200, {
        jsonrpc: '2.0',
        id: rpc.id,
        error: { code: -32602, message: `Unknown tool: ${name}` },
      });
  }
}
