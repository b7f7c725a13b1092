/**
 * The MCP adapter against the real reference server, @modelcontextprotocol/server-everything,
 * started by the test in each of its modes: Streamable HTTP, stdio and legacy SSE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import { McpError } from '../../src/main/core/ports';
import type { McpCallOptions, McpSession } from '../../src/main/core/ports';
import { EVERYTHING_SCRIPT, startEverythingServer } from '../support/mcp-everything-server';
import type { EverythingServer } from '../support/mcp-everything-server';

const SECRET = 'Bearer s3cret-everything-token';
const connector = createMcpConnector();
const never = new AbortController().signal;

function call(overrides: Partial<McpCallOptions> = {}): McpCallOptions {
  return {
    signal: never,
    timeoutMs: 10_000,
    maxTotalTimeoutMs: 60_000,
    maxOutputChars: 10_000,
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).not.toContain('s3cret');
    return error as McpError;
  }
  throw new Error('expected a failure');
}

/** Tests every mode shares: tools, calls, prompts, resources. */
function commonTests(session: () => McpSession) {
  it('lists the tools with schemas and normalised annotations', async () => {
    const tools = await session().listTools(never);
    const names = tools.map((tool) => tool.name);
    for (const name of ['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation']) {
      expect(names).toContain(name);
    }
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo?.description).toBe('Echoes back the input string');
    expect(echo?.inputSchema).toMatchObject({ type: 'object', required: ['message'] });
    expect(echo?.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('calls echo and get-sum', async () => {
    const echo = await session().callTool('echo', { message: 'héllo' }, call());
    expect(echo).toEqual({ isError: false, text: 'Echo: héllo', images: [], truncated: false });
    const sum = await session().callTool('get-sum', { a: 2, b: 40 }, call());
    expect(sum.text).toBe('The sum of 2 and 40 is 42.');
  });

  it('decodes the image of get-tiny-image and notes it in the text', async () => {
    const result = await session().callTool('get-tiny-image', {}, call());
    expect(result.images).toHaveLength(1);
    const image = result.images[0];
    expect(image?.mime).toBe('image/png');
    expect(Array.from(image?.data.slice(0, 4) ?? [])).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(result.text).toMatch(/\[image: image\/png, \d+(\.\d)? KiB\]/);
    expect(result.text).toContain('The image above is the MCP logo.');
  });

  it('reports bad arguments and unknown tools as error results', async () => {
    const bad = await session().callTool('get-sum', { a: 'x' }, call());
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/Invalid arguments|expected number/);
    const unknown = await session().callTool('no-such-tool', {}, call());
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('no-such-tool');
  });

  it('converts embedded resources, resource links and structured content', async () => {
    const reference = await session().callTool(
      'get-resource-reference',
      { resourceType: 'Text', resourceId: 2 },
      call(),
    );
    expect(reference.text).toContain('[resource: demo://resource/dynamic/text/2]');
    expect(reference.text).toContain('Resource 2: This is a plaintext resource');
    const links = await session().callTool('get-resource-links', { count: 2 }, call());
    expect(links.text).toContain('demo://resource/dynamic/text/2 (Text Resource 2)');
    const structured = await session().callTool(
      'get-structured-content',
      { location: 'Chicago' },
      call(),
    );
    expect(JSON.parse(structured.text)).toHaveProperty('temperature');
  });

  it('lets progress notifications extend a short timeout', async () => {
    const progress: number[] = [];
    const started = Date.now();
    const result = await session().callTool(
      'trigger-long-running-operation',
      { duration: 3, steps: 6 },
      call({ timeoutMs: 1500, onProgress: (update) => progress.push(update.progress) }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect(result.text).toContain('Long running operation completed');
    // The last notification may race the answer (the SDK drops progress after the result).
    expect(progress.slice(0, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('times out a call without progress after timeoutMs', async () => {
    const started = Date.now();
    const error = await failure(
      session().callTool(
        'trigger-long-running-operation',
        { duration: 5, steps: 1 },
        call({ timeoutMs: 1000 }),
      ),
    );
    const elapsed = Date.now() - started;
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('MCP tool "trigger-long-running-operation" timed out after 1 s');
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(3000);
  });

  it('cancels an in-flight call when its signal is aborted', async () => {
    // Stopped once the server has reported progress: the call is certainly running there.
    const controller = new AbortController();
    let abortedAt = 0;
    const error = await failure(
      session().callTool(
        'trigger-long-running-operation',
        { duration: 5, steps: 5 },
        call({
          signal: controller.signal,
          onProgress: () => {
            abortedAt = Date.now();
            controller.abort();
          },
        }),
      ),
    );
    expect(error.kind).toBe('canceled');
    expect(abortedAt).toBeGreaterThan(0);
    // Ended at the abort, not when the five-second operation would have finished.
    expect(Date.now() - abortedAt).toBeLessThan(2000);
    // The session is still usable afterwards.
    expect((await session().callTool('echo', { message: 'after' }, call())).text).toBe(
      'Echo: after',
    );
  });

  it('lists prompts and resources, gets a prompt and reads resources', async () => {
    const prompts = await session().listPrompts(never);
    const args = prompts.find((prompt) => prompt.name === 'args-prompt');
    expect(args?.description).toBe('A prompt with two arguments, one required and one optional');
    expect(args?.arguments).toEqual([
      { name: 'city', description: expect.any(String), required: true },
      { name: 'state', description: expect.any(String), required: false },
    ]);
    expect(await session().getPrompt('args-prompt', { city: 'Paris' }, never)).toContain('Paris');
    const resources = await session().listResources(never);
    expect(resources.length).toBeGreaterThan(0);
    expect(resources[0]?.uri).toMatch(/^demo:\/\//);
    const text = await session().readResource('demo://resource/dynamic/text/1', never);
    expect(text).toContain('Resource 1: This is a plaintext resource');
    const blob = await session().readResource('demo://resource/dynamic/blob/1', never);
    expect(blob).toMatch(/^\[binary resource demo:\/\/resource\/dynamic\/blob\/1: [^\]]+ B\]$/);
  });
}

describe('server-everything over Streamable HTTP', () => {
  let server: EverythingServer;
  let session: McpSession;
  const closes: string[] = [];

  beforeAll(async () => {
    server = await startEverythingServer('streamableHttp');
    session = await connector.connect(
      { transport: 'streamable-http', url: server.url, headers: { Authorization: SECRET } },
      { signal: never, timeoutMs: 10_000 },
    );
    session.onClose((reason) => closes.push(reason));
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('connects and reports the server name', () => {
    expect(session.serverName).toBe('mcp-servers/everything');
    expect(session.serverVersion).toBe('2.0.0');
  });

  commonTests(() => session);

  it('refuses the legacy SSE transport for this URL with a hint', async () => {
    const error = await failure(
      connector.connect(
        { transport: 'sse', url: server.url, headers: { Authorization: SECRET } },
        { signal: never, timeoutMs: 10_000 },
      ),
    );
    expect(error.kind).toBe('wrong-transport');
    expect(error.message).toContain('Streamable HTTP');
  });

  it('fires onClose once when the server dies, and fails calls as disconnected', async () => {
    const second = await connector.connect(
      { transport: 'streamable-http', url: server.url, headers: {} },
      { signal: never, timeoutMs: 10_000 },
    );
    const reasons: string[] = [];
    second.onClose((reason) => reasons.push(reason));
    // The server's first progress report: the call is running there when it dies.
    let running!: () => void;
    const inFlight = new Promise<void>((resolve) => (running = resolve));
    const pending = failure(
      second.callTool(
        'trigger-long-running-operation',
        { duration: 20, steps: 20 },
        call({ timeoutMs: 30_000, onProgress: () => running() }),
      ),
    );
    await inFlight;
    const started = Date.now();
    await server.stop();
    const error = await pending;
    expect(error.kind).toBe('disconnected');
    expect(Date.now() - started).toBeLessThan(5000);
    await expect.poll(() => reasons.length, { timeout: 15_000 }).toBe(1);
    await second.close();
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/ended and could not be reopened|closed/);
    // The first session lost the same server: told once too.
    await expect.poll(() => closes.length, { timeout: 15_000 }).toBe(1);
  }, 40_000);
});

describe('server-everything over stdio', () => {
  let session: McpSession;
  const stderr: string[] = [];
  const toolChanges: number[] = [];

  beforeAll(async () => {
    session = await connector.connect(
      {
        transport: 'stdio',
        command: process.execPath,
        args: [EVERYTHING_SCRIPT, 'stdio'],
        env: {},
      },
      { signal: never, timeoutMs: 20_000, onStderr: (line) => stderr.push(line) },
    );
    // Registered right after connect: the server announces its task tool once initialized.
    session.onToolsChanged(() => toolChanges.push(Date.now()));
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('connects, and passes the child stderr on line by line', () => {
    expect(session.serverName).toBe('mcp-servers/everything');
    expect(stderr).toContain('Starting default (STDIO) server...');
  });

  it('receives tools/list_changed from the server', async () => {
    await expect.poll(() => toolChanges.length, { timeout: 5000 }).toBeGreaterThan(0);
    const tools = await session.listTools(never);
    expect(tools.map((tool) => tool.name)).toContain('simulate-research-query');
  });

  commonTests(() => session);
});

describe('server-everything over legacy SSE', () => {
  let server: EverythingServer;
  let session: McpSession;

  beforeAll(async () => {
    server = await startEverythingServer('sse');
    session = await connector.connect(
      { transport: 'sse', url: server.url, headers: { Authorization: SECRET } },
      { signal: never, timeoutMs: 10_000 },
    );
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('connects with the explicitly chosen SSE transport', () => {
    expect(session.serverName).toBe('mcp-servers/everything');
  });

  commonTests(() => session);

  it('answers a Streamable HTTP attempt at the SSE URL with wrong-transport', async () => {
    const error = await failure(
      connector.connect(
        { transport: 'streamable-http', url: server.url, headers: { Authorization: SECRET } },
        { signal: never, timeoutMs: 10_000 },
      ),
    );
    expect(error.kind).toBe('wrong-transport');
    expect(error.message).toContain('choose the SSE transport');
  });

  it('fails an in-flight call promptly and fires onClose when the server dies', async () => {
    const reasons: string[] = [];
    session.onClose((reason) => reasons.push(reason));
    let running!: () => void;
    const inFlight = new Promise<void>((resolve) => (running = resolve));
    const pending = failure(
      session.callTool(
        'trigger-long-running-operation',
        { duration: 20, steps: 20 },
        call({ timeoutMs: 30_000, onProgress: () => running() }),
      ),
    );
    await inFlight;
    const started = Date.now();
    await server.stop();
    const error = await pending;
    expect(error.kind).toBe('disconnected');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(reasons).toHaveLength(1);
    const after = await failure(session.callTool('echo', { message: 'x' }, call()));
    expect(after.kind).toBe('disconnected');
  }, 30_000);
});
