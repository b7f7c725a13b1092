/**
 * S3ArchiveStore against real S3-compatible servers on 127.0.0.1:
 * - s3rver (a third-party implementation, objects on disk): round trips, pruning by LastModified,
 *   error messages. s3rver 3.7 does NOT verify Signature V4 (it accepts any V4 signature from a
 *   known access key) and its continuation tokens fail on Node 20 (OpenSSL 3), so:
 * - support/sigv4-s3-server.ts, which verifies every signature, body hash and session token, pages
 *   ListObjectsV2 and implements multipart uploads: signatures, wrong secrets, session tokens,
 *   pagination, multipart streaming with bounded memory, retries of injected 503s, aborted uploads.
 * - raw servers that accept and then stall: the request timeouts.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3ArchiveStoreOptions } from '../src/s3-archive-store';
import { S3ArchiveError, S3ArchiveStore } from '../src/s3-archive-store';
import type { SigV4S3Server } from './support/sigv4-s3-server';
import { startSigV4S3Server } from './support/sigv4-s3-server';

const BUCKET = 'aivory-archives';
const SECRET = 'S3RVER';
const DAY_MS = 24 * 60 * 60 * 1000;
const MIB = 1024 * 1024;

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

/**
 * `total` bytes of deterministic, incompressible-looking data in `chunkSize` chunks, generated as
 * it is read (so the source itself holds one chunk); `onChunk` runs before each chunk is made.
 */
function generated(total: number, chunkSize: number, onChunk: () => void = () => {}): Readable {
  let state = 0x9e3779b9;
  const pattern = Buffer.alloc(chunkSize);
  for (let i = 0; i + 4 <= pattern.length; i += 4) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    pattern.writeUInt32LE(state, i);
  }
  let sent = 0;
  return Readable.from(
    (function* chunks() {
      while (sent < total) {
        onChunk();
        // A fresh buffer per chunk, numbered so that no two chunks are alike.
        const chunk = Buffer.from(pattern.subarray(0, Math.min(chunkSize, total - sent)));
        chunk.writeUInt32LE(sent / chunkSize, 0);
        sent += chunk.length;
        yield chunk;
      }
    })(),
  );
}

