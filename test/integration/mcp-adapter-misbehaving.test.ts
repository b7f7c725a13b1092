/**
 * The MCP adapter against servers that misbehave on purpose (test/support/mcp-misbehaving-
 * server.ts): hangs, mid-call disconnects, broken answers, huge lists and outputs, redirects,
 * auth statuses, the wrong transport. Everything stays on 127.0.0.1.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import type { McpConnectorOptions } from '../../src/main/adapters/mcp/mcp-connector';
import { McpError } from '../../src/main/core/ports';
import type { McpCallOptions, McpEndpoint, McpSession } from '../../src/main/core/ports';
import { startMisbehavingServer } from '../support/mcp-misbehaving-server';
import type { MisbehavingServer } from '../support/mcp-misbehaving-server';

const SECRET_VALUE = 'Bearer very-secret-token-42';
const never = new AbortController().signal;
let server: MisbehavingServer;
let other: MisbehavingServer;
const sessions: McpSession[] = [];

beforeAll(async () => {
  other = await startMisbehavingServer();
  server = await startMisbehavingServer({ redirectTo: other.origin });
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

afterAll(async () => {
  await server?.close();
  await other?.close();
});

function endpoint(
  path: string,
  transport: 'streamable-http' | 'sse' = 'streamable-http',
): McpEndpoint {
  return { transport, url: server.url(path), headers: { Authorization: SECRET_VALUE } };
}

async function open(path: string, options?: McpConnectorOptions): Promise<McpSession> {
  const session = await createMcpConnector(options).connect(endpoint(path), {
    signal: never,
    timeoutMs: 5000,
  });
  sessions.push(session);
  return session;
}

function call(overrides: Partial<McpCallOptions> = {}): McpCallOptions {
  return {
    signal: never,
    timeoutMs: 10_000,
    maxTotalTimeoutMs: 60_000,
    maxOutputChars: 10_000,
    ...overrides,
  };
}

/** The McpError a promise rejects with; its message must be one line without the secret. */
async function failure(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    const message = (error as McpError).message;
    expect(message).not.toContain('very-secret-token');
    expect(message).not.toContain('\n');
    return error as McpError;
  }
  throw new Error('expected a failure');
}

async function connectFailure(
  path: string,
  transport?: 'streamable-http' | 'sse',
): Promise<McpError> {
  return failure(
    createMcpConnector().connect(endpoint(path, transport), { signal: never, timeoutMs: 5000 }),
  );
}

describe('hangs and disconnects', () => {
  it('times out a hanging call after timeoutMs, not later', async () => {
    const session = await open('/mcp');
    const started = Date.now();
    const error = await failure(session.callTool('hang', {}, call({ timeoutMs: 800 })));
    const elapsed = Date.now() - started;
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('MCP tool "hang" timed out after 0.8 s');
    expect(elapsed).toBeGreaterThanOrEqual(750);
    expect(elapsed).toBeLessThan(2500);
  });

  it('stops a call that keeps sending progress at maxTotalTimeoutMs', async () => {
    const session = await open('/mcp');
    const progress: string[] = [];
    const started = Date.now();
    const error = await failure(
      session.callTool(
        'progress-forever',
        { intervalMs: 150 },
        call({
          timeoutMs: 500,
          maxTotalTimeoutMs: 1500,
          onProgress: (p) => progress.push(p.message ?? ''),
        }),
      ),
    );
    const elapsed = Date.now() - started;
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('1.5 s');
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(3000);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress[0]).toBe('step 1');
  });

  it('lets progress carry a call past its timeout', async () => {
    const session = await open('/mcp');
    const result = await session.callTool(
      'progress',
      { steps: 8, intervalMs: 200 },
      call({ timeoutMs: 600 }),
    );
    expect(result.text).toBe('done after 8 steps');
  });

  it('reports a socket destroyed before the answer as disconnected, at once', async () => {
    const session = await open('/mcp');
    const started = Date.now();
    const error = await failure(session.callTool('destroy', {}, call({ timeoutMs: 20_000 })));
    expect(error.kind).toBe('disconnected');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reports an event stream cut in the middle of an answer as disconnected, at once', async () => {
    const session = await open('/mcp');
    const started = Date.now();
    const error = await failure(session.callTool('destroy-sse', {}, call({ timeoutMs: 20_000 })));
    expect(error.kind).toBe('disconnected');
    expect(Date.now() - started).toBeLessThan(2000);
    // Only that request failed: the session still works.
    expect((await session.callTool('echo', { message: 'ok' }, call())).text).toBe('echo: ok');
  });

  it('fails a call whose event stream ends without a result, at once', async () => {
    const session = await open('/mcp');
    const started = Date.now();
    const error = await failure(session.callTool('end-sse', {}, call({ timeoutMs: 20_000 })));
    expect(error.kind).toBe('disconnected');
    expect(error.message).toContain('without a result');
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await session.callTool('echo', { message: 'ok' }, call())).text).toBe('echo: ok');
  });

  it('cancels a hanging call through its signal', async () => {
    const session = await open('/mcp');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const error = await failure(session.callTool('hang', {}, call({ signal: controller.signal })));
    expect(error.kind).toBe('canceled');
    await server.waitFor(() =>
      server.requests.some((request) => request.rpc === 'notifications/cancelled'),
    );
  });

  it('times out and cancels a connect attempt that never completes', async () => {
    // A legacy SSE stream that never announces its message endpoint.
    const silent: McpEndpoint = {
      transport: 'sse',
      url: server.url('/legacy-silent'),
      headers: {},
    };
    const started = Date.now();
    const timedOut = await failure(
      createMcpConnector().connect(silent, { signal: never, timeoutMs: 700 }),
    );
    expect(timedOut.kind).toBe('timeout');
    expect(timedOut.message).toContain('within 0.7 s');
    expect(Date.now() - started).toBeLessThan(2500);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const canceled = await failure(
      createMcpConnector().connect(silent, { signal: controller.signal, timeoutMs: 10_000 }),
    );
    expect(canceled.kind).toBe('canceled');
  });
});

