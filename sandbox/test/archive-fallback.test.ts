/**
 * A damaged last save: the archive is truncated on disk (as a crash of the disk or a bad copy
 * would leave it) and the next session, on real Docker with the real runner image, restores the
 * save before it, says so in `workspace_notice`, and keeps the damaged file aside. When the older
 * save is damaged too (or there is none), opening fails with a clear error and no file is touched.
 * The host-side check that tells damage from other restore failures is tested on archives of
 * each stored format (zstd, gzip, plain tar), whole and cut short.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalArchiveStore, PREVIOUS_SUFFIX } from '../src/archive-store';
import { DockerRuntime } from '../src/docker-runtime';
import { S3ArchiveStore } from '../src/s3-archive-store';
import { WorkspaceArchiver } from '../src/workspace-archiver';
import { startSigV4S3Server } from './support/sigv4-s3-server';
import type { Fixture } from './support/docker-fixture';
import { createFixture } from './support/docker-fixture';

const never = new AbortController().signal;

const fixtures: Fixture[] = [];
function fixture(overrides: Parameters<typeof createFixture>[0] = {}): Fixture {
  const created = createFixture(overrides);
  fixtures.push(created);
  return created;
}

afterEach(async () => {
  for (const created of fixtures.splice(0)) await created.cleanup();
}, 120_000);

/** The archive file of a conversation in a local store's directory. */
function archivePath(directory: string, conversationId: string): string {
  const digest = createHash('sha256').update(conversationId).digest('hex');
  return join(directory, `${digest}.tar.gz`);
}

/** name → sha256 of every file in the directory but the index. */
function files(directory: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(directory)
      .filter((name) => name !== 'sessions.json')
      .map((name) => [
        name.replace(/^[0-9a-f]{64}/, 'ARCHIVE'),
        createHash('sha256')
          .update(readFileSync(join(directory, name)))
          .digest('hex'),
      ]),
  );
}

async function run(target: Fixture, sessionId: string, code: string) {
  const result = await target.manager.exec({ session_id: sessionId, code }, never);
  expect(result.status, result.error ?? '').toBe('ok');
  return result;
}

const LIST = `import os
print(sorted((p, open(os.path.join('/workspace', p)).read().count('one')) for p in os.listdir('/workspace') if p.endswith('.txt')))`;

/**
 * Two saves of conversation `id` in the fixture's store: first `first.txt`, then also
 * `second.txt` (text compresses, so these archives are zstd). Returns the store's directory.
 */
async function twoSaves(id: string): Promise<{ directory: string; archives: LocalArchiveStore }> {
  const directory = mkdtempSync(join(tmpdir(), 'aivory-damaged-'));
  const archives = new LocalArchiveStore(directory);
  const first = fixture({ archives });
  await first.manager.start();
  const session = await first.manager.createSession(id);
  await run(first, session.session_id, "open('first.txt', 'w').write('one ' * 5000)");
  await first.manager.settled(session.session_id);
  await run(first, session.session_id, "open('second.txt', 'w').write('two ' * 5000)");
  await first.manager.settled(session.session_id);
  expect(Object.keys(files(directory)).sort()).toEqual([
    'ARCHIVE.tar.gz',
    `ARCHIVE.tar.gz${PREVIOUS_SUFFIX}`,
  ]);
  return { directory, archives };
}

describe('a last save that cannot be read', () => {
  it('restores the save before it, says so, and keeps the damaged file aside', async () => {
    const { directory, archives } = await twoSaves('conv-damaged');
    const current = archivePath(directory, 'conv-damaged');
    const previous = current + PREVIOUS_SUFFIX;
    truncateSync(current, Math.floor(statSync(current).size / 2));
    const damagedBytes = readFileSync(current);
    const previousBytes = readFileSync(previous);
    const previousSavedAt = new Date(statSync(previous).mtimeMs).toISOString();

    const next = fixture({ archives });
    await next.manager.start();
    const session = await next.manager.createSession('conv-damaged');
    expect(session.restored).toBe(true);
    const listed = await run(next, session.session_id, LIST);
    // Only the older save's file, whole; nothing half-unpacked from the damaged one.
    expect(listed.stdout).toBe("[('first.txt', 5000)]\n");
    expect(listed.workspace_notice).toBe(
      `/workspace was restored from an older save of ${previousSavedAt} because the last save could not be read; files changed after it are lost.`,
    );
    // Said once, not on every run after.
    const again = await run(next, session.session_id, 'print(1)');
    expect(again.workspace_notice).toBeUndefined();

    // The damaged archive is kept aside, byte for byte; the older save is the newest now.
    const names = readdirSync(directory);
    const damaged = names.filter((name) => /\.tar\.gz\.damaged-[\dTZ-]+$/.test(name));
    expect(damaged).toHaveLength(1);
    expect(readFileSync(join(directory, damaged[0] as string)).equals(damagedBytes)).toBe(true);
    expect(readFileSync(current).equals(previousBytes)).toBe(true);
    expect(next.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'the last save could not be read; the save before it was restored',
      }),
    );
  }, 240_000);

  it('both saves damaged: a clear error, and every file is left as it was', async () => {
    const { directory, archives } = await twoSaves('conv-both');
    const current = archivePath(directory, 'conv-both');
    truncateSync(current, Math.floor(statSync(current).size / 2));
    truncateSync(current + PREVIOUS_SUFFIX, 100);
    const before = files(directory);

    const next = fixture({ archives });
    await next.manager.start();
    await expect(next.manager.createSession('conv-both')).rejects.toThrow(
      /^Restoring the archived workspace failed: the last save of \/workspace could not be read \(.+\), and restoring the older save failed too \(.+\); both saves are kept as they are \(\/.+\/[0-9a-f]{64}\.tar\.gz\)$/,
    );
    expect(files(directory)).toEqual(before);
  }, 240_000);

  it('no older save: a clear error, and the damaged save is kept', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'aivory-damaged-'));
    const archives = new LocalArchiveStore(directory);
    const first = fixture({ archives });
    await first.manager.start();
    const session = await first.manager.createSession('conv-single');
    await run(first, session.session_id, "open('only.txt', 'w').write('x ' * 5000)");
    await first.manager.settled(session.session_id);
    const current = archivePath(directory, 'conv-single');
    truncateSync(current, Math.floor(statSync(current).size / 2));
    const before = files(directory);

    const next = fixture({ archives });
    await next.manager.start();
    await expect(next.manager.createSession('conv-single')).rejects.toThrow(
      /the last save of \/workspace could not be read \(.+\) and there is no older save; the damaged save is kept \(\/.+\/[0-9a-f]{64}\.tar\.gz\)$/,
    );
    expect(files(directory)).toEqual(before);
  }, 240_000);
});

