/**
 * Protocol revisions against a real server of the 2026-07-28 revision (the official SDK v2,
 * test/support/mcp-2026-server.ts, on 127.0.0.1): a server that also speaks the earlier revisions
 * works over the 2025 handshake; one that speaks only the new one works at 2026-07-28, whether it
 * refuses the 2025 handshake naming its revisions or without naming them; one of a revision
 * Aivory does not know is named as such — not as "not an MCP server".
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import { McpError } from '../../src/main/core/ports';
import type { McpSession } from '../../src/main/core/ports';
import { startMcp2026Server } from '../support/mcp-2026-server';
import type { Mcp2026Server } from '../support/mcp-2026-server';

const never = new AbortController().signal;
let server: Mcp2026Server;
const sessions: McpSession[] = [];

beforeAll(async () => {
  server = await startMcp2026Server();
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

afterAll(async () => {
  await server?.close();
});

function connect(path: string): Promise<McpSession> {
  return createMcpConnector().connect(
    { transport: 'streamable-http', url: `${server.origin}${path}`, headers: {} },
    { signal: never, timeoutMs: 10_000 },
  );
}

async function connectFailure(path: string): Promise<McpError> {
  try {
    sessions.push(await connect(path));
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }
  throw new Error('expected the connection to fail');
}

describe('MCP protocol revision 2026-07-28', () => {
  it('works with a 2026-07-28 server that also serves the earlier revisions', async () => {
    const session = await connect('/mcp');
    sessions.push(session);
    const tools = await session.listTools(never);
    expect(tools.map((tool) => tool.name)).toEqual(['echo']);
    const result = await session.callTool(
      'echo',
      { text: 'hello' },
      { signal: never, timeoutMs: 10_000, maxTotalTimeoutMs: 60_000, maxOutputChars: 10_000 },
    );
    expect(result.text).toBe('hello');
  });

  async function listsAndCalls(session: McpSession): Promise<void> {
    const tools = await session.listTools(never);
    expect(tools.map((tool) => tool.name)).toEqual(['echo']);
    const result = await session.callTool(
      'echo',
      { text: 'hello 2026' },
      { signal: never, timeoutMs: 10_000, maxTotalTimeoutMs: 60_000, maxOutputChars: 10_000 },
    );
    expect(result.text).toBe('hello 2026');
  }

  it('speaks 2026-07-28 with a server that refuses the 2025 handshake naming its revisions', async () => {
    const session = await connect('/modern-only');
    sessions.push(session);
    expect(session.serverName).toBe('revision-2026-server');
    await listsAndCalls(session);
  });

  it('speaks 2026-07-28 with a server that refuses the 2025 handshake without naming them', async () => {
    const session = await connect('/header-required');
    sessions.push(session);
    await listsAndCalls(session);
  });

  it('names the revision of a server that speaks only one Aivory does not know', async () => {
    const error = await connectFailure('/future-only');
    expect(error.kind).toBe('protocol');
    expect(error.message).toBe(
      `${server.origin} speaks protocol 2099-01-01, which this version of Aivory does not support (it speaks MCP 2024-10-07 to 2026-07-28); update Aivory, or use an endpoint of the server that speaks an earlier revision`,
    );
    expect(error.message).not.toMatch(/not as an MCP server/);
  });
});
