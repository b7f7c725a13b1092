/**
 * Backups in an S3-compatible bucket (AWS S3, MinIO, Garage, R2, …), with the AWS SDK the sandbox
 * already uses for workspace archives (loaded at the first S3 backup, never at start). A backup
 * is first written and verified on this disk, then uploaded (lib-storage `Upload`: 8 MiB parts,
 * two in flight; a failed upload is aborted, so no partial object is left), then read back whole
 * from the bucket and its SHA-256 and size compared with the file's: a backup in a bucket counts
 * only once the bucket has given back exactly what was written. Keys are
 * `<prefix>/aivory-backup-<time>.tar`; pruning deletes only keys of that pattern. URLs are
 * path-style (every S3-compatible server accepts them). Errors name the endpoint, the bucket and
 * the S3 error code, never a credential.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import { AivoryError } from '../../../shared/errors';
import { CHUNK_BYTES } from './backup-format';

const PART_SIZE = 8 * 1024 * 1024;
const PART_QUEUE = 2;
const BACKUP_KEY = /(^|\/)aivory-backup-\d{8}-\d{6}\.tar$/;

export interface S3BackupConfig {
  endpoint: string;
  region: string;
  bucket: string;
  /** Without leading or trailing slashes; '' for the bucket's top. */
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** `s3://bucket/some/prefix` → its bucket and prefix; null when `text` is not an s3:// URL. */
export function parseS3Location(text: string): { bucket: string; prefix: string } | null {
  const match = /^s3:\/\/([A-Za-z0-9][A-Za-z0-9._-]{1,254})(\/.*)?$/.exec(text);
  if (match === null) return null;
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '.' || part === '..')) return null;
  return { bucket: match[1] ?? '', prefix };
}

interface Sdk {
  s3: typeof ClientS3;
  storage: typeof LibStorage;
}

export interface StoredBackup {
  key: string;
  size: number;
}

export class S3BackupTarget {
  private client: Promise<{ sdk: Sdk; client: ClientS3.S3Client }> | null = null;

