/**
 * Workspace archives in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, Garage, R2, …), with
 * the same semantics as LocalArchiveStore, through the AWS SDK (`@aws-sdk/client-s3` for the
 * requests, `@aws-sdk/lib-storage` for uploads): Signature V4, session tokens, the SDK's standard
 * retries (3 attempts, backoff; 5xx, throttling and dropped connections are retried), any endpoint.
 * URLs are path-style (`<endpoint>/<bucket>/<key>`, which every S3-compatible server accepts)
 * unless `forcePathStyle` is false (virtual-hosted, `<bucket>.<host>`, as AWS prefers).
 *
 * Start-up: the SDK is a large module graph and the sidecar starts inside the app's main process,
 * so it is imported on the first request of an S3 store, never by importing this file.
 *
 * Keys: `<prefix>/<sha256(conversationId)>.tar.gz` (no id can name a key; the name stays
 * `.tar.gz` whatever the archive's bytes are, so existing buckets keep working) and the index at
 * `<prefix>/sessions.json`. Archives are opaque bytes here.
 *
 * Memory: `put` streams the archive (of unknown length) through a lib-storage `Upload`: a part of
 * PART_SIZE (8 MiB, more only when `maxArchiveBytes` needs more than 10,000 parts) is filled, up to
 * PART_QUEUE parts are sent at once, and backpressure holds the tar stream back meanwhile, so one
 * upload holds a few parts (those in flight, the one being filled and lib-storage's joined copy of
 * it: measured under 60 MiB with 8 MiB parts), however large the archive. An archive smaller than
 * one part is one PutObject. Puts still run one at a time (the others wait, their tar streams held
 * back), so shutdown — which archives every session at once — holds one upload's parts, not
 * `SANDBOX_MAX_SESSIONS` of them. `get` returns the response body as a stream.
 *
 * Atomicity: a multipart upload replaces the object only at CompleteMultipartUpload; when the
 * stream or a part fails, the upload is aborted and the previous archive stays.
 *
 * Generations, as in the local store: once the new archive's stream has ended whole (tar exited 0
 * and the archiver's verify step passed: only then does the stream end), and before the upload is
 * completed, the archive it replaces is copied server-side (CopyObject, metadata kept) to
 * `<key>.prev`. A stream that fails never touches `.prev`; an upload that fails after the copy
 * leaves the newest archive as it was and `.prev` equal to it. Each upload carries its save time
 * (`x-amz-meta-saved-at`), so `.prev` tells when it was saved, not when it was copied. CopyObject
 * takes at most 5 GiB: a larger archive is not copied and the stale `.prev` is deleted (no
 * generation rather than a wrong one). `setAsideDamaged` copies the newest to
 * `<key>.damaged-<time>`, then `.prev` over the newest.
 *
 * Checksums: the SDK's default CRC32 checksums (and the aws-chunked bodies they bring) are only
 * sent where an operation requires them, because many S3-compatible servers refuse them. Pruning
 * deletes with DeleteObject, one key per request, for the same reason (DeleteObjects needs a
 * checksum header that older servers do not accept).
 *
 * Timeouts: a connection must open within 10 s and a request that goes SOCKET_IDLE_TIMEOUT_MS
 * without a byte either way fails (then is retried): a hung server cannot stall an archive or a
 * restore forever, while a long upload that keeps moving is never cut.
 *
 * Errors name the endpoint, bucket and the S3 error code, never the secret key or session token.
 */
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import type { ArchiveStore, Generation } from './archive-store';
import type { IndexEntry } from './archive-store';
import {
  ARCHIVE_NAME,
  DAMAGED_SUFFIX,
  damagedName,
  keptDamagedName,
  olderFirst,
  parseSessionIndex,
  PREVIOUS_SUFFIX,
} from './archive-store';
import type { S3ArchiveConfig } from './config';

