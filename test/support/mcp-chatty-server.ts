/**
 * A real MCP server (the 1.x SDK's low-level `Server` over stdio) that announces changes as fast
 * as it can: its tool `burst` sends `count` notifications each of tools/list_changed,
 * prompts/list_changed and resources/list_changed, then answers; `lists` answers how many times
 * it was asked tools/list. Its tool list carries `AIVORY_CHATTY_PADDING` bytes of description
 * (default none), so each listing costs what a big server's does. Run it with
 * `node --import tsx test/support/mcp-chatty-server.ts`.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

export const CHATTY_SCRIPT = new URL('./mcp-chatty-server.ts', import.meta.url).pathname;

const padding = 'x'.repeat(Number(process.env['AIVORY_CHATTY_PADDING'] ?? '0'));
let lists = 0;

async function main(): Promise<void> {
  const server = new Server(
    { name: 'chatty', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true },
      },
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => {
    lists += 1;
    return {
      tools: [
        {
          name: 'burst',
          description: `Announces changes count times.${padding}`,
          inputSchema: { type: 'object', properties: { count: { type: 'number' } } },
        },
        {
          name: 'lists',
          description: 'How many times tools/list was asked.',
          inputSchema: { type: 'object', properties: {} },
        },
      ],
    };
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [] }));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name === 'lists')
      return { content: [{ type: 'text', text: String(lists) }] };
    const count = Number(request.params.arguments?.['count'] ?? 1);
    for (let index = 0; index < count; index += 1) {
      await server.sendToolListChanged();
      await server.sendPromptListChanged();
      await server.sendResourceListChanged();
    }
    return { content: [{ type: 'text', text: `sent ${count}` }] };
  });
  await server.connect(new StdioServerTransport());
}

if (process.argv[1] === CHATTY_SCRIPT) void main();
