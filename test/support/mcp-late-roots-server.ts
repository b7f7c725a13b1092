/**
 * A real MCP server (the SDK's McpServer over stdio) that behaves like server-filesystem with
 * roots: it asks the client for `roots/list` only after the handshake, and a little later than at
 * once (server-filesystem checks each directory on disk first), then serves from those folders.
 * Its one tool, `allowed-folders`, answers with the folders it has at the time of the call — an
 * empty list when the call came before the roots did, which is the race the client must avoid.
 * Run: `tsx test/support/mcp-late-roots-server.ts` (the delay in ms from LATE_ROOTS_DELAY_MS).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const delayMs = Number(process.env['LATE_ROOTS_DELAY_MS'] ?? '150');
let folders: string[] = [];

const server = new McpServer({ name: 'late-roots', version: '1.0.0' });
server.registerTool(
  'allowed-folders',
  { description: 'The folders this server may read, as the client shared them.' },
  () => ({ content: [{ type: 'text', text: JSON.stringify(folders) }] }),
);
server.server.oninitialized = () => {
  setTimeout(() => {
    server.server
      .listRoots()
      .then((result) => {
        folders = result.roots.map((root) => root.uri);
      })
      .catch((error: unknown) => process.stderr.write(`roots/list failed: ${String(error)}\n`));
  }, delayMs);
};

await server.connect(new StdioServerTransport());
