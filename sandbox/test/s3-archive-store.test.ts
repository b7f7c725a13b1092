/**
 * S3ArchiveStore against real S3-compatible servers on 127.0.0.1:
 * - s3rver (a third-party implementation, objects on disk): round trips, pruning by LastModified,
 *   error messages. s3rver 3.7 does NOT verify Signature V4 (it accepts any V4 signature from a
 *   known access key) and its continuation tokens fail on Node 20 (OpenSSL 3), so:
 * - support/sigv4-s3-server.ts, which verifies every signature and body hash and pages
 *   ListObjectsV2: signatures, wrong secrets, pagination.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3ArchiveStoreOptions } from '../src/s3-archive-store';
import { S3ArchiveError, S3ArchiveStore } from '../src/s3-archive-store';
import type { SigV4S3Server } from './support/sigv4-s3-server';
import { startSigV4S3Server } from './support/sigv4-s3-server';

const BUCKET = 'aivory-archives';
const SECRET = 'S3RVER';
const DAY_MS = 24 * 60 * 60 * 1000;

let server: S3rver;
let directory: string;
let endpoint: string;

function store(overrides: Partial<S3ArchiveStoreOptions> = {}): S3ArchiveStore {
  return new S3ArchiveStore({
    endpoint,
    bucket: BUCKET,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: SECRET,
    prefix: 'aivory-sandbox',
    ...overrides,
  });
}

async function readAll(stream: Readable | null): Promise<Buffer> {
  if (stream === null) throw new Error('expected an archive');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Makes the stored object for `key` look `ageMs` old (s3rver reports the file's mtime). */
function age(key: string, ageMs: number): void {
  const [prefix = '', name = ''] = key.split('/');
  const folder = join(directory, BUCKET, prefix);
  const file = readdirSync(folder).find((entry) => entry === `${name}._S3rver_object`);
  if (file === undefined) throw new Error(`no stored object for ${key}`);
  const when = new Date(Date.now() - ageMs);
  utimesSync(join(folder, file), when, when);
}

function hashed(conversationId: string): string {
  return `aivory-sandbox/${createHash('sha256').update(conversationId).digest('hex')}.tar.gz`;
}