async function sha256Of(stream: Readable | null): Promise<{ sha256: string; size: number }> {
  if (stream === null) throw new Error('expected an archive');
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
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

  it('keeps generations with s3rver’s CopyObject too, and prunes them by age', async () => {
    const archives = store({ prefix: 'gens' });
    await archives.put('conv', Readable.from([Buffer.from('first')]));
    await archives.put('conv', Readable.from([Buffer.from('second')]));
    expect((await readAll(await archives.get('conv', 'previous'))).toString()).toBe('first');
    expect(await archives.savedAt('conv', 'previous')).toBeLessThanOrEqual(
      (await archives.savedAt('conv', 'current')) as number,
    );
    await archives.setAsideDamaged('conv');
    expect((await readAll(await archives.get('conv'))).toString()).toBe('first');
    const digest = createHash('sha256').update('conv').digest('hex');
    const folder = join(directory, BUCKET, 'gens');
    const stored = readdirSync(folder).filter((name) => name.endsWith('._S3rver_object'));
    expect(stored.length).toBe(3);
    for (const name of stored) age(`gens/${name.replace(/\._S3rver_object$/, '')}`, 40 * DAY_MS);
    expect(stored.every((name) => name.startsWith(digest))).toBe(true);
    expect(await archives.prune(30)).toBe(3);
    expect(await archives.has('conv')).toBe(false);
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
    const index = {
      'container-a': { conversation: 'conv-a', started_at: '2026-12-02T10:00:00.1Z' },
      'container-b': { conversation: 'conv-b', started_at: null },
    };
    await archives.writeIndex(index);
    expect(await archives.readIndex()).toEqual(index);
    await archives.writeIndex({});
    expect(await archives.readIndex()).toEqual({});
  });

  it('lets a second store instance see the first one’s archives and index', async () => {
    await store().put('shared', Readable.from([Buffer.from('from the first')]));
    await store().writeIndex({ c1: { conversation: 'shared', started_at: null } });
    const other = store();
    expect(await other.has('shared')).toBe(true);
    expect((await readAll(await other.get('shared'))).toString()).toBe('from the first');
    expect(await other.readIndex()).toEqual({ c1: { conversation: 'shared', started_at: null } });
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
    await archives.writeIndex({ c: { conversation: 'fresh', started_at: null } });
    for (let i = 0; i < 3; i += 1) {
      age(hashed(`old-${i}`).replace('aivory-sandbox/', 'prune-test/'), 40 * DAY_MS);
    }

    expect(await archives.prune(30)).toBe(3);
    for (let i = 0; i < 3; i += 1) expect(await archives.has(`old-${i}`)).toBe(false);
    expect(await archives.has('fresh')).toBe(true);
    expect(await archives.readIndex()).toEqual({ c: { conversation: 'fresh', started_at: null } }); // the index is never pruned
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
    await archives.writeIndex({ container: { conversation: 'conv', started_at: null } });
    expect(await signed().readIndex()).toEqual({
      container: { conversation: 'conv', started_at: null },
    });
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
  }, 60_000);
  it('streams an archive of unknown length as a multipart upload and reads it back', async () => {
    const archives = signed({ prefix: 'multipart' });
    const before = { ...verifying.multipart };
    const refusedBefore = verifying.refused;
    const expected = await sha256Of(generated(20 * MIB + 12_345, 256 * 1024));
    expect(await archives.put('big', generated(20 * MIB + 12_345, 256 * 1024))).toBe(expected.size);
    expect(verifying.multipart.created).toBe(before.created + 1);
    expect(verifying.multipart.completed).toBe(before.completed + 1);
    expect(verifying.pendingUploads()).toBe(0);
    const object = verifying.buckets
      .get(BUCKET)
      ?.get(hashed('big').replace('aivory-sandbox/', 'multipart/'));
    expect(object?.parts).toBeGreaterThanOrEqual(3);
    expect(object?.sha256).toBe(expected.sha256);
    expect(await sha256Of(await archives.get('big'))).toEqual(expected);
    await archives.delete('big');
    expect(verifying.refused).toBe(refusedBefore);
  }, 60_000);

  it('retries a 503 (and a dropped part) with the SDK’s standard retry', async () => {
    const archives = signed({ prefix: 'retry' });
    const key = hashed('conv').replace('aivory-sandbox/', 'retry/');
    const onKey =
      (method: string): ((request: { method: string; key: string }) => boolean) =>
      (request) =>
        request.method === method && request.key === key;
    const countOf = (method: string): number =>
      verifying.requests.filter((request) => onKey(method)(request)).length;

    verifying.failWith({ when: onKey('PUT'), status: 503, code: 'SlowDown', times: 1 });
    await archives.put('conv', Readable.from([Buffer.from('after a 503')]));
    expect(countOf('PUT')).toBe(2);

    verifying.failWith({ when: onKey('GET'), status: 503, code: 'ServiceUnavailable', times: 1 });
    expect((await readAll(await archives.get('conv'))).toString()).toBe('after a 503');
    expect(countOf('GET')).toBe(2);

    // A part of a multipart upload is retried on its own.
    verifying.failWith({
      when: (request) => request.key === key && request.query.get('partNumber') === '2',
      status: 500,
      code: 'InternalError',
      times: 1,
    });
    const expected = await sha256Of(generated(18 * MIB, 64 * 1024));
    await archives.put('conv', generated(18 * MIB, 64 * 1024));
    expect(await sha256Of(await archives.get('conv'))).toEqual(expected);
    const partTwo = verifying.requests.filter(
      (request) => request.key === key && request.query.get('partNumber') === '2',
    );
    expect(partTwo).toHaveLength(2);
    await archives.delete('conv');
  }, 60_000);

  it('keeps the previous archive when a put fails part-way (the upload is aborted)', async () => {
    const archives = signed({ prefix: 'atomic' });
    await archives.put('conv', Readable.from([Buffer.from('the good archive')]));
    const key = hashed('conv').replace('aivory-sandbox/', 'atomic/');
    const before = { ...verifying.multipart };

    // The tar stream dies after 20 MiB: some parts are already uploaded.
    const healthy = generated(40 * MIB, MIB)[Symbol.asyncIterator]();
    let sent = 0;
    const dying = new Readable({
      read() {
        if (sent >= 20 * MIB) {
          this.destroy(new Error('tar failed'));
          return;
        }
        void healthy.next().then(({ value }: IteratorResult<Buffer>) => {
          sent += value.length;
          this.push(value);
        });
      },
    });
    await expect(archives.put('conv', dying)).rejects.toThrow(/^tar failed$/);
    expect(verifying.multipart.created).toBe(before.created + 1);
    expect(verifying.multipart.aborted).toBe(before.aborted + 1);
    expect(verifying.multipart.completed).toBe(before.completed);
    expect(verifying.pendingUploads()).toBe(0);
    expect((await readAll(await archives.get('conv'))).toString()).toBe('the good archive');

    // A part the server keeps refusing (more often than the retries): an S3ArchiveError.
    verifying.failWith({
      when: (request) => request.key === key && request.query.get('partNumber') === '2',
      status: 500,
      code: 'InternalError',
      times: 10,
    });
    const error = await messageOf(() => archives.put('conv', generated(20 * MIB, MIB)));
    expect(error.status).toBe(500);
    expect(error.code).toBe('InternalError');
    expect(error.message).toContain(verifying.endpoint);
    expect(error.message).toContain(`bucket "${BUCKET}"`);
    expect(error.message).not.toContain(options.secretAccessKey);
    expect(verifying.multipart.aborted).toBe(before.aborted + 2);
    expect(verifying.pendingUploads()).toBe(0);
    expect((await readAll(await archives.get('conv'))).toString()).toBe('the good archive');

    // Too large: refused mid-stream, aborted, the old archive stays.
    const tooLarge = await messageOf(() =>
      signed({ prefix: 'atomic', maxArchiveBytes: 12 * MIB }).put('conv', generated(20 * MIB, MIB)),
    );
    expect(tooLarge.message).toMatch(/larger than 12582912 bytes/);
    expect(verifying.multipart.aborted).toBe(before.aborted + 3);
    expect((await readAll(await archives.get('conv'))).toString()).toBe('the good archive');
    await archives.delete('conv');
  }, 60_000);

  it('keeps the replaced archive as .prev, only once the new stream ended whole', async () => {
    const archives = signed({ prefix: 'generations' });
    const bucket = verifying.buckets.get(BUCKET);
    const keys = () =>
      [...(bucket?.keys() ?? [])]
        .filter((key) => key.startsWith('generations/'))
        .map((key) => key.replace(/^generations\/[0-9a-f]{64}/, 'ARCHIVE'))
        .sort();
    await archives.put('conv', Readable.from([Buffer.from('first')]));
    expect(await archives.get('conv', 'previous')).toBeNull();
    expect(await archives.savedAt('conv', 'previous')).toBeNull();
    const firstSaved = await archives.savedAt('conv', 'current');
    expect(firstSaved).toBeTypeOf('number');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await archives.put('conv', Readable.from([Buffer.from('second')]));
    expect((await readAll(await archives.get('conv'))).toString()).toBe('second');
    expect((await readAll(await archives.get('conv', 'previous'))).toString()).toBe('first');
    // The copy keeps the first archive's save time, not the time it was copied.
    expect(await archives.savedAt('conv', 'previous')).toBe(firstSaved);
    expect(await archives.savedAt('conv', 'current')).toBeGreaterThan(firstSaved as number);
    expect(keys()).toEqual(['ARCHIVE.tar.gz', 'ARCHIVE.tar.gz.prev']);

    // A stream that fails (tar failed, or the verify step threw) touches neither generation.
    const failing = new Readable({
      read() {
        this.push(Buffer.from('half of a thi'));
        this.destroy(new Error('tar exited with 2'));
      },
    });
    await expect(archives.put('conv', failing)).rejects.toThrow(/tar exited with 2/);
    expect((await readAll(await archives.get('conv'))).toString()).toBe('second');
    expect((await readAll(await archives.get('conv', 'previous'))).toString()).toBe('first');

    // A damaged newest: kept aside, the previous one becomes the newest.
    const keptAs = await archives.setAsideDamaged('conv', Date.parse('2026-12-02T18:00:01.5Z'));
    expect(keptAs).toMatch(/^[0-9a-f]{64}\.tar\.gz\.damaged-2026-12-02T18-00-01-500Z$/);
    expect((await readAll(await archives.get('conv'))).toString()).toBe('first');
    expect(keys()).toEqual([
      'ARCHIVE.tar.gz',
      'ARCHIVE.tar.gz.damaged-2026-12-02T18-00-01-500Z',
      'ARCHIVE.tar.gz.prev',
    ]);
    expect(await archives.savedAt('conv', 'current')).toBe(firstSaved);
    // Deleting the conversation removes all three.
    await archives.delete('conv');
    expect(keys()).toEqual([]);
    // Without a previous archive nothing is copied.
    await archives.put('single', Readable.from([Buffer.from('only')]));
    await expect(archives.setAsideDamaged('single')).rejects.toThrow(/no .*\.prev to restore/);
    expect(keys()).toEqual(['ARCHIVE.tar.gz']);
    await archives.delete('single');
  });

  it('uses virtual-hosted URLs (<bucket>.<host>) when path-style is off', async () => {
    const port = new URL(verifying.endpoint).port;
    const seen = verifying.requests.length;
    // The bucket's host name does not resolve here: the request never reaches the server by path.
    const error = await messageOf(() =>
      signed({ endpoint: `http://localhost:${port}`, forcePathStyle: false }).readIndex(),
    );
    expect(error.message).toContain(`http://localhost:${port}`);
    expect(verifying.requests.slice(seen).filter((request) => request.bucket === BUCKET)).toEqual(
      [],
    );
  });
});

