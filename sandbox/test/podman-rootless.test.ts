/**
 * Sessions on rootless Podman: the test runs `podman system service` as its own system user
 * (engine-fixture.ts) and the real SessionManager on that socket. This machine and CI have
 * cgroups v1 and no systemd, where rootless Podman cannot apply memory, pids or CPU limits: it
 * accepts them and ignores them. So besides the hardening (checked from inside, as on rootful
 * Podman), this checks what bounds a session instead: the worker's RLIMIT_DATA (a MemoryError,
 * no cgroup needed) and RLIMIT_NPROC at the pids limit, and that /healthz says so.
 */
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerRuntime } from '../src/docker-runtime';
import { ISOLATION_ROOTLESS } from '../src/engine-policy';
import type { Fixture } from './support/docker-fixture';
import { createFixture } from './support/docker-fixture';
import type { TestEngine } from './support/engine-fixture';
import { startRootlessPodmanService } from './support/engine-fixture';
import {
  expectHardened,
  HARDENING_PROBE,
  itKeepsStateAndMovesFiles,
  itRaisesMemoryErrorKeepingState,
  runner,
} from './support/engine-session-checks';

const never = new AbortController().signal;

describe('sessions on rootless Podman (cgroups v1: no engine limits)', () => {
  let podman: TestEngine;
  let fixture: Fixture;
  let sessionId: string;
  let clock = Date.now();

  beforeAll(async () => {
    podman = await startRootlessPodmanService();
    fixture = createFixture({
      runtime: new DockerRuntime(podman.socketPath, 'auto'),
      idleSeconds: 60,
      now: () => clock,
    });
    await fixture.manager.start();
    sessionId = (await fixture.manager.createSession('conv-rootless')).session_id;
  }, 300_000);

  afterAll(async () => {
    await fixture?.cleanup();
    await podman?.stop();
  }, 60_000);

  const current = () => ({ fixture, sessionId });
  const run = runner(current);

  it('/healthz names Podman, says rootless, and warns which limits the engine cannot apply', async () => {
    const health = await fixture.manager.health();
    expect(health).toMatchObject({
      ok: true,
      docker: true,
      engine: 'podman',
      image_present: true,
      isolation: ISOLATION_ROOTLESS,
    });
    const warnings = health.warnings.filter((warning) => !/^runc \S+ is older/.test(warning));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^Rootless podman cannot limit the memory, processes or CPU of session containers .*RLIMIT_DATA.*RLIMIT_NPROC.*CPU is not limited/,
      ),
    ]);
  });

  itKeepsStateAndMovesFiles(current);

  it('no network, read-only root, uid 1000 without capabilities, no new privileges, RLIMIT_NPROC', async () => {
    const result = await run(HARDENING_PROBE);
    expect(result.status, result.error ?? '').toBe('ok');
    expectHardened(result.stdout, 'podman-init');
    // Set by prlimit, as the engine dropped the template's Ulimits (and cannot limit pids).
    expect(result.stdout).toContain("'nproc': (64, 64)");
    // Rootful Podman maps uid 0 to 0; rootless maps it to the unprivileged engine user.
    expect(result.stdout).toMatch(/'uid_map': \['0', '(?!0')\d+', '1'\]/);
  });

  it('the engine accepted the limits and ignored them (which is why the rlimits matter)', async () => {
    const containerId =
      (await fixture.runtime.listManaged()).find(
        (container) => container.name.startsWith(fixture.prefix) && container.role === 'session',
      )?.id ?? '';
    const info = await new Docker({ socketPath: podman.socketPath })
      .getContainer(containerId)
      .inspect();
    expect(info.HostConfig).toMatchObject({
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      Memory: 0,
      PidsLimit: 0,
    });
    // tmpfs sizes need no cgroup: they hold.
    const mounts = await run(
      "print([line.split()[1:4] for line in open('/proc/mounts') if line.split()[1] in ('/tmp', '/workspace')])",
    );
    expect(mounts.stdout).toMatch(/\['\/tmp', 'tmpfs', 'rw,nosuid,nodev,noexec[^']*size=32768k/);
    expect(mounts.stdout).toMatch(
      /\['\/workspace', 'tmpfs', 'rw,nosuid,nodev,noexec[^']*size=131072k/,
    );
  });

  itRaisesMemoryErrorKeepingState(
    current,
    'a memory bomb is a MemoryError in the cell (RLIMIT_DATA); variables survive',
  );

  it('a fork bomb is stopped by RLIMIT_NPROC, and the session works once its children exit', async () => {
    // The children wait on a pipe the parent closes at the end, so they all exit with the cell.
    const bomb = await run(
      [
        'import os',
        'read_end, write_end = os.pipe()',
        'n = 0',
        'try:',
        '    while n < 1000:',
        '        if os.fork() == 0:',
        '            os.close(write_end); os.read(read_end, 1); os._exit(0)',
        '        n += 1',
        'except OSError as error:',
        '    print(n, type(error).__name__)',
        'os.close(write_end)',
        'for _ in range(n):',
        '    os.wait()',
      ].join('\n'),
      30,
    );
    expect(bomb.status, bomb.error ?? '').toBe('ok');
    const [count = '', error = ''] = bomb.stdout.trim().split(' ');
    expect(Number(count)).toBeGreaterThan(10);
    expect(Number(count)).toBeLessThan(64);
    expect(error).toBe('BlockingIOError');
    expect((await run('print(x + 1)')).stdout).toBe('42\n');
  }, 60_000);

  it('RLIMIT_NPROC is one count for all sessions: while one holds it, another cannot fork', async () => {
    const other = (await fixture.manager.createSession('conv-rootless-other')).session_id;
    const runOther = (code: string) =>
      fixture.manager.exec({ session_id: other, code, timeout_s: 30 }, never);
    // Holds as many children as it can get, taking any that free up, until interrupted.
    const holding = run(
      [
        'import os, time',
        'read_end, write_end = os.pipe()',
        'children = 0',
        'try:',
        '    while True:',
        '        try:',
        '            if children >= 1000:',
        '                time.sleep(0.01); continue',
        '            if os.fork() == 0:',
        '                os.close(write_end); os.read(read_end, 1); os._exit(0)',
        '            children += 1',
        '        except BlockingIOError:',
        '            time.sleep(0.01)',
        'finally:',
        '    os.close(write_end)',
        '    for _ in range(children):',
        '        os.wait()',
      ].join('\n'),
      60,
    );
    // The other session tries to hold four children at once until a fork fails.
    const probe = await runOther(
      [
        'import os',
        'while True:',
        '    read_end, write_end = os.pipe()',
        '    held = []',
        '    try:',
        '        for _ in range(4):',
        '            pid = os.fork()',
        '            if pid == 0:',
        '                os.close(write_end); os.read(read_end, 1); os._exit(0)',
        '            held.append(pid)',
        '    except BlockingIOError:',
        "        print('blocked'); break",
        '    finally:',
        '        os.close(write_end); os.close(read_end)',
        '        for pid in held:',
        '            os.waitpid(pid, 0)',
      ].join('\n'),
    );
    expect(probe).toMatchObject({ status: 'ok', stdout: 'blocked\n' });
    expect(await fixture.manager.interrupt(sessionId)).toEqual({ interrupted: true });
    expect((await holding).error).toContain('KeyboardInterrupt');
    expect(
      await runOther(
        'import os\npid = os.fork()\nif pid == 0: os._exit(0)\nprint(os.waitpid(pid, 0)[1])',
      ),
    ).toMatchObject({ status: 'ok', stdout: '0\n' });
    await fixture.manager.deleteSession(other);
  }, 90_000);

  it('archives an idle workspace and restores it into a new container', async () => {
    expect((await run("open('outputs/kept.txt', 'w').write('on disk')")).status).toBe('ok');
    clock += 61_000;
    expect(await fixture.manager.reapIdle()).toBe(1);
    expect(await fixture.archives.has('conv-rootless')).toBe(true);
    const again = await fixture.manager.createSession('conv-rootless');
    expect(again).toMatchObject({ created: true, restored: true });
    sessionId = again.session_id;
    expect(
      await run("print(open('outputs/kept.txt').read(), open('uploads/data.csv').read() != '')"),
    ).toMatchObject({ status: 'ok', stdout: 'on disk True\n' });
  }, 90_000);
});
