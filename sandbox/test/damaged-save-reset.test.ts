/**
 * The user's way out when no save of a workspace can be read (SessionManager.
 * resetDamagedWorkspace, POST /workspaces/reset-damaged), on real Docker with the real runner
 * image: both damaged saves are kept aside byte for byte and the next session starts empty; every
 * case where a save can still be read (or a session is open, or there is no save) is refused and
 * leaves every file as it was. The S3 store keeps damaged objects aside the same way.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalArchiveStore, PREVIOUS_SUFFIX } from '../src/archive-store';
import { S3ArchiveStore } from '../src/s3-archive-store';
import { SandboxError } from '../src/sandbox-service';
import { startSigV4S3Server } from './support/sigv4-s3-server';
import type { Fixture } from './support/docker-fixture';
import { createFixture } from './support/docker-fixture';

const never = new AbortController().signal;
/** Every file under /workspace (its empty directories, uploads/ and outputs/, left out). */
const LIST_FILES = `import os
print(sorted(os.path.relpath(os.path.join(r, f), '/workspace') for r, _, fs in os.walk('/workspace') for f in fs))`;
const fixtures: Fixture[] = [];
function fixture(archives: LocalArchiveStore): Fixture {
  const created = createFixture({ archives });
  fixtures.push(created);
  return created;
}

afterEach(async () => {
  for (const created of fixtures.splice(0)) await created.cleanup();
}, 120_000);

function archivePath(directory: string, conversationId: string): string {
  return join(directory, `${createHash('sha256').update(conversationId).digest('hex')}.tar.gz`);
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

async function run(target: Fixture, sessionId: string, code: string): Promise<string> {
  const result = await target.manager.exec({ session_id: sessionId, code }, never);
  expect(result.status, result.error ?? '').toBe('ok');
  return result.stdout;
}

/** Two saves of the conversation (so a `.prev` exists); the fixture that made them is stopped. */
async function twoSaves(id: string): Promise<{ directory: string; archives: LocalArchiveStore }> {
  const directory = mkdtempSync(join(tmpdir(), 'aivory-reset-'));
  const archives = new LocalArchiveStore(directory);
  const first = fixture(archives);
  await first.manager.start();
  const session = await first.manager.createSession(id);
  await run(first, session.session_id, "open('one.txt', 'w').write('one ' * 5000)");
  await first.manager.settled(session.session_id);
  await run(first, session.session_id, "open('two.txt', 'w').write('two ' * 5000)");
  await first.manager.settled(session.session_id);
  await first.manager.shutdown();
  return { directory, archives };
}

async function refused(target: Fixture, id: string): Promise<string> {
  const error = await target.manager.resetDamagedWorkspace(id).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SandboxError);
  expect((error as SandboxError).code).toBe('not-damaged');
  return (error as SandboxError).message;
}