describe('S3ArchiveStore with temporary credentials (session token)', () => {
  const token = 'IQoJb3JpZ2luX2VjEXAMPLE/session+token==';
  let tokenServer: SigV4S3Server;
  const base = {
    bucket: BUCKET,
    region: 'us-west-2',
    accessKeyId: 'ASIATEMPORARY',
    secretAccessKey: 'temporary/secret+key',
    prefix: 'sts',
  };

  beforeAll(async () => {
    tokenServer = await startSigV4S3Server({
      accessKeyId: base.accessKeyId,
      secretAccessKey: base.secretAccessKey,
      region: base.region,
      buckets: [BUCKET],
      sessionToken: token,
    });
  });

  afterAll(async () => {
    await tokenServer.close();
  });

  it('signs x-amz-security-token into every request', async () => {
    const archives = new S3ArchiveStore({
      endpoint: tokenServer.endpoint,
      ...base,
      sessionToken: token,
    });
    await archives.put('conv', generated(9 * MIB, MIB)); // multipart requests carry it too
    expect(await archives.has('conv')).toBe(true);
    expect((await sha256Of(await archives.get('conv'))).size).toBe(9 * MIB);
    await archives.writeIndex({ c: { conversation: 'conv', started_at: null } });
    expect(await archives.readIndex()).toEqual({ c: { conversation: 'conv', started_at: null } });
    expect(await archives.prune(30, Date.now() + 31 * DAY_MS)).toBe(1);
    expect(tokenServer.refused).toBe(0);
  });

  it('is refused without the token or with a wrong one, never echoing secrets', async () => {
    for (const sessionToken of [undefined, 'IQoJb3JpZ2luX2VjWRONG/token==']) {
      const archives = new S3ArchiveStore({
        endpoint: tokenServer.endpoint,
        ...base,
        ...(sessionToken === undefined ? {} : { sessionToken }),
      });
      const error = await messageOf(() => archives.readIndex());
      expect(error.status).toBe(403);
      expect(error.code).toBe('InvalidToken');
      expect(error.message).toContain('SANDBOX_ARCHIVE_S3_SESSION_TOKEN');
      expect(error.message).not.toContain(base.secretAccessKey);
      if (sessionToken !== undefined) expect(error.message).not.toContain(sessionToken);
    }
  });
});

