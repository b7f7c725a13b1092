/**
 * The cheap engine check (`@aivory/sandbox/engine-check`, plain HTTP over the socket) gives the
 * answers dockerode's DockerRuntime gives, against the real dockerd: reachable, the runtime setting
 * honoured (or why not), the image present or not; a socket nobody serves is unreachable, as is
 * one that answers something else than an engine; and for a setting every engine takes it asks
 * only the ping and the image (an engine's slow `/version` and `/info` stay off the start path).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerRuntime } from '../src/docker-runtime';
import { checkEngine } from '../src/engine-check';
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