const DAY_MS = 24 * 60 * 60 * 1000;
const MIB = 1024 * 1024;
const INDEX_FILE = 'sessions.json';
const ARCHIVE_SUFFIX = '.tar.gz';
/** S3 multipart limits: at most 10,000 parts, each but the last at least 5 MiB. */
const MAX_PARTS = 10_000;
const PART_SIZE = 8 * MIB;
/** Parts of one upload in flight at once. */
const PART_QUEUE = 2;
/** Without a limit from the caller: what 10,000 parts of PART_SIZE hold (~78 GiB). */
const DEFAULT_MAX_ARCHIVE_BYTES = MAX_PARTS * PART_SIZE;
const CONNECT_TIMEOUT_MS = 10_000;
/** A request (body included) with no traffic for this long fails. */
const SOCKET_IDLE_TIMEOUT_MS = 60_000;
const MAX_ATTEMPTS = 3;
/** The largest object one CopyObject copies. */
const MAX_COPY_BYTES = 5 * 1024 * MIB;
/** The metadata key (x-amz-meta-saved-at) holding an archive's save time. */
const SAVED_AT = 'saved-at';
/** DeleteObject requests in flight at once while pruning. */
const PRUNE_CONCURRENCY = 4;

/** The bucket settings (see S3ArchiveConfig; path-style unless told otherwise), plus limits. */
export interface S3ArchiveStoreOptions extends Omit<S3ArchiveConfig, 'forcePathStyle'> {
  forcePathStyle?: boolean;
  /** Larger archives are refused (and their upload aborted). Also sets the part size. */
  maxArchiveBytes?: number;
  /** A request with no traffic for this long fails (default 60 s); tests shorten it. */
  idleTimeoutMs?: number;
}

/** An S3 request failed; the message says what to check and never contains the secret key. */
export class S3ArchiveError extends Error {
  readonly status: number | null;
  readonly code: string | null;

  constructor(message: string, status: number | null = null, code: string | null = null) {
    super(message);
    this.name = 'S3ArchiveError';
    this.status = status;
    this.code = code;
  }
}

interface Sdk {
  s3: typeof ClientS3;
  storage: typeof LibStorage;
}

let sdkLoading: Promise<Sdk> | null = null;

/** The AWS SDK, imported once, on first use (see the header: start-up cost). */
function loadSdk(): Promise<Sdk> {
  sdkLoading ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(
    ([s3, storage]) => ({ s3, storage }),
  );
  return sdkLoading;
}

/** What the SDK's service errors carry (S3ServiceException and its subclasses). */
interface ServiceErrorShape {
  name: string;
  message: string;
  $metadata: { httpStatusCode?: number };
}

function isServiceError(error: unknown): error is ServiceErrorShape {
  return (
    error instanceof Error &&
    typeof (error as Partial<ServiceErrorShape>).$metadata === 'object' &&
    (error as Partial<ServiceErrorShape>).$metadata !== null
  );
}

export class S3ArchiveStore implements ArchiveStore {
  private readonly endpoint: URL;
  private readonly options: S3ArchiveStoreOptions;
  private readonly maxArchiveBytes: number;
  private readonly partSize: number;
  private client: Promise<{ sdk: Sdk; client: ClientS3.S3Client }> | null = null;
  /** Serialises puts so that only one upload's parts are in memory at a time. */
  private putQueue: Promise<unknown> = Promise.resolve();

  constructor(options: S3ArchiveStoreOptions) {
    this.endpoint = new URL(options.endpoint);
    if (this.endpoint.protocol !== 'http:' && this.endpoint.protocol !== 'https:') {
      throw new S3ArchiveError('The S3 endpoint must be an http:// or https:// URL');
    }
    this.options = { ...options, prefix: options.prefix.replace(/^\/+|\/+$/g, '') };
    this.maxArchiveBytes = options.maxArchiveBytes ?? DEFAULT_MAX_ARCHIVE_BYTES;
    this.partSize = Math.max(PART_SIZE, Math.ceil(this.maxArchiveBytes / MAX_PARTS));
  }

  /** Where the store points, for logs: endpoint, bucket and prefix (no credentials). */
  describe(): string {
    return `${this.endpointLabel()}/${this.options.bucket}/${this.options.prefix}`;
  }

