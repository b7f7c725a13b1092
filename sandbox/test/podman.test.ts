/**
 * Sessions on Podman through its Docker-compatible API: the test starts `podman system service`
 * itself (rootful here, as CI runs as root), loads the runner image into Podman's store and runs
 * the real SessionManager on it. What the hardened template asks for is checked from inside the
 * container, since Podman's compat API could accept an option and not apply it.
 */
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerRuntime } from '../src/docker-runtime';
import { ISOLATION_CONTAINER } from '../src/engine-policy';
import type { Fixture } from './support/docker-fixture';
import { createFixture } from './support/docker-fixture';
import type { TestEngine } from './support/engine-fixture';
import { startPodmanService } from './support/engine-fixture';
import {
  expectHardened,
  HARDENING_PROBE,
  itKeepsStateAndMovesFiles,
  itRaisesMemoryErrorKeepingState,
  runner,
} from './support/engine-session-checks';

describe('sessions on Podman (Docker-compatible socket)', () => {
  let podman: TestEngine;
  let fixture: Fixture;
  let sessionId: string;
  let containerId: string;

  beforeAll(async () => {
    podman = await startPodmanService();
    fixture = createFixture({ runtime: new DockerRuntime(podman.socketPath, 'auto') });
    await fixture.manager.start();
    sessionId = (await fixture.manager.createSession('conv-podman')).session_id;
    const containers = await fixture.runtime.listManaged();
    containerId =
      containers.find(
        (container) => container.name.startsWith(fixture.prefix) && container.role === 'session',
      )?.id ?? '';
  }, 240_000);

  afterAll(async () => {
    await fixture?.cleanup();
    await podman?.stop();
  }, 60_000);

  const current = () => ({ fixture, sessionId });
  const run = runner(current);

  it('/healthz names the engine, its version, the runtime and the isolation', async () => {
    const health = await fixture.manager.health();
    expect(health).toMatchObject({
      ok: true,
      docker: true,
      engine: 'podman',
      image_present: true,
      isolation: ISOLATION_CONTAINER,
    });
    // Only the runc age check may warn (Debian's runc 1.1.5 carries the fix as a backport).
    expect(health.warnings.filter((warning) => !/^runc \S+ is older/.test(warning))).toEqual([]);
    expect(health.engine_version).toMatch(/^\d+\.\d+/);
    expect(['runc', 'crun']).toContain(health.runtime);
  });

  itKeepsStateAndMovesFiles(current);

  it('no network, read-only root, non-root without capabilities, no new privileges', async () => {
    const result = await run(HARDENING_PROBE);
    expect(result.status, result.error ?? '').toBe('ok');
    // Init: true is Podman's catatonit, mounted as podman-init (Docker's is docker-init).
    expectHardened(result.stdout, 'podman-init');
    // Rootful: the container's uid 0 is the host's.
    expect(result.stdout).toContain("'uid_map': ['0', '0',");
  });

  it('the engine applied the memory, swap, pids and tmpfs limits', async () => {
    const info = await new Docker({ socketPath: podman.socketPath })
      .getContainer(containerId)
      .inspect();
    expect(info.HostConfig).toMatchObject({
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      Memory: 512 * 1024 * 1024,
      PidsLimit: 64,
    });
    const mounts = await run(
      "print([line.split()[1:4] for line in open('/proc/mounts') if line.split()[1] in ('/tmp', '/workspace')])",
    );
    expect(mounts.stdout).toMatch(/\['\/tmp', 'tmpfs', 'rw,nosuid,nodev,noexec[^']*size=32768k/);
    expect(mounts.stdout).toMatch(
      /\['\/workspace', 'tmpfs', 'rw,nosuid,nodev,noexec[^']*size=131072k[^']*uid=1000,gid=1000/,
    );
  });

  itRaisesMemoryErrorKeepingState(current);

  it('a fork bomb is stopped by the pids limit', async () => {
    const bomb = await run(
      'import os\nn = 0\ntry:\n    while n < 1000:\n        if os.fork() == 0:\n            import time; time.sleep(30); os._exit(0)\n        n += 1\nexcept OSError as error:\n    print(n, type(error).__name__)',
      20,
    );
    expect(bomb.status, bomb.error ?? '').toBe('ok');
    const [count = '', error = ''] = bomb.stdout.trim().split(' ');
    expect(Number(count)).toBeLessThan(64);
    expect(error).toBe('BlockingIOError');
  }, 60_000);
});
