/**
 * A tiny MCP server over stdio (newline-delimited JSON-RPC, no SDK) for the adapter's stdio
 * tests. Run it with `node --import tsx test/support/mcp-stdio-child.ts`. It writes its pid and
 * a few lines (one split across writes) to stderr, and its tools misbehave on demand:
 * echo, crash (exits mid-call), env (reports two variables), notify (sends
 * tools/list_changed, then answers), notify-library (prompts/ and resources/list_changed), hang
 * (never answers). With AIVORY_CHILD_LINGER=1 it keeps
 * running after its stdin closes, so only a signal ends it.
 */
import { createInterface } from 'node:readline';

type Rpc = { id?: string | number; method?: string; params?: Record<string, unknown> };

function send(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function answer(id: Rpc['id'], result: unknown): void {
  send({ jsonrpc: '2.0', id, result });
}

function text(id: Rpc['id'], value: string): void {
  answer(id, { content: [{ type: 'text', text: value }] });
}

// With AIVORY_CHILD_LINGER=1 the child outlives its stdin, as some real servers do.
if (process.env['AIVORY_CHILD_LINGER'] === '1') setInterval(() => undefined, 1000);

process.stderr.write(`pid=${process.pid}\nstarting the test server\npartial `);
setTimeout(() => process.stderr.write('line finished\n'), 20);

function callTool(rpc: Rpc): void {
  const name = String(rpc.params?.['name'] ?? '');
  const args = (rpc.params?.['arguments'] ?? {}) as Record<string, unknown>;
  switch (name) {
    case 'echo':
      return text(rpc.id, `echo: ${String(args['message'] ?? '')}`);
    case 'crash':
      process.stderr.write('crashing on purpose\n');
      return process.exit(1);
    case 'env':
      return text(
        rpc.id,
        JSON.stringify({
          endpoint: process.env['AIVORY_ENDPOINT_VAR'] ?? null,
          base: process.env['AIVORY_BASE_VAR'] ?? null,
          secret: process.env['AIVORY_API_KEY'] ?? null,
          lang: process.env['LANG'] ?? null,
        }),
      );
    case 'notify':
      send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      return text(rpc.id, 'notified');
    case 'notify-library':
      send({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' });
      send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
      return text(rpc.id, 'notified');
    case 'hang':
      return;
    default:
      send({
        jsonrpc: '2.0',
        id: rpc.id,
        error: { code: -32602, message: `Unknown tool: ${name}` },
      });
  }
}

function handle(rpc: Rpc): void {
  if (rpc.id === undefined) return;
  switch (rpc.method) {
    case 'initialize':
      return answer(rpc.id, {
        protocolVersion: rpc.params?.['protocolVersion'],
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: 'stdio-child', version: '1.2.3' },
      });
    case 'tools/list':
      return answer(rpc.id, {
        tools: ['echo', 'crash', 'env', 'notify', 'hang'].map((name) => ({
          name,
          inputSchema: { type: 'object' },
        })),
      });
    case 'tools/call':
      return callTool(rpc);
    default:
      send({ jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'Method not found' } });
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === '') return;
  handle(JSON.parse(line) as Rpc);
});
