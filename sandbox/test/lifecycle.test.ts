/**
 * Session lifecycle on real Docker: idle reaping archives the workspace and a later session for
 * the same conversation restores it (files kept, variables gone, by design); the session limit
 * archives the least recently used idle session; the image keepalive protects the runner image.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepaliveName } from '../src/session-manager';
import type { Fixture } from './support/docker-fixture';
import { createFixture, RUNNER_IMAGE } from './support/docker-fixture';

const never = new AbortController().signal;

describe('session lifecycle', () => {
  let fixture: Fixture;
  let clock = Date.now();

  beforeAll(async () => {
    fixture = createFixture({ idleSeconds: 60, maxSessions: 2, now: () => clock });
    await fixture.manager.start();
  }, 60_000);
  afterAll(async () => {
    await fixture.cleanup();
  }, 60_000);

  const containersOfFixture = async () =>
    (await fixture.runtime.listManaged()).filter((container) =>
      container.name.startsWith(fixture.prefix),
    );

  it('reaps an idle session into an archive and restores its files (not its variables)', async () => {
    const first = await fixture.manager.createSession('conv-reap');
    expect(first).toMatchObject({ created: true, restored: false });
    const wrote = await fixture.manager.exec(
      {
        session_id: first.session_id,
        code: "secret = 'in memory'\nimport os\nos.makedirs('outputs/deep', exist_ok=True)\nopen('outputs/deep/note.txt', 'w').write('kept on disk')\nopen('outputs/blob.bin', 'wb').write(os.urandom(3_000_000))",
      },
      never,
    );
    expect(wrote.status).toBe('ok');

    clock += 30_000;
    expect(await fixture.manager.reapIdle()).toBe(0);
    clock += 31_000;
    expect(await fixture.manager.reapIdle()).toBe(1);
    expect(await containersOfFixture()).toHaveLength(0);
    expect(await fixture.archives.has('conv-reap')).toBe(true);
    await expect(
      fixture.manager.exec({ session_id: first.session_id, code: '1' }, never),
    ).rejects.toThrow(/Unknown session/);

    const again = await fixture.manager.createSession('conv-reap');
    expect(again).toMatchObject({ created: true, restored: true });
    expect(again.session_id).not.toBe(first.session_id);
    const read = await fixture.manager.exec(
      {
        session_id: again.session_id,
        code: "import os\nprint(open('outputs/deep/note.txt').read(), os.path.getsize('outputs/blob.bin'), 'secret' in globals())",
      },
      never,
    );
    expect(read).toMatchObject({ status: 'ok', stdout: 'kept on disk 3000000 False\n' });
  }, 90_000);

  it('a running exec counts as activity: the reaper leaves it alone', async () => {
    const session = await fixture.manager.createSession('conv-busy');
    // exec() marks the session running before its first await, so the reaper below sees it as
    // running whatever the machine's speed: no delay needed.
    const running = fixture.manager.exec(
      { session_id: session.session_id, code: 'import time\ntime.sleep(2)\nprint("done")' },
      never,
    );
    clock += 3_600_000;
    expect(await fixture.manager.reapIdle()).toBe(1); // only conv-reap's idle session
    expect((await running).stdout).toBe('done\n');
    expect((await fixture.manager.createSession('conv-busy')).created).toBe(false);
  }, 60_000);

  it('at the session limit the least recently used idle session is archived to make room', async () => {
    const other = await fixture.manager.createSession('conv-other');
    expect(other.created).toBe(true);
    clock += 1_000;
    await fixture.manager.exec(
      { session_id: other.session_id, code: "open('outputs/other.txt','w').write('x')" },
      never,
    );
    const third = await fixture.manager.createSession('conv-third');
    expect(third.created).toBe(true);
    expect(await fixture.archives.has('conv-busy')).toBe(true);
    expect((await fixture.manager.health()).sessions).toBe(2);
  }, 60_000);

  it('keeps the runner image referenced by a keepalive container', async () => {
    const keepalive = (await fixture.runtime.listManaged()).find(
      (container) => container.name === keepaliveName(RUNNER_IMAGE),
    );
    expect(keepalive?.running).toBe(true);
    let refusal = '';
    try {
      execFileSync('docker', ['image', 'rm', RUNNER_IMAGE], { stdio: 'pipe' });
    } catch (error) {
      refusal = String((error as { stderr?: Buffer }).stderr ?? error);
    }
    expect(refusal).toMatch(/(being used by|must be forced|conflict)/i);
  });
});

describe('warm containers wait with a restore extractor', () => {
  let fixture: Fixture;
  let clock = Date.now();

  beforeAll(async () => {
    fixture = createFixture({ idleSeconds: 60, warmPool: 1, now: () => clock });
    await fixture.manager.start();
  }, 60_000);
  afterAll(async () => {
    await fixture.cleanup();
  }, 60_000);

  /** Whether `tar -x` runs in the container (`docker top`). */
  const extracting = (containerId: string) =>
    /\btar -x\b/.test(execFileSync('docker', ['top', containerId], { encoding: 'utf8' }));

  /** Waits for the pool's next "warm container ready" after the first `skip` ones; its id. */
  async function readyWarmContainer(skip: number): Promise<string> {
    const ready = () =>
      fixture.logs.filter((entry) => entry.message === 'warm container ready').at(skip);
    await expect.poll(() => ready(), { timeout: 60_000 }).toBeDefined();
    return (ready()?.fields as { container: string }).container;
  }

  /** The container serving the conversation, from the saved container → conversation index. */
  const sessionContainer = async (conversationId: string) =>
    Object.entries(await fixture.archives.readIndex()).find(
      ([, entry]) => entry.conversation === conversationId,
    )?.[0];

  it('a new conversation ends the waiting tar; a returning one is restored through it', async () => {
    const warm = await readyWarmContainer(0);
    // The pool adds a container once its tar runs.
    expect(extracting(warm)).toBe(true);
    const first = await fixture.manager.createSession('conv-warm');
    expect(first).toMatchObject({ created: true, restored: false });
    const firstContainer = await sessionContainer('conv-warm');
    expect(firstContainer).toBe(warm);
    await expect.poll(() => extracting(warm)).toBe(false);
    const wrote = await fixture.manager.exec(
      {
        session_id: first.session_id,
        code: "import os\nopen('kept.bin', 'wb').write(os.urandom(2_000_000))\nprint(len(os.listdir('.')))",
      },
      never,
    );
    expect(wrote).toMatchObject({ status: 'ok' });

    clock += 61_000;
    expect(await fixture.manager.reapIdle()).toBe(1);
    const nextWarm = await readyWarmContainer(1);
    expect(extracting(nextWarm)).toBe(true);
    const again = await fixture.manager.createSession('conv-warm');
    expect(again).toMatchObject({ created: true, restored: true });
    expect(await sessionContainer('conv-warm')).toBe(nextWarm);
    // The restore fed the tar that was waiting: none is left running in the container.
    expect(extracting(nextWarm)).toBe(false);
    const read = await fixture.manager.exec(
      { session_id: again.session_id, code: "import os\nprint(os.path.getsize('kept.bin'))" },
      never,
    );
    expect(read).toMatchObject({ status: 'ok', stdout: '2000000\n' });
  }, 120_000);
});