describe('answers that are not MCP', () => {
  it('turns a JSON-RPC error for a tool call into an error result the model can read', async () => {
    const session = await open('/mcp');
    const result = await session.callTool('nope', {}, call());
    expect(result).toEqual({
      isError: true,
      text: 'The MCP server returned an error: Unknown tool: nope',
      images: [],
      truncated: false,
    });
  });

  it('names an HTML page as not-mcp', async () => {
    const error = await connectFailure('/html');
    expect(error.kind).toBe('not-mcp');
    expect(error.message).toContain('text/html');
  });

  it.each(['/not-jsonrpc', '/bad-json', '/sse-garbage'])('names %s as not-mcp', async (path) => {
    const started = Date.now();
    const error = await connectFailure(path);
    expect(error.kind).toBe('not-mcp');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports a JSON-RPC error to initialize as protocol, on one line', async () => {
    const error = await connectFailure('/rpc-error');
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('we are closed for maintenance');
  });

  it.each([
    ['/401', 'unauthorized'],
    ['/403', 'forbidden'],
    ['/nowhere', 'not-found'],
  ])('maps %s to %s', async (path, kind) => {
    const error = await connectFailure(path);
    expect(error.kind).toBe(kind);
  });

  it('names a legacy SSE server behind a Streamable HTTP URL wrong-transport (405 or 404)', async () => {
    for (const path of ['/legacy', '/legacy-404']) {
      const error = await connectFailure(path);
      expect(error.kind).toBe('wrong-transport');
      expect(error.message).toContain('SSE transport');
    }
  });
});

describe('redirects and other origins', () => {
  it('refuses a redirect to another origin, which never hears from us', async () => {
    const before = other.requests.length;
    const error = await connectFailure('/redirect');
    expect(error.kind).toBe('redirect');
    expect(error.message).toContain(other.origin);
    expect(other.requests.length).toBe(before);
    const seen = server.requests.filter((request) => request.path === '/redirect');
    expect(seen.at(-1)?.headers['authorization']).toBe(SECRET_VALUE);
  });

  it('refuses even a same-origin redirect', async () => {
    const error = await connectFailure('/redirect-same');
    expect(error.kind).toBe('redirect');
  });

  it('refuses an SSE message endpoint on another origin', async () => {
    const before = other.requests.length;
    const error = await connectFailure('/legacy-evil', 'sse');
    expect(error.kind).toBe('redirect');
    expect(other.requests.length).toBe(before);
  });
});