  constructor(private readonly config: S3BackupConfig) {
    const endpoint = new URL(config.endpoint);
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') {
      throw new AivoryError('config', 'The S3 endpoint of backups must be an http(s):// URL.');
    }
  }

  /** `s3://bucket/key` of a backup named `name`. */
  location(name: string): string {
    return `s3://${this.config.bucket}/${this.keyFor(name)}`;
  }

  /** Uploads `file` as `name`, then reads it back and compares; returns the key and size. */
  async upload(file: string, name: string, signal?: AbortSignal): Promise<StoredBackup> {
    const { sdk, client } = await this.sdkClient();
    const key = this.keyFor(name);
    const { size } = await stat(file);
    const expected = await hashFile(file);
    const upload = new sdk.storage.Upload({
      client,
      params: {
        Bucket: this.config.bucket,
        Key: key,
        Body: createReadStream(file, { highWaterMark: CHUNK_BYTES }),
        ContentType: 'application/x-tar',
      },
      partSize: PART_SIZE,
      queueSize: PART_QUEUE,
      leavePartsOnError: false,
    });
    const abort = (): void => void upload.abort();
    signal?.addEventListener('abort', abort, { once: true });
    try {
      await upload.done();
    } catch (error) {
      throw this.failure('could not take the backup', error);
    } finally {
      signal?.removeEventListener('abort', abort);
    }
    const back = await this.read(key, (body) => hashStream(body));
    if (back.size !== size || back.sha256 !== expected) {
      await this.delete(key).catch(() => undefined);
      throw new AivoryError(
        'storage',
        `The backup uploaded to ${this.describe()} did not read back as written (${back.size} of ${size} bytes), so it was deleted there.`,
      );
    }
    return { key, size };
  }

  /** Downloads the backup at `key` into `target` (a new file). */
  async download(key: string, target: string): Promise<void> {
    await this.read(key, (body) =>
      pipeline(body, createWriteStream(target, { flags: 'wx', mode: 0o600 })),
    );
  }

  /** The backups under the prefix (only keys named like the ones this app writes), oldest first. */
  async list(): Promise<StoredBackup[]> {
    const { sdk, client } = await this.sdkClient();
    const found: StoredBackup[] = [];
    let token: string | undefined;
    do {
      let page: ClientS3.ListObjectsV2CommandOutput;
      try {
        page = await client.send(
          new sdk.s3.ListObjectsV2Command({
            Bucket: this.config.bucket,
            Prefix: this.config.prefix === '' ? undefined : `${this.config.prefix}/`,
            ContinuationToken: token,
          }),
        );
      } catch (error) {
        throw this.failure('could not list the backups', error);
      }
      for (const object of page.Contents ?? []) {
        const key = object.Key ?? '';
        if (this.isOurs(key)) found.push({ key, size: object.Size ?? 0 });
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return found.sort((a, b) => a.key.localeCompare(b.key));
  }

  /** Deletes all but the newest `keep` backups; returns the keys deleted. */
  async prune(keep: number): Promise<string[]> {
    const all = await this.list();
    const old = all.slice(0, Math.max(0, all.length - keep)).map((entry) => entry.key);
    for (const key of old) await this.delete(key);
    return old;
  }

  describe(): string {
    const endpoint = new URL(this.config.endpoint);
    return `${endpoint.origin}/${this.config.bucket}${this.config.prefix === '' ? '' : `/${this.config.prefix}`}`;
  }

  private isOurs(key: string): boolean {
    const inPrefix =
      this.config.prefix === ''
        ? !key.includes('/')
        : key.startsWith(`${this.config.prefix}/`) &&
          !key.slice(this.config.prefix.length + 1).includes('/');
    return inPrefix && BACKUP_KEY.test(key);
  }

  private async read<T>(key: string, use: (body: Readable) => Promise<T>): Promise<T> {
    const { sdk, client } = await this.sdkClient();
    let body: Readable;
    try {
      const answer = await client.send(
        new sdk.s3.GetObjectCommand({ Bucket: this.config.bucket, Key: key }),
      );
      body = answer.Body as Readable;
    } catch (error) {
      throw this.failure(`could not give back ${key}`, error);
    }
    return use(body);
  }

  private async delete(key: string): Promise<void> {
    const { sdk, client } = await this.sdkClient();
    try {
      await client.send(new sdk.s3.DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
    } catch (error) {
      throw this.failure(`could not delete ${key}`, error);
    }
  }

  private keyFor(name: string): string {
    return this.config.prefix === '' ? name : `${this.config.prefix}/${name}`;
  }

  private sdkClient(): Promise<{ sdk: Sdk; client: ClientS3.S3Client }> {
    this.client ??= Promise.all([
      import('@aws-sdk/client-s3'),
      import('@aws-sdk/lib-storage'),
    ]).then(([s3, storage]) => {
      const sdk: Sdk = { s3, storage };
      const client = new s3.S3Client({
        endpoint: new URL(this.config.endpoint).origin,
        region: this.config.region,
        forcePathStyle: true,
        credentials: {
          accessKeyId: this.config.accessKeyId,
          secretAccessKey: this.config.secretAccessKey,
        },
        maxAttempts: 3,
        retryMode: 'standard',
        // Many S3-compatible servers refuse the SDK's default CRC32 checksums.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestHandler: { connectionTimeout: 10_000, socketTimeout: 60_000 },
      });
      return { sdk, client };
    });
    return this.client;
  }

  private failure(what: string, error: unknown): AivoryError {
    const code =
      (error as { name?: unknown; Code?: unknown } | null)?.name ??
      (error as { Code?: unknown } | null)?.Code ??
      'an error';
    return new AivoryError(
      'connection',
      `S3 storage at ${this.describe()} ${what}: ${String(code)}.`,
    );
  }
}

async function hashFile(file: string): Promise<string> {
  return (await hashStream(createReadStream(file, { highWaterMark: CHUNK_BYTES }))).sha256;
}

async function hashStream(body: AsyncIterable<Buffer>): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of body) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}