  private sdkClient(): Promise<{ sdk: Sdk; client: ClientS3.S3Client }> {
    this.client ??= loadSdk().then((sdk) => {
      const { region, accessKeyId, secretAccessKey, sessionToken } = this.options;
      const client = new sdk.s3.S3Client({
        endpoint: this.endpointLabel(),
        region,
        forcePathStyle: this.options.forcePathStyle ?? true,
        credentials: {
          accessKeyId,
          secretAccessKey,
          ...(sessionToken === undefined ? {} : { sessionToken }),
        },
        maxAttempts: MAX_ATTEMPTS,
        retryMode: 'standard',
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestHandler: {
          connectionTimeout: CONNECT_TIMEOUT_MS,
          socketTimeout: this.options.idleTimeoutMs ?? SOCKET_IDLE_TIMEOUT_MS,
        },
      });
      return { sdk, client };
    });
    return this.client;
  }

  private keyFor(name: string): string {
    return this.options.prefix === '' ? name : `${this.options.prefix}/${name}`;
  }

  private archiveKey(conversationId: string, generation: Generation = 'current'): string {
    const digest = createHash('sha256').update(conversationId).digest('hex');
    const suffix = generation === 'previous' ? PREVIOUS_SUFFIX : '';
    return this.keyFor(`${digest}${ARCHIVE_SUFFIX}${suffix}`);
  }

