/**
 * The cheap engine check (`@aivory/sandbox/engine-check`, plain HTTP over the socket) gives the
 * answers dockerode's DockerRuntime gives, against the real dockerd: reachable, the runtime choice
 * (or why the setting cannot be honoured), the image present or not; and a socket nobody serves
 * is unreachable, as is one that answers something else than an engine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
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

  it('answers as DockerRuntime does: the runtime choice for auto, with the image present', async () => {
    const runtime = new DockerRuntime(DOCKER_SOCKET, 'auto');
    const expected = await runtime.runtimeChoice();
    expect(expected.ok).toBe(true);
    const check = await checkEngine(DOCKER_SOCKET, 'auto', RUNNER_IMAGE);
    expect(check).toEqual({ ok: true, choice: expected });
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
    expect(await checkEngine(join(dir, 'absent.sock'), 'auto', RUNNER_IMAGE)).toEqual({
      ok: false,
      problem: 'unreachable',
    });
  });

  it('a server that is not an engine is unreachable, or an unreachable engine for the runtime', async () => {
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
      });
      server.removeAllListeners('request');
      server.on('request', (request, response) => {
        if (request.url === '/_ping') response.writeHead(200).end('OK');
        else response.writeHead(200).end('not json');
      });
      expect(await checkEngine(socket, 'auto', RUNNER_IMAGE)).toEqual({
        ok: false,
        problem: 'runtime',
        error: 'The container engine is not reachable.',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