describe('starting with an empty workspace when no save can be read', () => {
  it('both saves damaged: sessions fail with damaged-save; reset keeps both aside; next starts empty', async () => {
    const { directory, archives } = await twoSaves('conv-both');
    const current = archivePath(directory, 'conv-both');
    truncateSync(current, Math.floor(statSync(current).size / 2));
    truncateSync(current + PREVIOUS_SUFFIX, 100);
    const damaged = readFileSync(current);
    const olderDamaged = readFileSync(current + PREVIOUS_SUFFIX);

    const next = fixture(archives);
    await next.manager.start();
    const failure = await next.manager.createSession('conv-both').catch((error: unknown) => error);
    expect((failure as SandboxError).code).toBe('damaged-save');

    const reset = await next.manager.resetDamagedWorkspace('conv-both');
    expect(reset.conversation_id).toBe('conv-both');
    expect(reset.kept_as).toHaveLength(2);
    const [newest, older] = reset.kept_as as [string, string];
    expect(newest).toMatch(new RegExp(`^${current}\\.damaged-[\\dT-]+Z$`));
    expect(older).toBe(`${newest}-older`);
    expect(readFileSync(newest).equals(damaged)).toBe(true);
    expect(readFileSync(older).equals(olderDamaged)).toBe(true);
    // Dated now, so the retention counts from the day they were set aside.
    expect(Date.now() - statSync(newest).mtimeMs).toBeLessThan(60_000);

    const session = await next.manager.createSession('conv-both');
    expect(session.restored).toBe(false);
    expect(await run(next, session.session_id, LIST_FILES)).toBe('[]\n');
    // Pruning keeps them within the retention, like any archive.
    expect(await archives.prune(30)).toBe(0);
    expect(readFileSync(older).equals(olderDamaged)).toBe(true);
  }, 240_000);

  it('refuses, changing nothing, when a save can be read, there is none, or a session is open', async () => {
    const { directory, archives } = await twoSaves('conv-good');
    const current = archivePath(directory, 'conv-good');
    const next = fixture(archives);
    await next.manager.start();

    let before = files(directory);
    expect(await refused(next, 'conv-good')).toBe(
      'The last save of /workspace can be read; it is restored by the next run; nothing was changed.',
    );
    expect(files(directory)).toEqual(before);

    // The newest damaged but the one before it readable: that one is restored, so no reset.
    truncateSync(current, Math.floor(statSync(current).size / 2));
    before = files(directory);
    expect(await refused(next, 'conv-good')).toBe(
      'An older save of /workspace can be read; it is restored by the next run; nothing was changed.',
    );
    expect(files(directory)).toEqual(before);

    expect(await refused(next, 'conv-never-saved')).toBe(
      'There is no save of /workspace for this conversation; nothing was changed.',
    );

    const session = await next.manager.createSession('conv-good');
    expect(await run(next, session.session_id, LIST_FILES)).toBe("['one.txt', 'two.txt']\n");
    before = files(directory);
    expect(await refused(next, 'conv-good')).toBe(
      'The sandbox session of this conversation is open, so its files were restored; nothing was changed.',
    );
    expect(files(directory)).toEqual(before);
  }, 240_000);
});

describe('keeping damaged saves aside in an S3 bucket', () => {
  it('copies each to its .damaged key, deletes the original, and says where', async () => {
    const server = await startSigV4S3Server({
      accessKeyId: 'AKIDRESET',
      secretAccessKey: 'reset-secret',
      region: 'us-east-1',
      buckets: ['archives'],
    });
    try {
      const archives = new S3ArchiveStore({
        endpoint: server.endpoint,
        bucket: 'archives',
        region: 'us-east-1',
        accessKeyId: 'AKIDRESET',
        secretAccessKey: 'reset-secret',
        prefix: 'sandbox',
      });
      await archives.put('conv-s3', Readable.from([Buffer.from('first')]));
      await archives.put('conv-s3', Readable.from([Buffer.from('second')]));
      const key = `sandbox/${createHash('sha256').update('conv-s3').digest('hex')}.tar.gz`;
      expect(archives.location('conv-s3')).toBe(`${server.endpoint}/archives/${key}`);

      const kept = await archives.keepAsideDamaged('conv-s3', ['current', 'previous'], 0);
      const newest = `${key}.damaged-1970-01-01T00-00-00-000Z`;
      expect(kept).toEqual([
        `${server.endpoint}/archives/${newest}`,
        `${server.endpoint}/archives/${newest}-older`,
      ]);
      const bucket = server.buckets.get('archives');
      expect([...(bucket?.keys() ?? [])].filter((name) => name.startsWith(key)).sort()).toEqual(
        [newest, `${newest}-older`].sort(),
      );
      expect(bucket?.get(newest)?.body.toString()).toBe('second');
      expect(bucket?.get(`${newest}-older`)?.body.toString()).toBe('first');
      expect(await archives.has('conv-s3')).toBe(false);
    } finally {
      await server.close();
    }
  }, 60_000);
});