describe('a last save in an S3 bucket that cannot be read', () => {
  it('restores the save before it from .prev, says so, and keeps the damaged object', async () => {
    const server = await startSigV4S3Server({
      accessKeyId: 'AKIDFALLBACK',
      secretAccessKey: 'fallback-secret',
      region: 'us-east-1',
      buckets: ['archives'],
    });
    try {
      const archives = new S3ArchiveStore({
        endpoint: server.endpoint,
        bucket: 'archives',
        region: 'us-east-1',
        accessKeyId: 'AKIDFALLBACK',
        secretAccessKey: 'fallback-secret',
        prefix: 'sandbox',
      });
      const first = fixture({ archives });
      await first.manager.start();
      const session = await first.manager.createSession('conv-s3');
      await run(first, session.session_id, "open('first.txt', 'w').write('one ' * 5000)");
      await first.manager.settled(session.session_id);
      await run(first, session.session_id, "open('second.txt', 'w').write('two ' * 5000)");
      await first.manager.settled(session.session_id);

      const bucket = server.buckets.get('archives');
      const digest = createHash('sha256').update('conv-s3').digest('hex');
      const key = `sandbox/${digest}.tar.gz`;
      const stored = bucket?.get(key);
      if (!stored) throw new Error('no archive in the bucket');
      const damagedBody = stored.body.subarray(0, Math.floor(stored.body.length / 2));
      bucket?.set(key, { ...stored, body: damagedBody, size: damagedBody.length });
      const previousSavedAt = await archives.savedAt('conv-s3', 'previous');

      const next = fixture({ archives });
      await next.manager.start();
      const opened = await next.manager.createSession('conv-s3');
      const listed = await run(next, opened.session_id, LIST);
      expect(listed.stdout).toBe("[('first.txt', 5000)]\n");
      expect(listed.workspace_notice).toBe(
        `/workspace was restored from an older save of ${new Date(previousSavedAt as number).toISOString()} because the last save could not be read; files changed after it are lost.`,
      );
      const damagedKeys = [...(bucket?.keys() ?? [])].filter((name) =>
        name.startsWith(`${key}.damaged-`),
      );
      expect(damagedKeys).toHaveLength(1);
      expect(bucket?.get(damagedKeys[0] as string)?.body.equals(damagedBody)).toBe(true);
    } finally {
      for (const created of fixtures.splice(0)) await created.cleanup();
      await server.close();
    }
  }, 240_000);
});

describe('telling a damaged archive from a good one', () => {
  /** A real tar of a few files (one larger than a block, one empty), made by the host's tar. */
  function tarOfFiles(): Buffer {
    const source = mkdtempSync(join(tmpdir(), 'aivory-tar-'));
    mkdirSync(join(source, 'sub'));
    writeFileSync(join(source, 'sub', 'a.txt'), 'alpha '.repeat(2000));
    writeFileSync(join(source, 'empty'), '');
    writeFileSync(join(source, 'b.bin'), Buffer.alloc(3000, 7));
    return execFileSync('tar', ['-c', '-C', source, '.'], { maxBuffer: 16 << 20 });
  }

  const encodings: Record<string, (tar: Buffer) => Buffer> = {
    tar: (tar) => tar,
    gzip: (tar) => gzipSync(tar),
    zstd: (tar) => zstdCompressSync(tar),
  };

  for (const [format, encode] of Object.entries(encodings)) {
    it(`${format}: whole reads as good; cut short or overwritten reads as damaged`, async () => {
      const archives = new LocalArchiveStore(mkdtempSync(join(tmpdir(), 'aivory-check-')));
      const archiver = new WorkspaceArchiver(new DockerRuntime('/nonexistent.sock'), archives);
      const whole = encode(tarOfFiles());
      await archives.put('good', Readable.from([whole]));
      expect(await archiver.damageOf('good', 'current')).toBeNull();
      expect(await archiver.damageOf('missing', 'current')).toBeNull();

      const tar = tarOfFiles();
      // Cut inside the second entry's data, and cut after only half a header.
      for (const cut of [1024 + 700, 256]) {
        await archives.put('cut', Readable.from([encode(tar.subarray(0, cut))]));
        expect(await archiver.damageOf('cut', 'current')).toMatch(/./);
      }
      // The encoded bytes themselves cut short (what a truncated file is).
      await archives.put('short', Readable.from([whole.subarray(0, Math.floor(whole.length / 2))]));
      expect(await archiver.damageOf('short', 'current')).toMatch(/./);
      // A header overwritten with other bytes.
      const overwritten = Buffer.from(tar);
      overwritten.fill(0x41, 0, 100);
      await archives.put('overwritten', Readable.from([encode(overwritten)]));
      expect(await archiver.damageOf('overwritten', 'current')).toMatch(/checksum/);
    });
  }
});
