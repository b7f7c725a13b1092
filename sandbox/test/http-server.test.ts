/**
 * The sidecar's HTTP contract over real loopback HTTP, against an in-memory service: auth on
 * every route, every route's happy path, every kind of bad input, error mapping, and the
 * promises that bad input never takes the server down and that a vanished client stops its code.
 */
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SandboxError } from '../src/sandbox-service';
import { ROUTE_SCHEMAS, createSandboxServer } from '../src/http-server';
import type { SandboxServerOptions } from '../src/http-server';
import {
  directoryListingSchema,
  errorBodySchema,
  execResultSchema,
  healthReportSchema,
  interruptResultSchema,
  outputFileSchema,
  sessionInfoSchema,
} from '../src/http/route-schemas';
import { FakeSandboxService } from './support/fake-sandbox-service';

const API_KEY = 'test-key-0123456789abcdef';
const AUTH = { authorization: `Bearer ${API_KEY}` };
const MAX_UPLOAD = 64 * 1024;

interface LogEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: object | undefined;
}

interface Running {
  baseUrl: string;
  port: number;
  service: FakeSandboxService;
  logs: LogEntry[];
  close(): Promise<void>;
}

async function start(overrides: Partial<SandboxServerOptions> = {}): Promise<Running> {
  const service = new FakeSandboxService();
  const logs: LogEntry[] = [];
  const record =
    (level: LogEntry['level']) =>
    (message: string, fields?: object): void => {
      logs.push({ level, message, fields });
    };
  const server: Server = createSandboxServer({
    service,
    apiKey: API_KEY,
    maxUploadBytes: MAX_UPLOAD,
    logger: { info: record('info'), warn: record('warn'), error: record('error') },
    ...overrides,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  const { port } = address;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    service,
    logs,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

interface RawOptions {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Keep writing this chunk (chunked or under a too-large Content-Length) until answered. */
  streamChunk?: Buffer;
  /** Stop streaming after this many chunks (the body stays open unless `endAfterChunks`). */
  maxChunks?: number;
  /** End the body after `maxChunks`, so a server that failed to cut it answers quickly. */
  endAfterChunks?: boolean;
}

/**
 * A request over node:http that resolves with the response even when the server answers (and
 * closes) before the body was fully sent; errors after the response are the expected close.
 */
function raw(port: number, options: RawOptions): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method,
        path: options.path,
        headers: options.headers,
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', () => {});
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            text: body.toString(),
          });
          request.destroy();
        });
      },
    );
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (options.streamChunk !== undefined) {
      const chunk = options.streamChunk;
      let sent = 0;
      const pump = (): void => {
        if (answered || request.destroyed) return;
        if (sent >= (options.maxChunks ?? 10_000)) {
          if (options.endAfterChunks === true) request.end();
          return;
        }
        sent += 1;
        if (request.write(chunk)) setImmediate(pump);
        else request.once('drain', pump);
      };
      pump();
      return;
    }
    request.end(options.body);
  });
}

/**
 * Names what did not happen when something that must happen hangs. The deadline is a hang guard
 * just under the test timeout, not a speed check: a loaded machine must still pass.
 */
