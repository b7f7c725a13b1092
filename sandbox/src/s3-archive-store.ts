/**
 * Workspace archives in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, Garage, R2, …), with
 * the same semantics as LocalArchiveStore. Requests are signed with AWS Signature Version 4 over
 * the global `fetch`; no SDK. URLs are path-style (`<endpoint>/<bucket>/<key>`), which every
 * S3-compatible server accepts.
 *
 * Keys: `<prefix>/<sha256(conversationId)>.tar.gz` (no id can name a key) and the index at
 * `<prefix>/sessions.json`.
 *
 * Memory: a PUT signs the SHA-256 of its body, because UNSIGNED-PAYLOAD streaming is not accepted
 * by every S3-compatible server. So `put` buffers the whole archive in memory before sending it:
 * up to `maxArchiveBytes` (by default the S3 single-PUT limit capped at Node's Buffer limit; the
 * sidecar passes the workspace size plus slack, 512 MiB by default), briefly twice that while the
 * chunks are joined. Puts run one at a time (the others wait, their tar streams held back by
 * backpressure), so shutdown — which archives every session at once — still buffers one archive,
 * not `SANDBOX_MAX_SESSIONS` of them.
 *
 * Errors name the endpoint, bucket and the S3 error code, never the secret key.
 */
import { constants as bufferConstants } from 'node:buffer';
import { createHash, createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { ArchiveStore } from './archive-store';
import { parseSessionIndex } from './archive-store';
import type { S3ArchiveConfig } from './config';

const DAY_MS = 24 * 60 * 60 * 1000;
const INDEX_FILE = 'sessions.json';
const ARCHIVE_SUFFIX = '.tar.gz';
const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');
/** S3's limit for one PUT is 5 GiB; a Buffer cannot exceed buffer.constants.MAX_LENGTH. */
const DEFAULT_MAX_ARCHIVE_BYTES = Math.min(5 * 1024 ** 3, bufferConstants.MAX_LENGTH);

/**
 * Longest one S3 request may take, body included: a 512 MiB archive over a slow link needs
 * minutes, but a hung server must not stall an archive or a restore forever.
 */
const S3_REQUEST_TIMEOUT_MS = 10 * 60_000;

/** The bucket settings (see S3ArchiveConfig), plus a size limit. */
export interface S3ArchiveStoreOptions extends S3ArchiveConfig {
  /** Larger archives are refused (they are buffered in memory). */
  maxArchiveBytes?: number;
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

interface S3Request {
  method: 'GET' | 'PUT' | 'HEAD' | 'DELETE';
  key?: string;
  query?: Record<string, string>;
  body?: Buffer;
  contentType?: string;
}

interface ListedObject {
  key: string;
  lastModified: number;
}

export class S3ArchiveStore implements ArchiveStore {
  private readonly endpoint: URL;
  private readonly options: S3ArchiveStoreOptions;
  private readonly maxArchiveBytes: number;
  /** Serialises puts so that only one archive is buffered at a time. */
  private putQueue: Promise<unknown> = Promise.resolve();

  constructor(options: S3ArchiveStoreOptions) {
    this.endpoint = new URL(options.endpoint);
    if (this.endpoint.protocol !== 'http:' && this.endpoint.protocol !== 'https:') {
      throw new S3ArchiveError('The S3 endpoint must be an http:// or https:// URL');
    }
    this.options = { ...options, prefix: options.prefix.replace(/^\/+|\/+$/g, '') };
    this.maxArchiveBytes = Math.min(
      options.maxArchiveBytes ?? DEFAULT_MAX_ARCHIVE_BYTES,
      DEFAULT_MAX_ARCHIVE_BYTES,
    );
  }

  /** Where the store points, for logs: endpoint, bucket and prefix (no credentials). */
  describe(): string {
    return `${this.endpointLabel()}/${this.options.bucket}/${this.options.prefix}`;
  }

  private keyFor(name: string): string {
    return this.options.prefix === '' ? name : `${this.options.prefix}/${name}`;
  }

  private archiveKey(conversationId: string): string {
    const digest = createHash('sha256').update(conversationId).digest('hex');
    return this.keyFor(`${digest}${ARCHIVE_SUFFIX}`);
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
      const body = await this.buffer(archive);
      await this.send({
        method: 'PUT',
        key: this.archiveKey(conversationId),
        body,
        contentType: 'application/gzip',
      });
      return body.length;
    });
    this.putQueue = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      archive.off('error', onError);
    }
  }

  private async buffer(archive: Readable): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of archive) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      total += buffer.length;
      if (total > this.maxArchiveBytes) {
        archive.destroy();
        throw new S3ArchiveError(
          `The archive is larger than ${this.maxArchiveBytes} bytes, the most the S3 archive ` +
            'store buffers for one upload',
        );
      }
      chunks.push(buffer);
    }
    return Buffer.concat(chunks, total);
  }

  async get(conversationId: string): Promise<Readable | null> {
    const response = await this.send(
      { method: 'GET', key: this.archiveKey(conversationId) },
      { allowMissingKey: true },
    );
    if (response === null) return null;
    if (response.body === null) return Readable.from([]);
    return Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>);
  }

  async has(conversationId: string): Promise<boolean> {
    // HEAD responses have no body, so a missing bucket also reads as "no archive" here.
    const response = await this.send(
      { method: 'HEAD', key: this.archiveKey(conversationId) },
      { allowMissingKey: true },
    );
    return response !== null;
  }

  async delete(conversationId: string): Promise<void> {
    await this.send(
      { method: 'DELETE', key: this.archiveKey(conversationId) },
      { allowMissingKey: true },
    );
  }

  /** Deletes archives whose LastModified is older than `retentionDays`; returns how many. */
  async prune(retentionDays: number, now = Date.now()): Promise<number> {
    // The whole listing first, deletions after: deleting while paging could make a server whose
    // continuation tokens are positions skip keys.
    const expired: string[] = [];
    for await (const object of this.list()) {
      const name = object.key.slice(this.keyFor('').length);
      if (name.includes('/') || !name.endsWith(ARCHIVE_SUFFIX)) continue;
      if (now - object.lastModified > retentionDays * DAY_MS) expired.push(object.key);
    }
    for (const key of expired) {
      await this.send({ method: 'DELETE', key }, { allowMissingKey: true });
    }
    return expired.length;
  }

  /** Every object under the prefix, following ListObjectsV2 continuation tokens. */
  private async *list(): AsyncGenerator<ListedObject> {
    let continuationToken: string | null = null;
    do {
      const query: Record<string, string> = { 'list-type': '2', prefix: this.keyFor('') };
      if (continuationToken !== null) query['continuation-token'] = continuationToken;
      const response = await this.send({ method: 'GET', query });
      const xml = response === null ? '' : await response.text();
      for (const block of xml.match(/<Contents>[\s\S]*?<\/Contents>/g) ?? []) {
        const key = xmlValue(block, 'Key');
        const lastModified = Date.parse(xmlValue(block, 'LastModified') ?? '');
        if (key !== null && Number.isFinite(lastModified)) yield { key, lastModified };
      }
      const truncated = xmlValue(xml, 'IsTruncated') === 'true';
      continuationToken = truncated ? xmlValue(xml, 'NextContinuationToken') : null;
    } while (continuationToken !== null);
  }

  async writeIndex(index: Record<string, string>): Promise<void> {
    await this.send({
      method: 'PUT',
      key: this.keyFor(INDEX_FILE),
      body: Buffer.from(JSON.stringify(index)),
      contentType: 'application/json',
    });
  }

  /**
   * The saved index, or {} when there is none or it is not valid JSON. Unlike the local store,
   * an unreachable or misconfigured bucket throws: the sidecar should not start as if all were
   * well when every archive it writes would be lost.
   */
  async readIndex(): Promise<Record<string, string>> {
    const response = await this.send(
      { method: 'GET', key: this.keyFor(INDEX_FILE) },
      { allowMissingKey: true },
    );
    if (response === null) return {};
    return parseSessionIndex(await response.text());
  }

  /**
   * Sends one signed request. Returns the response when it succeeded, null for a missing key when
   * `allowMissingKey`, and throws an S3ArchiveError for everything else.
   */
  private async send(
    request: S3Request,
    { allowMissingKey = false }: { allowMissingKey?: boolean } = {},
  ): Promise<Response | null> {
    const url = this.urlFor(request);
    const headers = this.sign(request, url, new Date());
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method,
        headers,
        body: request.body ?? null,
        redirect: 'manual',
        signal: AbortSignal.timeout(S3_REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw this.connectionError(error);
    }
    if (response.ok) return response;

    const text = request.method === 'HEAD' ? '' : await response.text().catch(() => '');
    const code = xmlValue(text, 'Code');
    if (response.status === 404 && code !== 'NoSuchBucket' && allowMissingKey) return null;
    throw this.responseError(request, response.status, code, xmlValue(text, 'Message'));
  }

  private urlFor(request: S3Request): URL {
    const base = this.endpoint.pathname.replace(/\/+$/, '');
    const segments = [this.options.bucket, ...(request.key?.split('/') ?? [])];
    const url = new URL(this.endpoint.origin);
    url.pathname = `${base}/${segments.map(encodeRfc3986).join('/')}`;
    url.search = canonicalQuery(request.query ?? {});
    return url;
  }

  /** AWS Signature Version 4 headers for the request. */
  private sign(request: S3Request, url: URL, date: Date): Record<string, string> {
    const { region, accessKeyId, secretAccessKey } = this.options;
    const amzDate = date
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const day = amzDate.slice(0, 8);
    const payloadHash =
      request.body === undefined
        ? EMPTY_SHA256
        : createHash('sha256').update(request.body).digest('hex');
    const headers: Record<string, string> = {
      host: url.host,
      'x-amz-content-sha256': payloadHash,
      'x-amz-date': amzDate,
    };
    if (request.contentType !== undefined) headers['content-type'] = request.contentType;
    const names = Object.keys(headers).sort();
    const signedHeaders = names.join(';');
    const canonicalRequest = [
      request.method,
      url.pathname,
      canonicalQuery(request.query ?? {}),
      names.map((name) => `${name}:${headers[name]}\n`).join(''),
      signedHeaders,
      payloadHash,
    ].join('\n');
    const scope = `${day}/${region}/s3/aws4_request`;
    const stringToSign = [
      'AWS4-HMAC-SHA256',
      amzDate,
      scope,
      createHash('sha256').update(canonicalRequest).digest('hex'),
    ].join('\n');
    let key: Buffer = hmac(`AWS4${secretAccessKey}`, day);
    for (const part of [region, 's3', 'aws4_request']) key = hmac(key, part);
    const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
    // fetch sets Host itself (from the URL, as signed here).
    const sent = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'host'));
    return {
      ...sent,
      authorization:
        `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${scope}, ` +
        `SignedHeaders=${signedHeaders}, Signature=${signature}`,
    };
  }

  private endpointLabel(): string {
    return `${this.endpoint.origin}${this.endpoint.pathname.replace(/\/+$/, '')}`;
  }

  private connectionError(error: unknown): S3ArchiveError {
    const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : null;
    const code = typeof cause?.code === 'string' ? cause.code : null;
    const reason =
      code === 'ECONNREFUSED'
        ? 'connection refused: is the server running and the port right?'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'the host name does not resolve'
          : code !== null
            ? code
            : error instanceof Error
              ? error.message
              : String(error);
    return this.scrub(
      new S3ArchiveError(
        `S3 archive store: cannot reach ${this.endpointLabel()} (SANDBOX_ARCHIVE_S3_ENDPOINT): ${reason}`,
        null,
        code,
      ),
    );
  }

  private responseError(
    request: S3Request,
    status: number,
    code: string | null,
    message: string | null,
  ): S3ArchiveError {
    const where = `${this.endpointLabel()} bucket "${this.options.bucket}"`;
    const detail = `${status}${code === null ? '' : ` ${code}`}${message === null ? '' : `: ${message.slice(0, 200)}`}`;
    let text: string;
    if (status === 403 || status === 401) {
      text =
        `S3 archive store: access denied by ${where} (${detail}). Check ` +
        'SANDBOX_ARCHIVE_S3_ACCESS_KEY_ID, SANDBOX_ARCHIVE_S3_SECRET_ACCESS_KEY and ' +
        'SANDBOX_ARCHIVE_S3_REGION, and that the key may read and write the bucket';
    } else if (status === 404 && (code === 'NoSuchBucket' || request.method === 'HEAD')) {
      text = `S3 archive store: the bucket "${this.options.bucket}" does not exist at ${this.endpointLabel()} (SANDBOX_ARCHIVE_S3_BUCKET); create it first`;
    } else {
      text = `S3 archive store: ${request.method} ${request.key ?? '(bucket)'} on ${where} failed (${detail})`;
    }
    return this.scrub(new S3ArchiveError(text, status, code));
  }

  /** Belt and braces: whatever a server echoed, the secret key never leaves in a message. */
  private scrub(error: S3ArchiveError): S3ArchiveError {
    const secret = this.options.secretAccessKey;
    if (secret !== '' && error.message.includes(secret)) {
      error.message = error.message.replaceAll(secret, '[secret]');
    }
    return error;
  }
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** URI encoding as SigV4 wants it: RFC 3986 unreserved characters stay, the rest is %XX. */
function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function canonicalQuery(query: Record<string, string>): string {
  return Object.entries(query)
    .map(([name, value]) => [encodeRfc3986(name), encodeRfc3986(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** The text of the first `<tag>…</tag>` in an S3 XML document, entities decoded. */
function xmlValue(xml: string, tag: string): string | null {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml);
  if (match?.[1] === undefined) return null;
  return match[1].replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-fA-F]+);/g, (_, entity: string) => {
    switch (entity) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      case 'amp':
        return '&';
      default:
        return String.fromCodePoint(
          entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10),
        );
    }
  });
}
