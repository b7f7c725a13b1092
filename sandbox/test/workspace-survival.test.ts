/**
 * Files survive what a user's machine does to a session's container, on real Docker with the real
 * runner image: `docker kill` in the middle of a cell (the files saved after earlier cells come
 * back, the result says so), a container restarted behind the sidecar's back (its empty workspace
 * never replaces the saved one), and a full disk at shutdown (the container is kept with its
 * files, the report says so, the next start saves it or its conversation takes it over).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LocalArchiveStore } from '../src/archive-store';
import { CONTAINER_RESTARTED } from '../src/worker-supervisor';
import type { Fixture } from './support/docker-fixture';
import { createFixture } from './support/docker-fixture';

const never = new AbortController().signal;

/** Writes three files (one of 1 MiB of random bytes, one nested) and prints their digest. */
const WRITE_FILES = `import hashlib, os
os.makedirs('notes/deep', exist_ok=True)
open('notes/deep/plan.txt', 'w').write('step 1: keep every file')
open('data.bin', 'wb').write(os.urandom(1 << 20))
open('outputs/report.csv', 'w').write('a,b\\n1,2\\n')
print(DIGEST())`;

/** Prints one digest over every file's path and bytes under /workspace. */
const DIGEST_FUNCTION = `import hashlib, os
def DIGEST():
    digest = hashlib.sha256()
    for root, dirs, files in sorted(os.walk('/workspace')):
        for name in sorted(files):
            path = os.path.join(root, name)
            digest.update(path.encode() + b'\\0' + open(path, 'rb').read())
    return digest.hexdigest()
`;

const fixtures: Fixture[] = [];
function fixture(overrides: Parameters<typeof createFixture>[0] = {}): Fixture {
  const created = createFixture(overrides);
  fixtures.push(created);
  return created;
}

afterEach(async () => {
  for (const created of fixtures.splice(0)) await created.cleanup();
}, 120_000);

/** The container serving a conversation, from the saved index. */
async function containerOf(archives: LocalArchiveStore, conversationId: string): Promise<string> {
  const entry = Object.entries(await archives.readIndex()).find(
    ([, value]) => value.conversation === conversationId,
  );
  if (!entry) throw new Error(`no container for ${conversationId} in the index`);
  return entry[0];
}

async function writeFiles(target: Fixture, sessionId: string): Promise<string> {
  await target.manager.exec({ session_id: sessionId, code: DIGEST_FUNCTION }, never);
  const wrote = await target.manager.exec({ session_id: sessionId, code: WRITE_FILES }, never);
  expect(wrote.status).toBe('ok');
  return wrote.stdout.trim();
}

async function digestOf(target: Fixture, sessionId: string): Promise<string> {
  const read = await target.manager.exec(
    { session_id: sessionId, code: `${DIGEST_FUNCTION}\nprint(DIGEST())` },
    never,
  );
  expect(read.status).toBe('ok');
  return read.stdout.trim();
}