async function messageOf(attempt: () => Promise<unknown>): Promise<S3ArchiveError> {
  try {
    await attempt();
  } catch (error) {
    expect(error).toBeInstanceOf(S3ArchiveError);
    return error as S3ArchiveError;
  }
  throw new Error('expected an S3ArchiveError');
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'aivory-s3rver-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  const address = await server.run();
  endpoint = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('S3ArchiveStore against s3rver', () => {
  it('round-trips put / has / get / delete', async () => {
    const archives = store();
    const payload = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
    expect(await archives.has('conv-1')).toBe(false);
    expect(await archives.get('conv-1')).toBeNull();

    const size = await archives.put(
      'conv-1',
      Readable.from([payload.subarray(0, 1000), payload.subarray(1000)]),
    );
    expect(size).toBe(payload.length);
    expect(await archives.has('conv-1')).toBe(true);
    expect((await readAll(await archives.get('conv-1'))).equals(payload)).toBe(true);

    // A second put replaces the first.
    await archives.put('conv-1', Readable.from([Buffer.from('newer')]));
    expect((await readAll(await archives.get('conv-1'))).toString()).toBe('newer');

    await archives.delete('conv-1');
    expect(await archives.has('conv-1')).toBe(false);
    expect(await archives.get('conv-1')).toBeNull();
    await archives.delete('conv-1'); // deleting nothing is fine
  });

  it('keys objects by a hash of the conversation id, so odd ids are safe', async () => {
    const archives = store();
    const id = '../../etc/passwd:weird id/ü';
    await archives.put(id, Readable.from([Buffer.from('x')]));
    age(hashed(id), 0); // throws unless the object is exactly <prefix>/<sha256>.tar.gz
    expect((await readAll(await archives.get(id))).toString()).toBe('x');
    await archives.delete(id);
  });

  it('writes and reads the session index; {} when there is none', async () => {
    const archives = store({ prefix: 'index-test' });
    expect(await archives.readIndex()).toEqual({});
    await archives.writeIndex({ 'container-a': 'conv-a', 'container-b': 'conv-b' });
    expect(await archives.readIndex()).toEqual({
      'container-a': 'conv-a',
      'container-b': 'conv-b',
    });
    await archives.writeIndex({});
    expect(await archives.readIndex()).toEqual({});
  });

  it('lets a second store instance see the first one’s archives and index', async () => {
    await store().put('shared', Readable.from([Buffer.from('from the first')]));
    await store().writeIndex({ c1: 'shared' });
    const other = store();
    expect(await other.has('shared')).toBe(true);
    expect((await readAll(await other.get('shared'))).toString()).toBe('from the first');
    expect(await other.readIndex()).toEqual({ c1: 'shared' });
    // Another prefix is another namespace.
    expect(await store({ prefix: 'elsewhere' }).has('shared')).toBe(false);
    await other.delete('shared');
  });

  it('prunes archives whose LastModified is older than the retention', async () => {
    const archives = store({ prefix: 'prune-test' });
    for (let i = 0; i < 3; i += 1) {
      await archives.put(`old-${i}`, Readable.from([Buffer.from(`old ${i}`)]));
    }
    await archives.put('fresh', Readable.from([Buffer.from('fresh')]));
    await archives.writeIndex({ c: 'fresh' });
    for (let i = 0; i < 3; i += 1) {
      age(hashed(`old-${i}`).replace('aivory-sandbox/', 'prune-test/'), 40 * DAY_MS);
    }

    expect(await archives.prune(30)).toBe(3);
    for (let i = 0; i < 3; i += 1) expect(await archives.has(`old-${i}`)).toBe(false);
    expect(await archives.has('fresh')).toBe(true);
    expect(await archives.readIndex()).toEqual({ c: 'fresh' }); // the index is never pruned
    expect(await archives.prune(30)).toBe(0);

    // `now` far in the future: everything is old.
    expect(await archives.prune(30, Date.now() + 31 * DAY_MS)).toBe(1);
    expect(await archives.has('fresh')).toBe(false);
  });

  it('says when the bucket does not exist', async () => {
    const archives = store({ bucket: 'no-such-bucket' });
    for (const attempt of [
      () => archives.put('conv', Readable.from([Buffer.from('x')])),
      () => archives.get('conv'),
      () => archives.readIndex(),
      () => archives.prune(30),
      () => archives.delete('conv'),
    ]) {
      const error = await messageOf(attempt);
      expect(error.status).toBe(404);
      expect(error.message).toMatch(/bucket "no-such-bucket" does not exist/);
    }
  });

  it('says when the connection is refused', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const secret = 'another-secret-abcdefghijklmnop';
    const error = await messageOf(() =>
      store({ endpoint: `http://127.0.0.1:${port}`, secretAccessKey: secret }).readIndex(),
    );
    expect(error.message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+.*connection refused/);
    expect(error.message).not.toContain(secret);
  });

  it('refuses archives larger than maxArchiveBytes', async () => {
    const archives = store({ maxArchiveBytes: 1000 });
    const error = await messageOf(() => archives.put('big', Readable.from([Buffer.alloc(1001)])));
    expect(error.message).toMatch(/larger than 1000 bytes/);
    expect(await archives.has('big')).toBe(false);
  });

  it('uploads one archive at a time and keeps going after a failed one', async () => {
    const archives = store({ prefix: 'queue-test' });
    const failing = new Readable({
      read() {
        this.destroy(new Error('tar failed'));
      },
    });
    const results = await Promise.allSettled([
      archives.put('q1', Readable.from([Buffer.from('one')])),
      archives.put('q2', failing),
      archives.put('q3', Readable.from([Buffer.from('three')])),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await readAll(await archives.get('q3'))).toString()).toBe('three');
  });
});