describe('S3ArchiveStore memory', () => {
  it('streams a 160 MiB archive in parts without holding it in memory', async () => {
    // Live memory only: garbage collection before each sample, so a loaded machine's lazy
    // collector cannot make the numbers noisy. Buffers are counted in `arrayBuffers`.
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const server = await startSigV4S3Server({
      accessKeyId: 'AKIDMEMORY',
      secretAccessKey: 'memory-secret',
      region: 'us-east-1',
      buckets: [BUCKET],
      keepBodies: false,
    });
    try {
      const archives = new S3ArchiveStore({
        endpoint: server.endpoint,
        bucket: BUCKET,
        region: 'us-east-1',
        accessKeyId: 'AKIDMEMORY',
        secretAccessKey: 'memory-secret',
        prefix: 'memory',
      });
      await archives.writeIndex({}); // loads the SDK and opens a connection first
      const total = 160 * MIB;
      // Each sample is taken after a collection; the memory the upload holds is the highest
      // sample over the lowest reading (before, during or after it): buffers that were live
      // before the upload and freed during it (one CI run had every sample below the reading
      // before) cannot hide what the upload holds or make it look negative.
      const buffers = (): number => {
        collect();
        return process.memoryUsage().arrayBuffers;
      };
      const samples = [buffers()];
      let chunks = 0;
      const source = generated(total, 256 * 1024, () => {
        chunks += 1;
        if (chunks % 16 === 0) samples.push(buffers()); // every 4 MiB
      });
      expect(await archives.put('huge', source)).toBe(total);
      const object = server.buckets
        .get(BUCKET)
        ?.get(hashed('huge').replace('aivory-sandbox/', 'memory/'));
      expect(object?.size).toBe(total);
      expect(object?.parts).toBeGreaterThanOrEqual(20);
      expect(server.multipart.completed).toBe(1);
      // A few 8 MiB parts (in flight, being filled, lib-storage's joined copy; ~35–55 MiB however
      // large the archive) and the source's buffered chunks; the server hashes bodies as they
      // arrive. Well under half of the archive, where buffering it would hold all of it.
      samples.push(buffers());
      expect(samples.length).toBeGreaterThanOrEqual(total / (4 * MIB));
      const held = Math.max(...samples) - Math.min(...samples);
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThan(total / 2);
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('S3ArchiveStore timeouts', () => {
  it('gives up on a server that accepts connections and never answers', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.resume(); // reads the request, never answers
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const secret = 'timeout-secret-abcdefghijklmnop';
      const archives = store({
        endpoint: `http://127.0.0.1:${port}`,
        secretAccessKey: secret,
        idleTimeoutMs: 300,
      });
      for (const attempt of [
        () => archives.readIndex(),
        () => archives.has('conv'),
        () => archives.put('conv', Readable.from([Buffer.from('x')])),
      ]) {
        const error = await messageOf(attempt);
        expect(error.message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+.*no answer in time/);
        expect(error.code).toBe('TimeoutError');
        expect(error.message).not.toContain(secret);
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('fails a download whose body stalls instead of waiting forever', async () => {
    const stalling = createHttpServer((request, response) => {
      response.writeHead(200, { 'content-length': '1000000' });
      response.write(Buffer.alloc(1000)); // then nothing
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    const { port } = stalling.address() as AddressInfo;
    try {
      const archives = store({ endpoint: `http://127.0.0.1:${port}`, idleTimeoutMs: 300 });
      const body = await archives.get('conv');
      await expect(readAll(body)).rejects.toThrow(/timed out/);
    } finally {
      stalling.closeAllConnections();
      await new Promise<void>((resolve) => stalling.close(() => resolve()));
    }
  });
});
