/**
 * The cheap engine check (`@aivory/sandbox/engine-check`, plain HTTP over the socket) gives the
 * answers dockerode's DockerRuntime gives, against the real dockerd: reachable, the runtime setting
 * honoured (or why not), the image present or not; a socket nobody serves is unreachable, as is
 * one that answers something else than an engine; and for a setting every engine takes it asks
 * only the ping and the image (an engine's slow `/version` and `/info` stay off the start path).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { Socket as NetSocket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerRuntime } from '../src/docker-runtime';
import { checkEngine, pingEngine, readAnswer } from '../src/engine-check';
import { DOCKER_SOCKET, requireDockerAndImage, RUNNER_IMAGE } from './support/docker-fixture';

describe('checkEngine', () => {
  let dir = '';
  beforeAll(() => {
    requireDockerAndImage();
    dir = mkdtempSync(join(tmpdir(), 'aivory-engine-check-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers as DockerRuntime does: auto and runc are taken, with the image present', async () => {
    for (const setting of ['auto', 'runc'] as const) {
      const expected = await new DockerRuntime(DOCKER_SOCKET, setting).runtimeChoice();
      expect(expected.ok).toBe(true);
      expect(await checkEngine(DOCKER_SOCKET, setting, RUNNER_IMAGE)).toEqual({ ok: true });
    }
  });

  it('names a missing image', async () => {
    const image = 'aivory-no-such-image:never';
    expect(await new DockerRuntime(DOCKER_SOCKET).imagePresent(image)).toBe(false);
    expect(await checkEngine(DOCKER_SOCKET, 'auto', image)).toEqual({
      ok: false,
      problem: 'image',
    });
  });

  it('says why a runtime setting the engine cannot honour fails, in the same words', async () => {
    const runtime = new DockerRuntime(DOCKER_SOCKET, 'runsc');
    const expected = await runtime.runtimeChoice();
    // CI's dockerd does not register runsc (sandbox/test/gvisor.test.ts starts one that does).
    if (expected.ok) throw new Error('this dockerd lists runsc: the test needs one that does not');
    expect(await checkEngine(DOCKER_SOCKET, 'runsc', RUNNER_IMAGE)).toEqual({
      ok: false,
      problem: 'runtime',
      error: expected.error,
    });
  });

  it('a socket nobody serves is unreachable', async () => {
    const absent = join(dir, 'absent.sock');
    expect(await checkEngine(absent, 'auto', RUNNER_IMAGE)).toEqual({
      ok: false,
      problem: 'unreachable',
      reason: `no socket at ${absent}`,
    });
  });

  it('a server that is not an engine is unreachable, or an unreachable engine for runsc', async () => {
    const socket = join(dir, 'not-an-engine.sock');
    const server = createServer((request, response) => {
      if (request.url === '/_ping') response.writeHead(404).end('no');
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('not json');
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      expect(await checkEngine(socket, 'auto', RUNNER_IMAGE)).toEqual({
        ok: false,
        problem: 'unreachable',
        reason: `the server at ${socket} answered HTTP 404`,
      });
      // A 200 without the API version every engine sends is not an engine either.
      server.removeAllListeners('request');
      server.on('request', (request, response) => response.writeHead(200).end('OK'));
      expect(await checkEngine(socket, 'auto', RUNNER_IMAGE)).toEqual({
        ok: false,
        problem: 'unreachable',
        reason: `the server at ${socket} is not a container engine`,
      });
      server.removeAllListeners('request');
      server.on('request', (request, response) => {
        if (request.url === '/_ping') response.writeHead(200, { 'api-version': '1.41' }).end('OK');
        else response.writeHead(200).end('not json');
      });
      expect(await checkEngine(socket, 'runsc', RUNNER_IMAGE)).toEqual({
        ok: false,
        problem: 'runtime',
        error: 'The container engine is not reachable.',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('for auto and runc asks the ping and the image only; for runsc the runtime too', async () => {
    const socket = join(dir, 'recording-engine.sock');
    const asked: string[] = [];
    // Forwards to the real dockerd, recording the paths.
    const server = createServer((request, response) => {
      asked.push(request.url ?? '');
      const forwarded = httpRequest(
        {
          socketPath: DOCKER_SOCKET,
          path: request.url,
          method: request.method,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on('error', () => response.writeHead(502).end());
      request.pipe(forwarded);
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      const imagePath = `/images/${encodeURI(RUNNER_IMAGE)}/json`;
      for (const setting of ['auto', 'runc'] as const) {
        asked.length = 0;
        expect(await checkEngine(socket, setting, RUNNER_IMAGE)).toEqual({ ok: true });
        expect(asked.sort()).toEqual(['/_ping', imagePath].sort());
      }
      asked.length = 0;
      await checkEngine(socket, 'runsc', RUNNER_IMAGE);
      expect(asked).toContain('/version');
      expect(asked).toContain('/info');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('readAnswer (the check reads HTTP/1.0 answers itself)', () => {
  const raw = (text: string) => Buffer.from(text, 'utf8');

  it('reads the status, the API version (any case) and the body up to Content-Length', () => {
    const answer = raw('HTTP/1.1 200 OK\r\nApi-Version: 1.47\r\nContent-Length: 4\r\n\r\n{"é"');
    expect(readAnswer(answer, '/x', false)).toEqual({
      status: 200,
      body: '{"é"'.slice(0, 3),
      apiVersion: '1.47',
    });
  });

  it('waits for the rest: a head not yet whole, a body shorter than its length, no length', () => {
    expect(readAnswer(raw('HTTP/1.0 200 OK\r\nApi-Ver'), '/x', false)).toBeNull();
    expect(
      readAnswer(raw('HTTP/1.0 200 OK\r\nContent-Length: 9\r\n\r\nOK'), '/x', false),
    ).toBeNull();
    expect(readAnswer(raw('HTTP/1.0 404 Not Found\r\n\r\nno'), '/x', false)).toBeNull();
    // Without a length the body is what came before the engine closed.
    expect(readAnswer(raw('HTTP/1.0 404 Not Found\r\n\r\nno'), '/x', true)).toEqual({
      status: 404,
      body: 'no',
      apiVersion: undefined,
    });
  });

  it('refuses what is not an HTTP/1.0 answer, or ended short', () => {
    expect(() => readAnswer(raw('SSH-2.0-OpenSSH\r\n\r\n'), '/_ping', true)).toThrow(
      'the answer to /_ping is not HTTP',
    );
    expect(() => readAnswer(raw('hello'), '/_ping', true)).toThrow('is not HTTP');
    expect(() =>
      readAnswer(raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nOK'), '/x', false),
    ).toThrow('has a transfer encoding');
    expect(() =>
      readAnswer(raw('HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n'), '/x', false),
    ).toThrow('bad Content-Length');
    expect(() =>
      readAnswer(raw('HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nOK'), '/x', true),
    ).toThrow('was cut short');
  });

  it('on a socket: an answer with a length is taken without waiting for the close; garbage is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aivory-engine-answer-'));
    const opened: NetSocket[] = [];
    try {
      // Answers and keeps the connection open, as a keep-alive server would.
      const keeping = join(dir, 'keeping.sock');
      const keepingServer = createNetServer((socket) => {
        opened.push(socket);
        socket.once('data', () =>
          socket.write('HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nContent-Length: 2\r\n\r\nOK'),
        );
      });
      await new Promise<void>((resolve) => keepingServer.listen(keeping, resolve));
      expect(await pingEngine(keeping, 5000)).toEqual({ reachable: true, apiVersion: '1.41' });
      const garbage = join(dir, 'garbage.sock');
      const garbageServer = createNetServer((socket) => {
        opened.push(socket);
        socket.end('220 smtp ready\r\n');
      });
      await new Promise<void>((resolve) => garbageServer.listen(garbage, resolve));
      expect(await pingEngine(garbage, 5000)).toEqual({
        reachable: false,
        reason: 'the answer to /_ping is not HTTP',
      });
      for (const socket of opened) socket.destroy();
      await new Promise((resolve) => keepingServer.close(resolve));
      await new Promise((resolve) => garbageServer.close(resolve));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