describe('sizes', () => {
  it('refuses 10,000 tools with a clear too-large error after a few pages', async () => {
    const session = await open('/many');
    const before = server.requests.filter((request) => request.rpc === 'tools/list').length;
    const started = Date.now();
    const error = await failure(session.listTools(never));
    expect(error.kind).toBe('too-large');
    expect(error.message).toContain('more than 1000 tools');
    const pages = server.requests.filter((request) => request.rpc === 'tools/list').length - before;
    expect(pages).toBe(3);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('lists all 10,000 over 20 pages when the cap allows it', async () => {
    const session = await open('/many', { maxTools: 20_000 });
    const tools = await session.listTools(never);
    expect(tools).toHaveLength(10_000);
    expect(tools.at(-1)?.name).toBe('tool_9999');
  });

  it.each([false, true])(
    'caps a 20 MB text output with a marker (event stream: %s)',
    async (sse) => {
      const session = await open('/mcp');
      const result = await session.callTool(
        'huge',
        { chars: 20_000_000, sse },
        call({ maxOutputChars: 5000 }),
      );
      expect(result.truncated).toBe(true);
      expect(result.text.startsWith('x'.repeat(5000))).toBe(true);
      expect(result.text).toContain('19,995,000 of 20,000,000 characters cut');
      expect(result.text.length).toBeLessThan(5200);
    },
  );

  it.each([false, true])('refuses a message over the byte cap (event stream: %s)', async (sse) => {
    const session = await open('/mcp', { maxMessageBytes: 1024 * 1024 });
    const started = Date.now();
    const error = await failure(session.callTool('huge', { chars: 3_000_000, sse }, call()));
    expect(error.kind).toBe('too-large');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('keeps at most 4 images of at most 5 MiB, noting the others', async () => {
    const session = await open('/mcp');
    const result = await session.callTool('images', { count: 6, bytes: 1000 }, call());
    expect(result.images).toHaveLength(4);
    expect(result.images[0]?.data).toEqual(new Uint8Array(1000).fill(7));
    expect(result.text.match(/not shown: at most 4 images/g)).toHaveLength(2);
    const big = await session.callTool('images', { count: 1, bytes: 6 * 1024 * 1024 }, call());
    expect(big.images).toHaveLength(0);
    expect(big.text).toBe('[image: image/png, 6 MiB — not shown: over 5 MiB]');
  });
});

describe('tool list changes and the end of a session', () => {
  it('returns what the server says on each listTools (the service layer diffs)', async () => {
    const session = await open('/changing');
    const first = await session.listTools(never);
    const second = await session.listTools(never);
    expect(first[0]?.description).not.toBe(second[0]?.description);
    expect(second[0]?.description).toMatch(/^version \d+$/);
  });

  it('passes tools/list_changed from the server event stream to the listeners', async () => {
    const session = await open('/changing');
    let changes = 0;
    session.onToolsChanged(() => (changes += 1));
    await server.waitFor(() => server.eventStreams.size > 0);
    server.pushToolsChanged();
    await expect.poll(() => changes).toBe(1);
  });

  it('fires onClose once when the event stream cannot be reopened, not on close()', async () => {
    const session = await open('/changing');
    const reasons: string[] = [];
    session.onClose((reason) => reasons.push(reason));
    await server.waitFor(() => server.eventStreams.size > 0);
    server.refuseEventStreams = true;
    try {
      server.dropEventStreams();
      await expect.poll(() => reasons.length, { timeout: 10_000 }).toBe(1);
    } finally {
      server.refuseEventStreams = false;
    }
    expect(reasons[0]).toContain('could not be reopened');
    const error = await failure(session.callTool('echo', {}, call()));
    expect(error.kind).toBe('disconnected');
    const quiet = await open('/mcp');
    const none: string[] = [];
    quiet.onClose((reason) => none.push(reason));
    await quiet.close();
    await quiet.close();
    expect(none).toEqual([]);
  }, 20_000);

  it('treats a 404 for a known session as the end of the session', async () => {
    const session = await open('/expiring');
    const reasons: string[] = [];
    session.onClose((reason) => reasons.push(reason));
    server.expireSessions();
    const error = await failure(session.callTool('echo', {}, call()));
    expect(error.kind).toBe('disconnected');
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toContain('ended the MCP session');
  });
});
