import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpFetch, serviceHeaders } from '../../../../src/main/adapters/mcp/mcp-fetch';
import type { McpFetchConfig } from '../../../../src/main/adapters/mcp/mcp-fetch';
import { McpError } from '../../../../src/main/core/ports';

const SECRET = 'Bearer fetch-secret-value';
let server: Server;
let origin: string;
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    seen.push({ path, headers: request.headers });
    if (path.startsWith('/moved')) {
      response.writeHead(301, { location: 'http://elsewhere.test/x?token=abc' }).end();
    } else if (path === '/html') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    } else if (path === '/gone' || path.startsWith('/key/')) {
      response.writeHead(404).end();
    } else if (path.startsWith('/keymoved/')) {
      response.writeHead(302, { location: `${path.replace('/keymoved/', '/elsewhere/')}` }).end();
    } else {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  origin = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
});

function config(overrides: Partial<McpFetchConfig> = {}) {
  const failures: McpError[] = [];
  let expired = 0;
  const base: McpFetchConfig = {
    transport: 'streamable-http',
    url: new URL(`${origin}/mcp`),
    headers: serviceHeaders({ Authorization: SECRET, 'X-Extra': 'one', Accept: 'text/plain' }),
    maxMessageBytes: 1024,
    events: {
      onResponseBroken: () => undefined,
      onResponseEnded: () => undefined,
      onSessionExpired: () => (expired += 1),
      onFailure: (error) => failures.push(error),
    },
    ...overrides,
  };
  return { config: base, failures, expired: () => expired };
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).not.toContain('fetch-secret-value');
    return error as McpError;
  }
  throw new Error('expected a rejection');
}

describe('the MCP fetch', () => {
  it('adds the service headers, letting the transport own its protocol headers', async () => {
    const fetch = createMcpFetch(config().config);
    const response = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(await response.json()).toEqual({ ok: true });
    const headers = seen.at(-1)?.headers;
    expect(headers?.['authorization']).toBe(SECRET);
    expect(headers?.['x-extra']).toBe('one');
    expect(headers?.['accept']).toBe('application/json, text/event-stream');
  });

  it('refuses any other origin without sending anything', async () => {
    const before = seen.length;
    const fetch = createMcpFetch(config().config);
    const error = await rejection(fetch('http://127.0.0.1:1/mcp'));
    expect(error.kind).toBe('redirect');
    const port = Number(new URL(origin).port);
    await rejection(fetch(`http://localhost:${port}/mcp`));
    expect(seen.length).toBe(before);
  });

  it('turns a redirect into an error naming the target without its query', async () => {
    const { config: settings, failures } = config();
    const error = await rejection(createMcpFetch(settings)(`${origin}/moved`));
    expect(error.kind).toBe('redirect');
    expect(error.message).toContain('http://elsewhere.test/x');
    expect(error.message).not.toContain('token=abc');
    expect(failures).toEqual([error]);
  });

  it('names an HTML answer to a POST not-mcp, and a 404 with a session id the end of it', async () => {
    const { config: settings, expired } = config({ url: new URL(`${origin}/html`) });
    const fetch = createMcpFetch(settings);
    expect((await rejection(fetch(`${origin}/html`, { method: 'POST', body: '{}' }))).kind).toBe(
      'not-mcp',
    );
    const gone = createMcpFetch({ ...settings, url: new URL(`${origin}/gone`) });
    expect((await rejection(gone(`${origin}/gone`, { method: 'POST', body: '{}' }))).kind).toBe(
      'not-found',
    );
    const session = { 'mcp-session-id': 's1' };
    const error = await rejection(
      gone(`${origin}/gone`, { method: 'POST', body: '{}', headers: session }),
    );
    expect(error.kind).toBe('disconnected');
    expect(expired()).toBe(1);
  });

  it("names a secret part of the URL's path •••• (issue 37, item 4)", async () => {
    const part = 'path-key 0123456789';
    const url = new URL(`${origin}/key/${part}/mcp`);
    const fetch = createMcpFetch({ ...config({ url }).config, hiddenParts: [part] });
    const error = await rejection(fetch(url.href, { method: 'POST', body: '{}' }));
    expect(error.message).toContain(`${origin}/key/••••/mcp`);
    expect(error.message).not.toContain('0123456789');
    const moved = new URL(`${origin}/keymoved/${part}/mcp`);
    const redirected = createMcpFetch({ ...config({ url: moved }).config, hiddenParts: [part] });
    const refused = await rejection(redirected(moved.href, { method: 'POST', body: '{}' }));
    expect(refused.message).toContain('/elsewhere/••••/mcp');
    expect(refused.message).not.toContain('0123456789');
  });

  it('wants an event stream from a legacy SSE GET', async () => {
    const fetch = createMcpFetch(config({ transport: 'sse' }).config);
    expect((await rejection(fetch(`${origin}/mcp`))).kind).toBe('not-mcp');
  });

  it('caps the body', async () => {
    const fetch = createMcpFetch(config({ maxMessageBytes: 5 }).config);
    const response = await fetch(`${origin}/mcp`, { method: 'POST', body: '{}' });
    await expect(response.text()).rejects.toMatchObject({ kind: 'too-large' });
  });

  it('names an invalid header without its value', () => {
    expect(() => serviceHeaders({ 'X-Token': 'line\nbreak-secret' })).toThrow(
      'the request header "X-Token" is not valid',
    );
    try {
      serviceHeaders({ 'X-Token': 'line\nbreak-secret' });
    } catch (error) {
      expect((error as Error).message).not.toContain('break-secret');
    }
  });
});