  async put(conversationId: string, archive: Readable): Promise<number> {
    // Record an early failure of a waiting stream instead of letting it go unhandled.
    let earlyError: unknown = null;
    const onError = (error: unknown): void => {
      earlyError ??= error;
    };
    archive.on('error', onError);
    const turn = this.putQueue.then(async () => {
      if (earlyError !== null) throw earlyError;
      const key = this.archiveKey(conversationId);
      return this.upload(key, archive, () => this.keepAsPrevious(key));
    });
    this.putQueue = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      archive.off('error', onError);
    }
  }

  /**
   * Streams `archive` to `key` (multipart past one part); its size. `beforeEnd` runs once the
   * whole stream was read (it ended without an error), before the upload is completed.
   */
  private async upload(
    key: string,
    archive: Readable,
    beforeEnd: () => Promise<void> = () => Promise.resolve(),
  ): Promise<number> {
    const { sdk, client } = await this.sdkClient();
    let size = 0;
    const limit = this.maxArchiveBytes;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > limit) {
          done(
            new S3ArchiveError(
              `The archive is larger than ${limit} bytes, the most the S3 archive store uploads`,
            ),
          );
          return;
        }
        done(null, chunk);
      },
      flush(done) {
        beforeEnd().then(
          () => done(),
          (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
        );
      },
    });
    // The source's errors reach the upload through `counted`, which fails with them; they are
    // rethrown as they are (a failed tar is not an S3 problem).
    let sourceError: Error | null = null;
    const forwardError = (error: Error): void => {
      sourceError = error;
      counted.destroy(error);
    };
    archive.once('error', forwardError);
    archive.pipe(counted);
    const upload = new sdk.storage.Upload({
      client,
      params: {
        Bucket: this.options.bucket,
        Key: key,
        Body: counted,
        ContentType: 'application/octet-stream',
        Metadata: { [SAVED_AT]: new Date().toISOString() },
      },
      partSize: this.partSize,
      queueSize: PART_QUEUE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      archive.unpipe(counted);
      archive.destroy();
      throw sourceError ?? this.translate(error, 'PutObject', key);
    } finally {
      archive.off('error', forwardError);
    }
    return size;
  }

  /** Copies the archive at `key` (if any) to its `.prev` key (see the header). */
  private async keepAsPrevious(key: string): Promise<void> {
    try {
      await this.copy(key, key + PREVIOUS_SUFFIX, true);
    } catch (error) {
      // Refused as too large for one CopyObject (400): no generation rather than a stale one.
      if (!(error instanceof S3ArchiveError) || error.status !== 400) throw error;
      const head = await this.head(key);
      if ((head?.ContentLength ?? 0) <= MAX_COPY_BYTES) throw error;
      await this.deleteKey(key + PREVIOUS_SUFFIX);
    }
  }

  /** CopyObject `from` → `to` (metadata kept); with `allowMissing`, a missing `from` is none. */
  private async copy(from: string, to: string, allowMissing = false): Promise<void> {
    const source = `${this.options.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await this.call('CopyObject', to, { allowMissingKey: allowMissing }, (s3) =>
      s3.client.send(
        new s3.sdk.s3.CopyObjectCommand({
          Bucket: this.options.bucket,
          Key: to,
          CopySource: source,
          MetadataDirective: 'COPY',
        }),
      ),
    );
  }

  private head(key: string): Promise<ClientS3.HeadObjectCommandOutput | null> {
    return this.call('HeadObject', key, { allowMissingKey: true }, (s3) =>
      s3.client.send(new s3.sdk.s3.HeadObjectCommand({ Bucket: this.options.bucket, Key: key })),
    );
  }

  async get(conversationId: string, generation: Generation = 'current'): Promise<Readable | null> {
    const key = this.archiveKey(conversationId, generation);
    const response = await this.call('GetObject', key, { allowMissingKey: true }, (s3) =>
      s3.client.send(new s3.sdk.s3.GetObjectCommand({ Bucket: this.options.bucket, Key: key })),
    );
    if (response === null) return null;
    // In Node the body is the response stream (an IncomingMessage): nothing is buffered.
    if (response.Body === undefined) return Readable.from([]);
    if (!(response.Body instanceof Readable)) {
      throw new S3ArchiveError('S3 archive store: GetObject returned a body that is not a stream');
    }
    return response.Body;
  }

  async has(conversationId: string): Promise<boolean> {
    // HEAD responses have no body, so a missing bucket also reads as "no archive" here.
    return (await this.head(this.archiveKey(conversationId))) !== null;
  }

  /** The save time the archive was uploaded with, else its LastModified; null without one. */
  async savedAt(conversationId: string, generation: Generation): Promise<number | null> {
    const head = await this.head(this.archiveKey(conversationId, generation));
    if (head === null) return null;
    const saved = Date.parse(head.Metadata?.[SAVED_AT] ?? '');
    return Number.isNaN(saved) ? (head.LastModified?.getTime() ?? null) : saved;
  }

  async setAsideDamaged(conversationId: string, now = Date.now()): Promise<string> {
    const current = this.archiveKey(conversationId);
    const previous = this.archiveKey(conversationId, 'previous');
    if ((await this.head(previous)) === null) {
      throw new S3ArchiveError(`S3 archive store: there is no ${previous} to restore instead`);
    }
    const kept = damagedName(current, now);
    await this.copy(current, kept);
    await this.copy(previous, current);
    return kept.slice(kept.lastIndexOf('/') + 1);
  }

  /** Copied to the kept key (dated now by the copy), then the archive's own key deleted. */
  async keepAsideDamaged(
    conversationId: string,
    generations: readonly Generation[],
    now = Date.now(),
  ): Promise<string[]> {
    const current = this.archiveKey(conversationId);
    const kept: string[] = [];
    for (const generation of [...generations].sort(olderFirst)) {
      const key = this.archiveKey(conversationId, generation);
      const target = keptDamagedName(current, generation, now);
      await this.copy(key, target);
      await this.deleteKey(key);
      kept.unshift(this.keyLocation(target));
    }
    return kept;
  }

  location(conversationId: string): string {
    return this.keyLocation(this.archiveKey(conversationId));
  }

  /** A key as `<endpoint>/<bucket>/<key>` (no credentials). */
  private keyLocation(key: string): string {
    return `${this.endpointLabel()}/${this.options.bucket}/${key}`;
  }

  /** Deletes the conversation's archives: both generations and any kept aside as damaged. */
  async delete(conversationId: string): Promise<void> {
    const current = this.archiveKey(conversationId);
    await this.deleteKey(current);
    await this.deleteKey(current + PREVIOUS_SUFFIX);
    for (const key of await this.listKeys(current + DAMAGED_SUFFIX)) await this.deleteKey(key);
  }

  /** Every key under `prefix` (all pages). */
  private async listKeys(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let continuationToken: string | undefined;
    do {
      const token = continuationToken;
      const page = await this.call('ListObjectsV2', null, {}, (s3) =>
        s3.client.send(
          new s3.sdk.s3.ListObjectsV2Command({
            Bucket: this.options.bucket,
            Prefix: prefix,
            ...(token === undefined ? {} : { ContinuationToken: token }),
          }),
        ),
      );
      for (const object of page?.Contents ?? [])
        if (object.Key !== undefined) keys.push(object.Key);
      continuationToken = page?.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);
    return keys;
  }

  private async deleteKey(key: string): Promise<void> {
    await this.call('DeleteObject', key, { allowMissingKey: true }, (s3) =>
      s3.client.send(new s3.sdk.s3.DeleteObjectCommand({ Bucket: this.options.bucket, Key: key })),
    );
  }

  /** Deletes archives whose LastModified is older than `retentionDays`; returns how many. */
  async prune(retentionDays: number, now = Date.now()): Promise<number> {
    // The whole listing first, deletions after: deleting while paging could make a server whose
    // continuation tokens are positions skip keys.
    const expired: string[] = [];
    const prefix = this.keyFor('');
    let continuationToken: string | undefined;
    do {
      const token = continuationToken;
      const page = await this.call('ListObjectsV2', null, {}, (s3) =>
        s3.client.send(
          new s3.sdk.s3.ListObjectsV2Command({
            Bucket: this.options.bucket,
            Prefix: prefix,
            ...(token === undefined ? {} : { ContinuationToken: token }),
          }),
        ),
      );
      for (const object of page?.Contents ?? []) {
        if (object.Key === undefined || object.LastModified === undefined) continue;
        const name = object.Key.slice(prefix.length);
        if (name.includes('/') || !ARCHIVE_NAME.test(name)) continue;
        if (now - object.LastModified.getTime() > retentionDays * DAY_MS) expired.push(object.Key);
      }
      continuationToken = page?.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);

    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < expired.length) {
        const key = expired[next] as string;
        next += 1;
        await this.deleteKey(key);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PRUNE_CONCURRENCY, expired.length) }, worker));
    return expired.length;
  }

  async writeIndex(index: Record<string, IndexEntry>): Promise<void> {
    const key = this.keyFor(INDEX_FILE);
    await this.call('PutObject', key, {}, (s3) =>
      s3.client.send(
        new s3.sdk.s3.PutObjectCommand({
          Bucket: this.options.bucket,
          Key: key,
          Body: JSON.stringify(index),
          ContentType: 'application/json',
        }),
      ),
    );
  }

  /**
   * The saved index, or {} when there is none or it is not valid JSON. Unlike the local store,
   * an unreachable or misconfigured bucket throws: the sidecar should not start as if all were
   * well when every archive it writes would be lost.
   */
  async readIndex(): Promise<Record<string, IndexEntry>> {
    const key = this.keyFor(INDEX_FILE);
    const response = await this.call('GetObject', key, { allowMissingKey: true }, (s3) =>
      s3.client.send(new s3.sdk.s3.GetObjectCommand({ Bucket: this.options.bucket, Key: key })),
    );
    if (response === null || response.Body === undefined) return {};
    let text: string;
    try {
      text = await response.Body.transformToString();
    } catch (error) {
      throw this.translate(error, 'GetObject', key);
    }
    return parseSessionIndex(text);
  }

  /**
   * Runs one SDK command. Returns its output, null for a missing key when `allowMissingKey`, and
   * throws an S3ArchiveError for everything else.
   */
  private async call<T>(
    operation: string,
    key: string | null,
    { allowMissingKey = false }: { allowMissingKey?: boolean },
    send: (s3: { sdk: Sdk; client: ClientS3.S3Client }) => Promise<T>,
  ): Promise<T | null> {
    const s3 = await this.sdkClient();
    try {
      return await send(s3);
    } catch (error) {
      if (
        allowMissingKey &&
        isServiceError(error) &&
        error.$metadata.httpStatusCode === 404 &&
        error.name !== 'NoSuchBucket'
      ) {
        return null;
      }
      throw this.translate(error, operation, key);
    }
  }

  private endpointLabel(): string {
    return `${this.endpoint.origin}${this.endpoint.pathname.replace(/\/+$/, '')}`;
  }

  /** Any failure as an S3ArchiveError naming what to check. */
  private translate(error: unknown, operation: string, key: string | null): S3ArchiveError {
    if (error instanceof S3ArchiveError) return this.scrub(error);
    if (isServiceError(error) && error.$metadata.httpStatusCode !== undefined) {
      return this.responseError(
        operation,
        key,
        error.$metadata.httpStatusCode,
        error.name,
        error.message,
      );
    }
    return this.connectionError(error);
  }

  private connectionError(error: unknown): S3ArchiveError {
    const direct = error as { code?: unknown; name?: unknown; cause?: { code?: unknown } } | null;
    const rawCode = direct?.code ?? direct?.cause?.code;
    const code = typeof rawCode === 'string' ? rawCode : null;
    const timedOut = direct?.name === 'TimeoutError' || code === 'ETIMEDOUT';
    const reason = timedOut
      ? 'no answer in time (the server accepted the connection but stalled, or is unreachable)'
      : code === 'ECONNREFUSED'
        ? 'connection refused: is the server running and the port right?'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'the host name does not resolve'
          : error instanceof Error
            ? `${code === null ? '' : `${code}: `}${error.message}`
            : String(error);
    return this.scrub(
      new S3ArchiveError(
        `S3 archive store: cannot reach ${this.endpointLabel()} (SANDBOX_ARCHIVE_S3_ENDPOINT): ${reason}`,
        null,
        timedOut ? 'TimeoutError' : code,
      ),
    );
  }

  private responseError(
    operation: string,
    key: string | null,
    status: number,
    code: string | null,
    message: string | null,
  ): S3ArchiveError {
    const where = `${this.endpointLabel()} bucket "${this.options.bucket}"`;
    // The SDK's message for an error without a body is just its code (or "UnknownError").
    const said = message === null || message === code || message === '' ? null : message;
    const detail = `${status}${code === null ? '' : ` ${code}`}${said === null ? '' : `: ${said.slice(0, 200)}`}`;
    let text: string;
    if (status === 403 || status === 401) {
      text =
        `S3 archive store: access denied by ${where} (${detail}). Check ` +
        'SANDBOX_ARCHIVE_S3_ACCESS_KEY_ID, SANDBOX_ARCHIVE_S3_SECRET_ACCESS_KEY, ' +
        'SANDBOX_ARCHIVE_S3_SESSION_TOKEN and SANDBOX_ARCHIVE_S3_REGION, and that the key may ' +
        'read and write the bucket';
    } else if (status === 404 && (code === 'NoSuchBucket' || operation === 'HeadObject')) {
      text = `S3 archive store: the bucket "${this.options.bucket}" does not exist at ${this.endpointLabel()} (SANDBOX_ARCHIVE_S3_BUCKET); create it first`;
    } else {
      text = `S3 archive store: ${operation} ${key ?? '(bucket)'} on ${where} failed (${detail})`;
    }
    return this.scrub(new S3ArchiveError(text, status, code));
  }

  /** Belt and braces: whatever a server echoed, the secrets never leave in a message. */
  private scrub(error: S3ArchiveError): S3ArchiveError {
    for (const secret of [this.options.secretAccessKey, this.options.sessionToken]) {
      if (secret !== undefined && secret !== '' && error.message.includes(secret)) {
        error.message = error.message.replaceAll(secret, '[secret]');
      }
    }
    return error;
  }
}