describe('workspaces survive a dead container', () => {
  it('a cell that changed nothing is not saved; one that wrote a file is', async () => {
    const target = fixture();
    await target.manager.start();
    const session = await target.manager.createSession('conv-quiet');
    const quiet = await target.manager.exec(
      { session_id: session.session_id, code: 'print(6 * 7)' },
      never,
    );
    expect(quiet.stdout).toBe('42\n');
    await target.manager.settled(session.session_id);
    expect(await target.archives.has('conv-quiet')).toBe(false);
    await target.manager.exec(
      { session_id: session.session_id, code: "open('note.txt', 'w').write('x')" },
      never,
    );
    await target.manager.settled(session.session_id);
    expect(await target.archives.has('conv-quiet')).toBe(true);
    expect(target.logs.filter((entry) => entry.message === 'workspace saved')).toHaveLength(1);
  }, 120_000);

  it('docker kill during a cell: the files saved after earlier cells are restored, and said so', async () => {
    const target = fixture();
    await target.manager.start();
    const session = await target.manager.createSession('conv-kill');
    const digest = await writeFiles(target, session.session_id);
    // The cell's changes are saved in the background; wait for that save, as a kill would.
    await target.manager.settled(session.session_id);
    expect(await target.archives.has('conv-kill')).toBe(true);

    const containerId = await containerOf(target.archives, 'conv-kill');
    const running = target.manager.exec(
      {
        session_id: session.session_id,
        code: "import time\nopen('/tmp/started', 'w').close()\ntime.sleep(120)",
      },
      never,
    );
    await expect
      .poll(
        () =>
          execFileSync('docker', ['exec', containerId, 'ls', '/tmp'], {
            encoding: 'utf8',
          }).includes('started'),
        { timeout: 30_000 },
      )
      .toBe(true);
    execFileSync('docker', ['kill', containerId]);

    const result = await running;
    expect(result.status).toBe('error');
    expect(result.error).toBe(CONTAINER_RESTARTED);
    expect(result.worker_restarted).toBe(true);
    expect(result.workspace_notice).toMatch(
      /^\/workspace was restored from its last save of \d{4}-\d\d-\d\dT[\d:.]+Z; files changed after it are lost\.$/,
    );
    // Every file written before is back, byte for byte, and the session goes on.
    expect(await digestOf(target, session.session_id)).toBe(digest);

    // The save taken after the restore holds the files too: a later session restores them.
    await target.manager.settled(session.session_id);
    expect(await target.manager.reapIdle()).toBe(0);
    await target.manager.shutdown();
    const again = fixture({ namePrefix: target.prefix, archives: target.archives });
    await again.manager.start();
    const next = await again.manager.createSession('conv-kill');
    expect(next.restored).toBe(true);
    expect(await digestOf(again, next.session_id)).toBe(digest);
  }, 180_000);

  it('a container restarted behind the sidecar never saves its empty workspace over the files', async () => {
    let clock = Date.now();
    const directory = mkdtempSync(join(tmpdir(), 'aivory-archives-'));
    const archives = new LocalArchiveStore(directory);
    const target = fixture({ archives, idleSeconds: 60, now: () => clock });
    await target.manager.start();
    const session = await target.manager.createSession('conv-restart');
    const digest = await writeFiles(target, session.session_id);
    await target.manager.settled(session.session_id);
    const archiveName = readdirSync(directory).find((name) => name.endsWith('.tar.gz'));
    const archivePath = join(directory, archiveName ?? 'missing');
    const saved = readFileSync(archivePath);

    execFileSync('docker', ['restart', '-t', '0', await containerOf(archives, 'conv-restart')]);
    clock += 61_000;
    // Reaped: the empty workspace is not saved; the container goes; the archive is unchanged.
    expect(await target.manager.reapIdle()).toBe(1);
    expect(readFileSync(archivePath).equals(saved)).toBe(true);
    expect(target.logs.map((entry) => entry.message)).toContain(
      'workspace lost with its container; the last save is kept',
    );
    const next = await target.manager.createSession('conv-restart');
    expect(next.restored).toBe(true);
    expect(await digestOf(target, next.session_id)).toBe(digest);
  }, 180_000);
});

/**
 * A store whose writes never finish: a stand-in for a hung network disk or bucket (no such fault
 * can be made here without one). Reads work, so a session opens normally.
 */
class HungStore extends LocalArchiveStore {
  override put(): Promise<number> {
    return new Promise(() => undefined);
  }

  override putWith(): Promise<number> {
    return new Promise(() => undefined);
  }
}

