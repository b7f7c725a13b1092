/**
 * Sessions on Podman through its Docker-compatible API: the test starts `podman system service`
 * itself (rootful here, as CI runs as root), loads the runner image into Podman's store and runs
 * the real SessionManager on it. What the hardened template asks for is checked from inside the
 * container, since Podman's compat API could accept an option and not apply it.
 */
import Docker from 'dockerode';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerRuntime, ISOLATION_CONTAINER } from '../src/docker-runtime';
import type { Fixture } from './support/docker-fixture';
import { keepaliveName } from '../src/session-manager';
import { createFixture, RUNNER_IMAGE } from './support/docker-fixture';
import type { TestEngine } from './support/engine-fixture';
import { startPodmanService } from './support/engine-fixture';

const never = new AbortController().signal;

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
    // The image keepalive outlives a sidecar on purpose; this engine is the test's own, so it goes
    // too (Podman has no daemon: its conmon would otherwise keep running after the service stops).
    if (podman) {
      await new Docker({ socketPath: podman.socketPath })
        .getContainer(keepaliveName(RUNNER_IMAGE))
        .remove({ force: true })
        .catch(() => undefined);
      await podman.stop();
    }
  }, 60_000);

  const run = (code: string, timeout_s?: number) =>
    fixture.manager.exec(
      { session_id: sessionId, code, ...(timeout_s ? { timeout_s } : {}) },
      never,
    );

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

  it('keeps interpreter state between calls', async () => {
    expect((await run('x = 6 * 7')).status).toBe('ok');
    expect(await run('print(x)')).toMatchObject({ status: 'ok', stdout: '42\n', error: null });
  });

  it('moves files in and out of the workspace', async () => {
    const body = 'a,b\n1,2\n';
    const uploaded = await fixture.manager.upload(
      sessionId,
      'data.csv',
      Readable.from([Buffer.from(body)]),
      body.length,
    );
    expect(uploaded).toMatchObject({ path: 'uploads/data.csv', size: body.length });
    const written = await run(
      "import csv\nrows = list(csv.reader(open('uploads/data.csv')))\nopen('outputs/sum.txt', 'w').write(str(int(rows[1][0]) + int(rows[1][1])))",
    );
    expect(written.outputs.map((output) => output.path)).toContain('outputs/sum.txt');
    const read = await fixture.manager.readPath(sessionId, 'outputs/sum.txt');
    expect(read.kind).toBe('file');
    if (read.kind === 'file') expect(await text(read.body)).toBe('3');
  });

  it('no network, read-only root, non-root without capabilities, no new privileges', async () => {
    const result = await run(
      [
        'import os, socket',
        'checks = {}',
        'try:',
        "    socket.create_connection(('10.0.2.2', 80), timeout=2); checks['connect'] = 'connected'",
        'except OSError as error:',
        "    checks['connect'] = type(error).__name__",
        'try:',
        "    socket.getaddrinfo('example.com', 80); checks['dns'] = 'resolved'",
        'except OSError:',
        "    checks['dns'] = 'failed'",
        "for path in ['/etc/evil', '/usr/evil', '/evil']:",
        '    try:',
        "        open(path, 'w').write('x'); checks[path] = 'written'",
        '    except OSError as error:',
        '        checks[path] = type(error).__name__',
        "checks['uid'] = os.getuid()",
        "status = dict(line.split(':\\t', 1) for line in open('/proc/self/status').read().splitlines() if ':\\t' in line)",
        "checks['capeff'] = status['CapEff'].strip()",
        "checks['nnp'] = status['NoNewPrivs'].strip()",
        "checks['interfaces'] = sorted(name for _, name in socket.if_nameindex())",
        "checks['nofile'] = __import__('resource').getrlimit(__import__('resource').RLIMIT_NOFILE)",
        "checks['core'] = __import__('resource').getrlimit(__import__('resource').RLIMIT_CORE)",
        "checks['pid1'] = open('/proc/1/comm').read().strip()",
        'print(checks)',
      ].join('\n'),
    );
    expect(result.status, result.error ?? '').toBe('ok');
    const checks = result.stdout;
    expect(checks).not.toContain("'connected'");
    expect(checks).toContain("'dns': 'failed'");
    expect(checks).not.toContain("'written'");
    expect(checks).toContain("'uid': 1000");
    expect(checks).toContain("'capeff': '0000000000000000'");
    expect(checks).toContain("'nnp': '1'");
    expect(checks).toContain("'interfaces': ['lo']");
    expect(checks).toContain("'nofile': (4096, 4096)");
    expect(checks).toContain("'core': (0, 0)");
    // Init: true is Podman's catatonit, mounted as podman-init (Docker's is docker-init).
    expect(checks).toContain("'pid1': 'podman-init'");
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

  it('a memory bomb is a MemoryError in the cell; variables survive, the session keeps working', async () => {
    await run('x = 41');
    const bomb = await run(
      'blocks = []\ntry:\n    while True:\n        blocks.append(bytearray(50 * 1024 * 1024))\nfinally:\n    blocks.clear()',
      60,
    );
    expect(bomb.status).toBe('error');
    expect(bomb.error).toContain('MemoryError');
    expect(bomb.worker_restarted).toBe(false);
    expect((await run('print(x + 1)')).stdout).toBe('42\n');
  }, 90_000);

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