describe('S3ArchiveStore against a Signature V4-verifying server', () => {
  let verifying: SigV4S3Server;
  const options = {
    bucket: BUCKET,
    region: 'eu-central-1',
    accessKeyId: 'AKIDVERIFY',
    secretAccessKey: 'verify/secret+key=1234567890',
    prefix: 'team/aivory sandbox',
  };
  const signed = (overrides: Partial<S3ArchiveStoreOptions> = {}): S3ArchiveStore =>
    new S3ArchiveStore({ endpoint: verifying.endpoint, ...options, ...overrides });

  beforeAll(async () => {
    verifying = await startSigV4S3Server({
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      region: options.region,
      buckets: [BUCKET],
      pageSize: 100,
    });
  });

  afterAll(async () => {
    await verifying.close();
  });

  it('signs every request correctly (put / get / has / delete / index / prune)', async () => {
    const archives = signed();
    const payload = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    expect(await archives.put('conv', Readable.from([payload]))).toBe(payload.length);
    expect(await archives.has('conv')).toBe(true);
    expect((await readAll(await archives.get('conv'))).equals(payload)).toBe(true);
    await archives.writeIndex({ container: 'conv' });
    expect(await signed().readIndex()).toEqual({ container: 'conv' });
    expect(await archives.prune(30)).toBe(0);
    await archives.delete('conv');
    expect(await archives.has('conv')).toBe(false);
    expect(verifying.refused).toBe(0);
    const keys = [...(verifying.buckets.get(BUCKET)?.keys() ?? [])];
    expect(keys).toEqual(['team/aivory sandbox/sessions.json']);
  });

  it('refuses a wrong secret with a clear 403 that does not contain the secret', async () => {
    const secret = 'wrong-secret-value-1234567890';
    const archives = signed({ secretAccessKey: secret });
    const before = verifying.refused;
    for (const attempt of [
      () => archives.put('conv', Readable.from([Buffer.from('x')])),
      () => archives.get('conv'),
      () => archives.readIndex(),
      () => archives.prune(30),
      () => archives.delete('conv'),
    ]) {
      const error = await messageOf(attempt);
      expect(error.status).toBe(403);
      expect(error.code).toBe('SignatureDoesNotMatch');
      expect(error.message).toMatch(/access denied/);
      expect(error.message).toContain('SANDBOX_ARCHIVE_S3_SECRET_ACCESS_KEY');
      expect(error.message).not.toContain(secret);
    }
    expect(verifying.refused).toBe(before + 5);
  });

  it('refuses a wrong region or access key with a 403', async () => {
    for (const overrides of [{ region: 'us-east-1' }, { accessKeyId: 'NOBODY' }]) {
      const error = await messageOf(() => signed(overrides).readIndex());
      expect(error.status).toBe(403);
      expect(error.message).not.toContain(options.secretAccessKey);
    }
  });

  it('follows ListObjectsV2 continuation tokens when pruning', async () => {
    const archives = signed({ prefix: 'paging' });
    const refusedBefore = verifying.refused;
    const ids = Array.from({ length: 250 }, (_, i) => `page-${i}`);
    await Promise.all(ids.map((id) => archives.put(id, Readable.from([Buffer.from(id)]))));
    const stored = verifying.buckets.get(BUCKET);
    // Make every other archive old; the list spans three pages of 100.
    ids.forEach((id, i) => {
      const object = stored?.get(hashed(id).replace('aivory-sandbox/', 'paging/'));
      if (object === undefined) throw new Error(`missing ${id}`);
      if (i % 2 === 0) object.lastModified = new Date(Date.now() - 40 * DAY_MS);
    });
    expect(await archives.prune(30)).toBe(125);
    expect(await archives.has('page-0')).toBe(false);
    expect(await archives.has('page-1')).toBe(true);
    expect(await archives.prune(30, Date.now() + 31 * DAY_MS)).toBe(125);
    expect(verifying.refused).toBe(refusedBefore);
  });
});
