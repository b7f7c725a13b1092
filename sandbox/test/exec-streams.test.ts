/**
 * The runtime ends the `docker exec` streams it opened (real dockerd, the runner image): those of
 * a container it removes, and all of them when the sidecar stops. The engine does not always
 * close them itself; one left open once kept `aivory serve` running for minutes after SIGTERM.
 */
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContainerLimits } from '../src/container-template';
import { DockerRuntime, startAttachedExec } from '../src/docker-runtime';
import {
  containerStarter,
  createFixture,
  DOCKER_SOCKET,
  requireDockerAndImage,
  RUNNER_IMAGE,
} from './support/docker-fixture';

const LIMITS: ContainerLimits = {
  image: RUNNER_IMAGE,
  memoryBytes: 256 * 1024 * 1024,
  cpus: 1,
  pidsLimit: 32,
  workspaceBytes: 16 * 1024 * 1024,
  tmpBytes: 16 * 1024 * 1024,
  readOnlyRootfs: true,
};

describe('exec streams', () => {
  const runtime = new DockerRuntime(DOCKER_SOCKET);
  const containers = containerStarter(runtime, 'streams', LIMITS);
  const container = containers.start;

  beforeAll(() => requireDockerAndImage());
  afterAll(() => containers.removeAll(), 60_000);

  it('release() ends a stream whose process would wait for ever', async () => {
    const id = await container();
    // `cat` with its stdin open never exits by itself.
    const waiting = await runtime.attach(id, ['cat']);
    waiting.stdout.resume();
    waiting.stderr.resume();
    expect(runtime.openStreamCount()).toBe(1);
    runtime.release();
    await waiting.exited;
    expect(runtime.openStreamCount()).toBe(0);
  }, 60_000);

  it('removing a container ends its streams and no other', async () => {
    const [gone, kept] = [await container(), await container()];
    const onGone = await runtime.attach(gone, ['cat']);
    const onKept = await runtime.attach(kept, ['cat']);
    for (const process of [onGone, onKept]) {
      process.stdout.resume();
      process.stderr.resume();
    }
    expect(runtime.openStreamCount()).toBe(2);
    await runtime.removeContainer(gone);
    await onGone.exited;
    expect(runtime.openStreamCount()).toBe(1);
    // The other container's process still answers through its stream.
    const echoed = new Promise<string>((resolve) =>
      onKept.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))),
    );
    onKept.stdin.write('still here\n');
    expect(await echoed).toBe('still here\n');
    onKept.stdin.end();
    expect(await onKept.exited).toBe(0);
    expect(runtime.openStreamCount()).toBe(0);
  }, 60_000);

  it('a start the engine refuses leaves no connection open', async () => {
    const docker = new Docker({ socketPath: DOCKER_SOCKET });
    const container = docker.getContainer(await containers.start());
    const exec = await container.exec({
      Cmd: ['cat'],
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
    });
    // The container dies between the exec's creation and its start (a `docker kill`).
    await container.kill();
    await expect(startAttachedExec(exec, new AbortController())).rejects.toThrow(/HTTP code 40/);
    // dockerode's request for that start is the one socket left behind without the fix.
    await expect.poll(() => socketsFor(`/exec/${exec.id}/start`), { timeout: 10_000 }).toBe(0);
  }, 60_000);

  it("a sidecar's shutdown leaves no exec stream open", async () => {
    const fixture = createFixture();
    try {
      await fixture.manager.start();
      const session = await fixture.manager.createSession('conv-streams');
      const never = new AbortController().signal;
      await fixture.manager.exec({ session_id: session.session_id, code: 'x = 1' }, never);
      // The session's Python worker is attached for as long as the session lives.
      expect(fixture.runtime.openStreamCount()).toBeGreaterThan(0);
      await fixture.manager.shutdown();
      expect(fixture.runtime.openStreamCount()).toBe(0);
    } finally {
      await fixture.cleanup();
    }
  }, 120_000);
});

/** This process's open sockets whose HTTP request went to `path`. */
function socketsFor(path: string): number {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles.filter(
    (handle) => (handle as { _httpMessage?: { path?: string } })._httpMessage?.path === path,
  ).length;
}