describe('a workspace that cannot be saved at shutdown', () => {
  it('a save that hangs does not hold up the stop: the container is kept and reported', async () => {
    const archives = new HungStore(mkdtempSync(join(tmpdir(), 'aivory-hung-')));
    const target = fixture({ archives, shutdownSaveMs: 2_000 });
    await target.manager.start();
    const session = await target.manager.createSession('conv-hung');
    await writeFiles(target, session.session_id);
    const containerId = await containerOf(archives, 'conv-hung');
    const report = await target.manager.shutdown();
    expect(report.unsaved).toEqual([
      {
        conversation_id: 'conv-hung',
        error: 'saving did not finish within 2 s',
        container_id: containerId,
        kept_since: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      },
    ]);
    expect(
      execFileSync('docker', ['inspect', '-f', '{{.State.Running}}', containerId], {
        encoding: 'utf8',
      }).trim(),
    ).toBe('true');
  }, 120_000);

  const mounts: string[] = [];
  afterAll(() => {
    for (const mount of mounts) execFileSync('umount', [mount]);
  });

  it('keeps its container with the files; the next start takes it over, then saves it', async () => {
    // A 256 KiB disk holds the session index but not 1 MiB of random bytes.
    const directory = mkdtempSync(join(tmpdir(), 'aivory-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', directory]);
    mounts.push(directory);
    mkdirSync(join(directory, 'archives'));
    const archives = new LocalArchiveStore(join(directory, 'archives'));
    const first = fixture({ archives });
    await first.manager.start();
    const session = await first.manager.createSession('conv-full');
    const digest = await writeFiles(first, session.session_id);
    await first.manager.settled(session.session_id);
    const containerId = await containerOf(archives, 'conv-full');

    const report = await first.manager.shutdown();
    expect(report.unsaved).toEqual([
      {
        conversation_id: 'conv-full',
        error: expect.stringMatching(/ENOSPC|no space left/i),
        container_id: containerId,
        kept_since: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      },
    ]);
    expect(first.logs.map((entry) => entry.message)).toContain(
      'saving a workspace failed; its container is kept',
    );
    // The index says since when and why (what `aivory doctor` lists).
    const keptEntry = (await archives.readIndex())[containerId];
    expect(keptEntry?.kept).toEqual({
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      error: expect.stringMatching(/ENOSPC|no space left/i),
    });
    expect(
      execFileSync('docker', ['inspect', '-f', '{{.State.Running}}', containerId], {
        encoding: 'utf8',
      }).trim(),
    ).toBe('true');

    // Next start, disk still full: the container stays, and health says why.
    const second = fixture({ archives, namePrefix: first.prefix });
    await second.manager.start();
    // Said once, as a workspace (what `aivory doctor` lists), not again among the warnings.
    const health = await second.manager.health();
    expect(health.unsaved).toEqual([
      {
        conversation_id: 'conv-full',
        error: expect.stringMatching(/ENOSPC|no space left/i),
        container_id: containerId,
        kept_since: keptEntry?.kept?.since,
      },
    ]);
    expect(health.warnings.join('\n')).not.toContain('conv-full');
    // Kept again at this start: still since the first time.
    expect((await archives.readIndex())[containerId]?.kept?.since).toBe(keptEntry?.kept?.since);
    // Its conversation takes the container over: the files are there.
    const resumed = await second.manager.createSession('conv-full');
    expect(resumed).toMatchObject({ created: true, restored: true });
    expect(await digestOf(second, resumed.session_id)).toBe(digest);

    // Space again: shutdown saves it and removes the container; a later session restores it.
    execFileSync('mount', ['-o', 'remount,size=64m', directory]);
    expect((await second.manager.shutdown()).unsaved).toEqual([]);
    expect(
      execFileSync('docker', ['ps', '-aq', '--filter', `id=${containerId}`], {
        encoding: 'utf8',
      }).trim(),
    ).toBe('');
    const third = fixture({ archives, namePrefix: first.prefix });
    await third.manager.start();
    const restored = await third.manager.createSession('conv-full');
    expect(restored.restored).toBe(true);
    expect(await digestOf(third, restored.session_id)).toBe(digest);
  }, 240_000);
});