function within<T>(promise: Promise<T>, what: string, milliseconds = 25_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what} did not happen within ${milliseconds} ms`)),
        milliseconds,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

async function json(response: Response): Promise<unknown> {
  return JSON.parse(await response.text());
}

function expectErrorBody(value: unknown, code: string): { code: string; message: string } {
  const body = errorBodySchema.parse(value);
  expect(body.error.code).toBe(code);
  return body.error;
}

const ALL_ROUTES: Array<{ method: string; path: string; body?: string }> = [
  { method: 'GET', path: '/healthz' },
  { method: 'POST', path: '/sessions', body: '{}' },
  { method: 'POST', path: '/exec', body: '{"session_id":"session-1","code":"print(1)"}' },
  { method: 'POST', path: '/sessions/session-1/files?name=a.txt', body: 'hello' },
  { method: 'GET', path: '/sessions/session-1/files?path=' },
  { method: 'POST', path: '/sessions/session-1/interrupt' },
  { method: 'DELETE', path: '/sessions/session-1' },
  { method: 'POST', path: '/workspaces/reset-damaged', body: '{"conversation_id":"c"}' },
];

describe('sandbox HTTP server', () => {
  let running: Running;
  let service: FakeSandboxService;

  function call(
    method: string,
    path: string,
    init: { body?: string | Buffer; headers?: Record<string, string> } = {},
  ) {
    return fetch(`${running.baseUrl}${path}`, {
      method,
      headers: { ...AUTH, ...init.headers },
      body: init.body,
    });
  }

  async function newSession(conversationId?: string): Promise<string> {
    const response = await call('POST', '/sessions', {
      body: JSON.stringify(conversationId === undefined ? {} : { conversation_id: conversationId }),
    });
    return sessionInfoSchema.parse(await json(response)).session_id;
  }

  /** Starts an exec the fake holds until its signal aborts; destroying `client` ends it. */
  async function startHangingExec(sessionId: string) {
    service.hangExec = true;
    const started = service.waitForExec();
    const client = httpRequest({
      host: '127.0.0.1',
      port: running.port,
      method: 'POST',
      path: '/exec',
      headers: AUTH,
    });
    client.on('error', () => {});
    client.end(JSON.stringify({ session_id: sessionId, code: 'while True: pass' }));
    const { signal } = await within(started, 'the exec reaching the service');
    service.hangExec = false;
    return { client, signal };
  }

  beforeAll(async () => {
    running = await start();
    service = running.service;
  });

  afterAll(async () => {
    await running.close();
  });

  describe('authentication', () => {
    it.each(ALL_ROUTES)(
      '$method $path answers 401 without a key and never reaches the service',
      async (route) => {
        const before = {
          sessions: service.sessions.size,
          execs: service.execs.length,
          uploads: service.uploads.length,
        };
        const response = await fetch(`${running.baseUrl}${route.path}`, {
          method: route.method,
          body: route.body,
        });
        expect(response.status).toBe(401);
        expect(response.headers.get('content-type')).toContain('application/json');
        const body = await json(response);
        expect(Object.keys(body as object)).toEqual(['error']);
        expectErrorBody(body, 'unauthorized');
        expect({
          sessions: service.sessions.size,
          execs: service.execs.length,
          uploads: service.uploads.length,
        }).toEqual(before);
      },
    );

    it.each([
      ['a wrong key of the same length', `Bearer ${'x'.repeat(API_KEY.length)}`],
      ['a shorter key', 'Bearer short'],
      ['a much longer key', `Bearer ${API_KEY}${'y'.repeat(500)}`],
      ['the key with a different scheme', `Basic ${API_KEY}`],
      ['the key without a scheme', API_KEY],
      ['an empty bearer token', 'Bearer '],
      ['a key prefix', `Bearer ${API_KEY.slice(0, -1)}`],
    ])('rejects %s with 401 (not a 500 from a length mismatch)', async (_label, authorization) => {
      for (const route of ALL_ROUTES) {
        const response = await fetch(`${running.baseUrl}${route.path}`, {
          method: route.method,
          headers: { authorization },
          body: route.body,
        });
        expect(response.status, `${route.method} ${route.path}`).toBe(401);
        expectErrorBody(await json(response), 'unauthorized');
      }
    });

    it('gives no hint about routes before authentication', async () => {
      for (const [method, path] of [
        ['GET', '/no-such-route'],
        ['PUT', '/exec'],
        ['GET', '/sessions/bad.id'],
      ]) {
        const response = await fetch(`${running.baseUrl}${path}`, { method });
        expect(response.status).toBe(401);
        expect(response.headers.get('allow')).toBeNull();
      }
    });

    it('accepts the right key, with the scheme in any case', async () => {
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        const response = await fetch(`${running.baseUrl}/healthz`, {
          headers: { authorization: `${scheme} ${API_KEY}` },
        });
        expect(response.status).toBe(200);
      }
    });

    it('logs rejected requests without the presented key', () => {
      const rejected = running.logs.filter((entry) =>
        entry.message.includes('without a valid API key'),
      );
      expect(rejected.length).toBeGreaterThan(0);
      expect(JSON.stringify(running.logs)).not.toContain('x'.repeat(API_KEY.length));
    });
  });

  describe('routes', () => {
    it('GET /healthz returns the report with the common headers', async () => {
      const response = await call('GET', '/healthz');
      expect(response.status).toBe(200);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const report = healthReportSchema.parse(await json(response));
      expect(report).toMatchObject({
        ok: true,
        docker: true,
        image: 'aivory-runner:latest',
        runc_version: '1.2.8',
      });
    });

    it('GET /healthz is 200 even when the report says ok:false', async () => {
      service.healthReport = {
        ...service.healthReport,
        ok: false,
        docker: false,
        warnings: ['Docker is unreachable'],
      };
      try {
        const response = await call('GET', '/healthz');
        expect(response.status).toBe(200);
        expect(healthReportSchema.parse(await json(response))).toMatchObject({
          ok: false,
          docker: false,
          warnings: ['Docker is unreachable'],
        });
      } finally {
        service.healthReport = { ...service.healthReport, ok: true, docker: true, warnings: [] };
      }
    });

    it('POST /sessions creates (201), then returns the same session for the conversation (200)', async () => {
      const first = await call('POST', '/sessions', {
        body: '{"conversation_id":"conv:42.a_b-c"}',
        headers: { 'content-type': 'application/json' },
      });
      expect(first.status).toBe(201);
      const created = sessionInfoSchema.parse(await json(first));
      expect(created).toMatchObject({
        conversation_id: 'conv:42.a_b-c',
        created: true,
        restored: false,
      });

      const again = await call('POST', '/sessions', {
        body: '{"conversation_id":"conv:42.a_b-c"}',
      });
      expect(again.status).toBe(200);
      const existing = sessionInfoSchema.parse(await json(again));
      expect(existing.session_id).toBe(created.session_id);
      expect(existing.created).toBe(false);
    });

    it('POST /sessions accepts {} and an empty body, whatever the content type', async () => {
      const braces = await call('POST', '/sessions', {
        body: '{}',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(braces.status).toBe(201);
      const empty = await call('POST', '/sessions');
      expect(empty.status).toBe(201);
      const first = sessionInfoSchema.parse(await json(braces));
      const second = sessionInfoSchema.parse(await json(empty));
      expect(first.session_id).not.toBe(second.session_id);
    });

    it('POST /exec returns the result and hands the service the request intact', async () => {
      const sessionId = await newSession();
      const code = 'print("héllo, 世界")\nx = 6 * 7';
      const response = await call('POST', '/exec', {
        body: JSON.stringify({ session_id: sessionId, code, timeout_s: 30 }),
      });
      expect(response.status).toBe(200);
      const result = execResultSchema.parse(await json(response));
      expect(result).toMatchObject({ status: 'ok', stdout: code, error: null });
      const received = service.execs.at(-1);
      expect(received?.request).toEqual({ session_id: sessionId, code, timeout_s: 30 });
      expect(received?.signal.aborted).toBe(false);
    });

    it('uploads a file (201), lists it and downloads the same bytes', async () => {
      const sessionId = await newSession();
      const bytes = Buffer.from('a,b\n1,2\n\u0000\u00ff binary too', 'latin1');
      const upload = await call(
        'POST',
        `/sessions/${sessionId}/files?name=${encodeURIComponent('data set.csv')}`,
        { body: bytes },
      );
      expect(upload.status).toBe(201);
      expect(outputFileSchema.parse(await json(upload))).toEqual({
        path: 'uploads/data set.csv',
        size: bytes.length,
        mime: 'text/csv',
      });
      expect(service.uploads.at(-1)).toMatchObject({
        declaredSize: bytes.length,
        bytesRead: bytes.length,
        streamError: null,
      });

      const root = await call('GET', `/sessions/${sessionId}/files`);
      expect(root.status).toBe(200);
      const listing = directoryListingSchema.parse(await json(root));
      expect(listing.entries.map((entry) => entry.path)).toEqual(['uploads/data set.csv']);

      const download = await call(
        'GET',
        `/sessions/${sessionId}/files?path=${encodeURIComponent('uploads//./data set.csv')}`,
      );
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('text/csv');
      expect(download.headers.get('content-length')).toBe(String(bytes.length));
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
      expect(service.readPaths.at(-1)).toBe('uploads/data set.csv');
    });

    it('accepts a chunked upload under the limit', async () => {
      const sessionId = await newSession();
      const response = await raw(running.port, {
        method: 'POST',
        path: `/sessions/${sessionId}/files?name=chunked.bin`,
        headers: { ...AUTH, 'transfer-encoding': 'chunked' },
        body: Buffer.alloc(MAX_UPLOAD, 7),
      });
      expect(response.status).toBe(201);
      expect(outputFileSchema.parse(JSON.parse(response.text))).toMatchObject({ size: MAX_UPLOAD });
      expect(service.uploads.at(-1)?.declaredSize).toBe(MAX_UPLOAD);
    });

    it('POST /sessions/{id}/interrupt reports whether code was running', async () => {
      const sessionId = await newSession();
      const idle = await call('POST', `/sessions/${sessionId}/interrupt`);
      expect(idle.status).toBe(200);
      expect(interruptResultSchema.parse(await json(idle))).toEqual({ interrupted: false });

      const hanging = await startHangingExec(sessionId);
      try {
        const busy = await call('POST', `/sessions/${sessionId}/interrupt`);
        expect(interruptResultSchema.parse(await json(busy))).toEqual({ interrupted: true });
      } finally {
        hanging.client.destroy();
      }
      await expect.poll(() => hanging.signal.aborted).toBe(true);
    });

    it('POST /workspaces/reset-damaged hands the service the conversation and answers where', async () => {
      const response = await call('POST', '/workspaces/reset-damaged', {
        body: '{"conversation_id":"conv:7.x"}',
      });
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual({
        conversation_id: 'conv:7.x',
        kept_as: ['/archives/conv:7.x.damaged'],
      });
      expect(service.resets.at(-1)).toBe('conv:7.x');
    });

    it('POST /workspaces/reset-damaged: a bad or missing id is 400, a refusal 409, GET 405', async () => {
      const before = service.resets.length;
      for (const body of ['{}', '{"conversation_id":"../x/y"}', '{"conversation_id":"a","b":1}']) {
        const response = await call('POST', '/workspaces/reset-damaged', { body });
        expect(response.status, body).toBe(400);
        expectErrorBody(await json(response), 'bad-request');
      }
      expect(service.resets.length).toBe(before);
      service.failNext(
        'resetDamagedWorkspace',
        new SandboxError('not-damaged', 'The last save can be read; nothing was changed.'),
      );
      const refused = await call('POST', '/workspaces/reset-damaged', {
        body: '{"conversation_id":"conv-good"}',
      });
      expect(refused.status).toBe(409);
      expect(expectErrorBody(await json(refused), 'not-damaged').message).toBe(
        'The last save can be read; nothing was changed.',
      );
      const wrongMethod = await call('GET', '/workspaces/reset-damaged');
      expect(wrongMethod.status).toBe(405);
      expect((await call('POST', '/workspaces/other', { body: '{}' })).status).toBe(404);
    });

    it('DELETE /sessions/{id} answers 204 with no body, then 404', async () => {
      const sessionId = await newSession();
      const response = await call('DELETE', `/sessions/${sessionId}`);
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(service.sessions.has(sessionId)).toBe(false);
      const again = await call('DELETE', `/sessions/${sessionId}`);
      expect(again.status).toBe(404);
      expectErrorBody(await json(again), 'not-found');
    });
  });

  describe('bad input', () => {
    it.each([
      ['not JSON', '{"session_id":'],
      ['plain text', 'print(1)'],
      ['a JSON array', '[1,2]'],
      ['a JSON string', '"x"'],
      ['JSON null', 'null'],
      ['a JSON number', '42'],
    ])('POST /exec with %s → 400', async (_label, body) => {
      const response = await call('POST', '/exec', { body });
      expect(response.status).toBe(400);
      expectErrorBody(await json(response), 'bad-request');
    });

    it('rejects a body that is not UTF-8', async () => {
      const response = await call('POST', '/sessions', {
        body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
      });
      expect(response.status).toBe(400);
      expect(expectErrorBody(await json(response), 'bad-request').message).toContain('UTF-8');
    });

    it('rejects a JSON body over 2 MiB by its Content-Length, before reading it', async () => {
      const response = await raw(running.port, {
        method: 'POST',
        path: '/exec',
        headers: { ...AUTH, 'content-length': String(50 * 1024 * 1024) },
        streamChunk: Buffer.alloc(16 * 1024, 0x20),
        maxChunks: 4,
      });
      expect(response.status).toBe(413);
      expect(response.headers.connection).toBe('close');
      expectErrorBody(JSON.parse(response.text), 'too-large');
    });

    it('cuts a chunked JSON body at 2 MiB', async () => {
      const execsBefore = service.execs.length;
      const response = await raw(running.port, {
        method: 'POST',
        path: '/exec',
        headers: { ...AUTH, 'transfer-encoding': 'chunked' },
        streamChunk: Buffer.alloc(64 * 1024, 0x20),
        maxChunks: 64,
        endAfterChunks: true,
      });
      expect(response.status).toBe(413);
      expectErrorBody(JSON.parse(response.text), 'too-large');
      expect(service.execs.length).toBe(execsBefore);
    });

    it.each([
      ['code is a number', { code: 42 }],
      ['code is missing', {}],
      ['code is null', { code: null }],
      ['timeout_s is a string', { code: 'x', timeout_s: '30' }],
      ['an unknown field is present', { code: 'x', privileged: true }],
      ['code is over 1 MiB of characters', { code: 'x'.repeat(1024 * 1024 + 1) }],
      ['code is over 1 MiB of UTF-8 bytes', { code: '€'.repeat(400_000) }],
    ])('POST /exec where %s → 400', async (_label, fields) => {
      const sessionId = await newSession();
      const before = service.execs.length;
      const response = await call('POST', '/exec', {
        body: JSON.stringify({ session_id: sessionId, ...fields }),
      });
      expect(response.status).toBe(400);
      expectErrorBody(await json(response), 'bad-request');
      expect(service.execs.length).toBe(before);
    });

    it('does not echo the code back in a validation error', async () => {
      const response = await call('POST', '/exec', {
        body: JSON.stringify({ session_id: 'session-1', code: 'SECRET-CODE', extra: 1 }),
      });
      expect(response.status).toBe(400);
      expect(await response.text()).not.toContain('SECRET-CODE');
    });

    it.each([
      ['empty', ''],
      ['with a slash', 'a/b'],
      ['with a space', 'a b'],
      ['129 characters', 'c'.repeat(129)],
      ['non-ASCII', 'ünïcode'],
      ['a number', 42],
      ['null', null],
    ])('POST /sessions with a conversation id that is %s → 400', async (_label, conversationId) => {
      const before = service.sessions.size;
      const response = await call('POST', '/sessions', {
        body: JSON.stringify({ conversation_id: conversationId }),
      });
      expect(response.status).toBe(400);
      expectErrorBody(await json(response), 'bad-request');
      expect(service.sessions.size).toBe(before);
    });

    it('accepts a 128-character conversation id', async () => {
      const response = await call('POST', '/sessions', {
        body: JSON.stringify({ conversation_id: 'c'.repeat(128) }),
      });
      expect(response.status).toBe(201);
    });

    it.each([
      ['GET', '/sessions/bad.id/files'],
      ['GET', '/sessions/has%20space/files'],
      ['GET', '/sessions/%2e%2e/files'],
      ['POST', `/sessions/${'x'.repeat(65)}/interrupt`],
      ['DELETE', '/sessions/a%2Fb'],
      ['POST', '/sessions/no-such-session/interrupt'],
    ])('%s %s (bad or unknown session id) → 404', async (method, path) => {
      const response = await call(method, path);
      expect(response.status).toBe(404);
      expectErrorBody(await json(response), 'not-found');
    });

    it('POST /exec with a malformed or unknown session id → 404', async () => {
      for (const sessionId of ['bad id', '../x', 'no-such-session']) {
        const response = await call('POST', '/exec', {
          body: JSON.stringify({ session_id: sessionId, code: 'print(1)' }),
        });
        expect(response.status, sessionId).toBe(404);
        expectErrorBody(await json(response), 'not-found');
      }
    });

    it.each([
      '/nope',
      '/healthz/',
      '/sessions/session-1/other',
      '/sessions/session-1/files/x',
      '/',
    ])('unknown route %s → 404', async (path) => {
      const response = await call('GET', path);
      expect(response.status).toBe(404);
      expectErrorBody(await json(response), 'not-found');
    });

    it.each([
      ['GET', '/exec', 'POST'],
      ['POST', '/healthz', 'GET'],
      ['GET', '/sessions', 'POST'],
      ['PUT', '/sessions/session-1/files', 'GET, POST'],
      ['GET', '/sessions/session-1', 'DELETE'],
      ['PATCH', '/sessions/session-1/interrupt', 'POST'],
    ])('%s %s → 405 with Allow: %s', async (method, path, allow) => {
      const response = await call(method, path);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allow);
      expectErrorBody(await json(response), 'method-not-allowed');
    });

    it('rejects an upload whose Content-Length is over the limit before reading it', async () => {
      const sessionId = await newSession();
      const uploadsBefore = service.uploads.length;
      const response = await raw(running.port, {
        method: 'POST',
        path: `/sessions/${sessionId}/files?name=big.bin`,
        headers: { ...AUTH, 'content-length': String(MAX_UPLOAD + 1) },
        streamChunk: Buffer.alloc(1024),
        maxChunks: 2,
      });
      expect(response.status).toBe(413);
      expectErrorBody(JSON.parse(response.text), 'too-large');
      expect(service.uploads.length).toBe(uploadsBefore);
    });

    it('answers 404 for an upload to an unknown session without reading the body', async () => {
      const response = await raw(running.port, {
        method: 'POST',
        path: '/sessions/no-such-session/files?name=a.bin',
        headers: { ...AUTH, 'content-length': String(MAX_UPLOAD) },
        streamChunk: Buffer.alloc(1024),
        maxChunks: 4,
      });
      expect(response.status).toBe(404);
      expect(response.headers.connection).toBe('close');
      expectErrorBody(JSON.parse(response.text), 'not-found');
    });

    it('cuts a chunked upload at the limit with 413 and the service sees a failed stream', async () => {
      const sessionId = await newSession();
      const response = await raw(running.port, {
        method: 'POST',
        path: `/sessions/${sessionId}/files?name=endless.bin`,
        headers: { ...AUTH, 'transfer-encoding': 'chunked' },
        streamChunk: Buffer.alloc(4096, 1),
        maxChunks: 64,
        endAfterChunks: true,
      });
      expect(response.status).toBe(413);
      expectErrorBody(JSON.parse(response.text), 'too-large');
      const record = service.uploads.at(-1);
      expect(record?.name).toBe('endless.bin');
      expect(record?.bytesRead).toBeLessThanOrEqual(MAX_UPLOAD);
      expect(record?.streamError).not.toBeNull();
      expect(service.sessions.get(sessionId)?.files.has('uploads/endless.bin')).toBe(false);
    });

    it.each([
      ['missing', null],
      ['empty', ''],
      ['"."', '.'],
      ['".."', '..'],
      ['with a slash', 'a/b.txt'],
      ['with a backslash', 'a\\b.txt'],
      ['with NUL', 'a\u0000b.txt'],
      ['with a newline', 'a\nb.txt'],
      ['256 bytes long', 'n'.repeat(256)],
      ['over 255 UTF-8 bytes in 86 characters', '€'.repeat(86)],
    ])('rejects an upload name that is %s', async (_label, name) => {
      const sessionId = await newSession();
      const uploadsBefore = service.uploads.length;
      const query = name === null ? '' : `?name=${encodeURIComponent(name)}`;
      const response = await call('POST', `/sessions/${sessionId}/files${query}`, {
        body: 'content',
      });
      expect(response.status).toBe(400);
      expectErrorBody(await json(response), 'bad-request');
      expect(service.uploads.length).toBe(uploadsBefore);
    });

    it.each([
      ['../etc/passwd'],
      ['/etc/passwd'],
      ['a/../../x'],
      ['uploads/..'],
      ['a\u0000b'],
      ['a\\..\\b'],
      ['%2e%2e/etc/passwd'],
    ])('rejects the workspace path %j before calling the service', async (path) => {
      const sessionId = await newSession();
      const before = service.readPaths.length;
      const query = path.startsWith('%') ? path : encodeURIComponent(path);
      const response = await call('GET', `/sessions/${sessionId}/files?path=${query}`);
      expect(response.status).toBe(400);
      expectErrorBody(await json(response), 'bad-request');
      expect(service.readPaths.length).toBe(before);
    });

    it('answers a malformed HTTP request with 400 JSON and closes the connection', async () => {
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect(running.port, '127.0.0.1', () =>
          socket.write('NOT HTTP AT ALL\r\n\r\n'),
        );
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(reply.startsWith('HTTP/1.1 400')).toBe(true);
      expect(reply).toContain('X-Content-Type-Options: nosniff');
      expectErrorBody(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)), 'bad-request');
    });
  });

  describe('errors from the service', () => {
    it.each([
      ['limit', 429],
      ['busy', 409],
      ['damaged-save', 409],
      ['unavailable', 503],
      ['too-large', 413],
      ['bad-request', 400],
      ['not-found', 404],
    ] as const)('SandboxError %s → %i with its code and message', async (code, status) => {
      service.failNext('createSession', new SandboxError(code, `the service says ${code}`));
      const response = await call('POST', '/sessions', { body: '{}' });
      expect(response.status).toBe(status);
      expect(expectErrorBody(await json(response), code).message).toBe(`the service says ${code}`);
    });

    it('any other error → 500 with a generic message, and the real one is logged', async () => {
      service.failNext('health', new Error('ENOENT /home/someone/.secret-path'));
      const response = await call('GET', '/healthz');
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).not.toContain('secret-path');
      expectErrorBody(JSON.parse(text), 'internal');
      const logged = running.logs.filter((entry) => entry.level === 'error');
      expect(JSON.stringify(logged.at(-1))).toContain('secret-path');
    });

    it('a thrown non-Error value → 500', async () => {
      service.failNext('interrupt', 'a string');
      const sessionId = await newSession();
      const response = await call('POST', `/sessions/${sessionId}/interrupt`);
      expect(response.status).toBe(500);
      expectErrorBody(await json(response), 'internal');
    });

    it('a download whose source fails mid-stream cuts the connection instead of lying', async () => {
      const sessionId = await newSession();
      service.putFile(sessionId, 'outputs/big.bin', Buffer.alloc(100_000, 3));
      service.failDownloadAfterBytes = 1000;
      try {
        const response = await call('GET', `/sessions/${sessionId}/files?path=outputs/big.bin`);
        expect(response.status).toBe(200);
        await expect(response.arrayBuffer()).rejects.toThrow();
      } finally {
        service.failDownloadAfterBytes = null;
      }
      // Logged when the server sees the source fail, which can come after the client's error.
      await expect
        .poll(() => running.logs.some((entry) => entry.message === 'file download ended early'))
        .toBe(true);
    });
  });

  describe('a client that goes away', () => {
    afterEach(() => {
      service.hangExec = false;
    });

    it('aborts the exec signal when the client disconnects mid-exec', async () => {
      const sessionId = await newSession();
      const { client, signal } = await startHangingExec(sessionId);
      expect(signal.aborted).toBe(false);
      const aborted = new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      client.destroy();
      await within(aborted, 'the abort of the exec signal');
      expect(signal.aborted).toBe(true);
      // The service's late rejection is logged, not thrown.
      await expect
        .poll(() =>
          running.logs.some((entry) => entry.message === 'request ended after the client left'),
        )
        .toBe(true);
    });

    it('does not abort the signal of an exec that completed normally', async () => {
      const sessionId = await newSession();
      // Connection: close, so the server closes the connection after the response: once the
      // client sees it closed, the server has also emitted its own close events (the moment a
      // late abort would happen).
      const client = httpRequest({
        host: '127.0.0.1',
        port: running.port,
        method: 'POST',
        path: '/exec',
        headers: { ...AUTH, connection: 'close' },
        agent: false,
      });
      const socketClosed = new Promise<void>((resolve) =>
        client.once('socket', (socket) => socket.once('close', () => resolve())),
      );
      const response = new Promise<IncomingMessage>((resolve) => client.once('response', resolve));
      client.end(JSON.stringify({ session_id: sessionId, code: '1' }));
      expect((await response).statusCode).toBe(200);
      (await response).resume();
      await socketClosed;
      expect(service.execs.at(-1)?.signal.aborted).toBe(false);
    });

    it('fails the upload stream when the client disconnects mid-upload', async () => {
      const sessionId = await newSession();
      const client = httpRequest({
        host: '127.0.0.1',
        port: running.port,
        method: 'POST',
        path: `/sessions/${sessionId}/files?name=half.bin`,
        headers: { ...AUTH, 'content-length': String(MAX_UPLOAD) },
      });
      client.on('error', () => {});
      client.write(Buffer.alloc(1000));
      await expect
        .poll(
          () =>
            service.uploads.at(-1)?.name === 'half.bin' &&
            service.uploads.at(-1)?.bytesRead === 1000,
        )
        .toBe(true);
      client.destroy();
      await expect.poll(() => service.uploads.at(-1)?.streamError !== null).toBe(true);
      expect(service.sessions.get(sessionId)?.files.has('uploads/half.bin')).toBe(false);
    });
  });

  it('still answers after everything above', async () => {
    const response = await call('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(healthReportSchema.parse(await json(response)).ok).toBe(true);
  });
});

describe('sandbox HTTP server options', () => {
  it('needs no key when apiKey is null', async () => {
    const running = await start({ apiKey: null });
    try {
      const response = await fetch(`${running.baseUrl}/healthz`);
      expect(response.status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('refuses an empty key (null is how auth is turned off)', () => {
    expect(() =>
      createSandboxServer({ service: new FakeSandboxService(), apiKey: '', maxUploadBytes: 1 }),
    ).toThrow(/non-empty/);
  });

  it('answers 408 when a body stalls', async () => {
    const running = await start({ bodyIdleTimeoutMs: 150 });
    try {
      const response = await raw(running.port, {
        method: 'POST',
        path: '/exec',
        headers: { ...AUTH, 'content-length': '100' },
        streamChunk: Buffer.from('{"se'),
        maxChunks: 1,
      });
      expect(response.status).toBe(408);
      expectErrorBody(JSON.parse(response.text), 'request-timeout');
    } finally {
      await running.close();
    }
  });

  it('uses an unbounded request timeout (a 600 s exec must not be cut) and bounded header time', async () => {
    const server = createSandboxServer({
      service: new FakeSandboxService(),
      apiKey: API_KEY,
      maxUploadBytes: 1,
    });
    expect(server.requestTimeout).toBe(0);
    expect(server.headersTimeout).toBe(60_000);
    expect(server.keepAliveTimeout).toBe(5_000);
  });
});

describe('ROUTE_SCHEMAS', () => {
  it('documents every route with JSON-serialisable request and response schemas', () => {
    expect(Object.keys(ROUTE_SCHEMAS).sort()).toEqual(
      [
        'DELETE /sessions/{id}',
        'GET /healthz',
        'GET /sessions/{id}/files',
        'POST /exec',
        'POST /sessions',
        'POST /sessions/{id}/files',
        'POST /sessions/{id}/interrupt',
        'POST /workspaces/reset-damaged',
      ].sort(),
    );
    for (const [key, route] of Object.entries(ROUTE_SCHEMAS)) {
      expect(key).toBe(`${route.method} ${route.path}`);
      expect(route.responses['401']).toBeDefined();
      expect(JSON.parse(JSON.stringify(route))).toEqual(route);
    }
    const exec = ROUTE_SCHEMAS['POST /exec'];
    expect(exec.requestBody?.schema).toMatchObject({
      type: 'object',
      required: ['session_id', 'code'],
      additionalProperties: false,
    });
    expect(exec.responses['200']?.schema).toMatchObject({
      properties: { status: { enum: ['ok', 'error', 'timeout'] } },
    });
  });
});
