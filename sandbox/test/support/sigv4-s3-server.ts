/**
 * A minimal S3-compatible server for tests, in memory, path-style only. Unlike s3rver (which
 * accepts any Signature V4 and cannot paginate on Node 20), it VERIFIES every request's AWS
 * Signature V4 (header form), the body's x-amz-content-sha256 (UNSIGNED-PAYLOAD is accepted, as
 * S3 does) and, when configured, the session token (x-amz-security-token, which must be signed).
 * It pages ListObjectsV2 with continuation tokens and implements multipart uploads (create, upload
 * part, complete, abort; counted in `multipart`). Its canonicalisation is written from the AWS
 * documentation independently of the client under test. Object times can be set, to test pruning;
 * failures can be injected (`failWith`) to test retries and aborted uploads; `keepBodies: false`
 * keeps only sizes and hashes, so big uploads do not fill the test process's memory.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface StoredObject {
  /** Empty when the server does not keep bodies (see `size` and `sha256`). */
  body: Buffer;
  size: number;
  /** Hex SHA-256 of the body (of the whole object, also for a multipart one). */
  sha256: string;
  lastModified: Date;
  /** How many parts it was uploaded in; 0 for a single PUT. */
  parts: number;
  /** The x-amz-meta-* headers it was stored with (CopyObject copies them). */
  metadata?: Record<string, string>;
}

/** A request body as received: hashed on the fly, kept only when needed. */
interface Received {
  /** Empty when not kept (see SigV4S3ServerOptions.keepBodies). */
  body: Buffer;
  size: number;
  sha256: string;
  md5: string;
}

/** Bodies up to this size are always kept (XML requests such as CompleteMultipartUpload). */
const ALWAYS_KEPT_BYTES = 1024 * 1024;

interface StoredPart {
  body: Buffer;
  size: number;
  etag: string;
}

/** What a request is, for failure rules and the request log. */
export interface S3RequestInfo {
  method: string;
  bucket: string;
  key: string;
  query: URLSearchParams;
}

/** Answers `times` matching (correctly signed) requests with this error instead of serving them. */
export interface FailureRule {
  when: (request: S3RequestInfo) => boolean;
  status: number;
  code: string;
  times: number;
}

export interface SigV4S3Server {
  endpoint: string;
  /** bucket → key → object */
  buckets: Map<string, Map<string, StoredObject>>;
  /** How many signed requests were refused. */
  refused: number;
  /** Multipart uploads: created, completed and aborted so far. */
  multipart: { created: number; completed: number; aborted: number };
  /** Multipart uploads created and neither completed nor aborted. */
  pendingUploads(): number;
  /** Every correctly signed request so far, in arrival order (method, key and query). */
  requests: S3RequestInfo[];
  /** Adds a failure rule; it is used up after `times` matches. */
  failWith(rule: FailureRule): void;
  close(): Promise<void>;
}

export interface SigV4S3ServerOptions {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  buckets: string[];
  /** ListObjectsV2 page size (S3: 1000). */
  pageSize?: number;
  /** When set, every request must carry this x-amz-security-token, signed. */
  sessionToken?: string;
  /** False: store only sizes and hashes (GET then returns an empty body). Default true. */
  keepBodies?: boolean;
}

function uriEncode(value: string, encodeSlash: boolean): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(char) || (char === '/' && !encodeSlash)) out += char;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`,
  );
}

export async function startSigV4S3Server(options: SigV4S3ServerOptions): Promise<SigV4S3Server> {
  const buckets = new Map<string, Map<string, StoredObject>>(
    options.buckets.map((name) => [name, new Map()]),
  );
  const pageSize = options.pageSize ?? 1000;
  const keepBodies = options.keepBodies ?? true;
  const state = { refused: 0 };
  const multipart = { created: 0, completed: 0, aborted: 0 };
  /** uploadId → its key and parts */
  const uploads = new Map<
    string,
    {
      bucket: string;
      key: string;
      parts: Map<number, StoredPart>;
      metadata: Record<string, string>;
    }
  >();
  const failures: FailureRule[] = [];
  /** `<uploadId>/<partNumber>` → hex SHA-256 of the part */
  const partHashes = new Map<string, string>();
  const requests: S3RequestInfo[] = [];

  /** Returns an error code, or null when the signature is valid. */
  function verify(request: IncomingMessage, url: URL, body: Received): string | null {
    const authorization = request.headers.authorization ?? '';
    const match =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
        authorization,
      );
    if (match === null) return 'AccessDenied';
    const [, accessKeyId, day, region, signedHeaders = '', signature] = match;
    if (accessKeyId !== options.accessKeyId) return 'InvalidAccessKeyId';
    if (region !== options.region) return 'AuthorizationHeaderMalformed';
    const amzDate = String(request.headers['x-amz-date'] ?? '');
    if (!amzDate.startsWith(day ?? '-')) return 'AccessDenied';
    const payloadHash = String(request.headers['x-amz-content-sha256'] ?? '');
    const names = signedHeaders.split(';');
    if (!names.includes('host') || !names.includes('x-amz-content-sha256')) return 'AccessDenied';
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && body.sha256 !== payloadHash) {
      return 'XAmzContentSHA256Mismatch';
    }
    if (options.sessionToken !== undefined) {
      if (
        request.headers['x-amz-security-token'] !== options.sessionToken ||
        !names.includes('x-amz-security-token')
      ) {
        return 'InvalidToken';
      }
    }
    const rawPath = (request.url ?? '/').split('?')[0] ?? '/';
    const canonicalPath = rawPath
      .split('/')
      .map((segment) => uriEncode(decodeURIComponent(segment), true))
      .join('/');
    const canonicalQuery = [...url.searchParams.entries()]
      .map(([name, value]) => `${uriEncode(name, true)}=${uriEncode(value, true)}`)
      .sort()
      .join('&');
    const canonicalHeaders = names
      .map((name) => `${name}:${String(request.headers[name] ?? '').trim()}\n`)
      .join('');
    const canonicalRequest = [
      request.method,
      canonicalPath,
      canonicalQuery,
      canonicalHeaders,
      signedHeaders,
      payloadHash,
    ].join('\n');
    const stringToSign = [
      'AWS4-HMAC-SHA256',
      amzDate,
      `${day}/${region}/s3/aws4_request`,
      createHash('sha256').update(canonicalRequest).digest('hex'),
    ].join('\n');
    let key = createHmac('sha256', `AWS4${options.secretAccessKey}`)
      .update(day ?? '')
      .digest();
    for (const part of [region ?? '', 's3', 'aws4_request']) {
      key = createHmac('sha256', key).update(part).digest();
    }
    const expected = createHmac('sha256', key).update(stringToSign).digest('hex');
    return expected === signature ? null : 'SignatureDoesNotMatch';
  }

  /** The request's x-amz-meta-* headers, by name without the prefix. */
  function metadataOf(request: IncomingMessage): Record<string, string> {
    return Object.fromEntries(
      Object.entries(request.headers)
        .filter(([name, value]) => name.startsWith('x-amz-meta-') && typeof value === 'string')
        .map(([name, value]) => [name.slice('x-amz-meta-'.length), value as string]),
    );
  }

  function handle(request: IncomingMessage, response: ServerResponse, body: Received): void {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const problem = verify(request, url, body);
    if (problem !== null) {
      state.refused += 1;
      sendError(response, problem === 'XAmzContentSHA256Mismatch' ? 400 : 403, problem, problem);
      return;
    }
    const [, bucketName = '', ...keyParts] = url.pathname.split('/').map(decodeURIComponent);
    const key = keyParts.join('/');
    const info: S3RequestInfo = {
      method: request.method ?? '',
      bucket: bucketName,
      key,
      query: url.searchParams,
    };
    requests.push(info);
    const failure = failures.find((rule) => rule.times > 0 && rule.when(info));
    if (failure !== undefined) {
      failure.times -= 1;
      sendError(response, failure.status, failure.code, `injected ${failure.code}`);
      return;
    }
    const bucket = buckets.get(bucketName);
    if (bucket === undefined) {
      if (request.method === 'HEAD') {
        response.writeHead(404).end();
      } else {
        sendError(response, 404, 'NoSuchBucket', 'The specified bucket does not exist');
      }
      return;
    }
    if (key === '') {
      if (request.method !== 'GET' || url.searchParams.get('list-type') !== '2') {
        sendError(response, 501, 'NotImplemented', 'only ListObjectsV2');
        return;
      }
      const prefix = url.searchParams.get('prefix') ?? '';
      const keys = [...bucket.keys()].filter((name) => name.startsWith(prefix)).sort();
      const token = url.searchParams.get('continuation-token');
      const start = token === null ? 0 : Number(Buffer.from(token, 'base64').toString());
      const page = keys.slice(start, start + pageSize);
      const truncated = start + pageSize < keys.length;
      const contents = page
        .map((name) => {
          const object = bucket.get(name);
          return `<Contents><Key>${xmlEscape(name)}</Key><LastModified>${object?.lastModified.toISOString()}</LastModified><Size>${object?.size}</Size></Contents>`;
        })
        .join('');
      const next = truncated
        ? `<NextContinuationToken>${Buffer.from(String(start + pageSize)).toString('base64')}</NextContinuationToken>`
        : '';
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucketName}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><IsTruncated>${truncated}</IsTruncated>${next}${contents}</ListBucketResult>`,
      );
      return;
    }
    if (handleMultipart(request, response, url, bucketName, bucket, key, body)) return;
    const object = bucket.get(key);
    switch (request.method) {
      case 'PUT': {
        const copySource = request.headers['x-amz-copy-source'];
        if (typeof copySource === 'string') {
          // CopyObject: `<bucket>/<key>` (URL-encoded), metadata copied with the bytes.
          const [sourceBucket = '', ...sourceKey] = decodeURIComponent(copySource)
            .replace(/^\//, '')
            .split('/');
          const source = buckets.get(sourceBucket)?.get(sourceKey.join('/'));
          if (source === undefined) {
            sendError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
            return;
          }
          const lastModified = new Date();
          bucket.set(key, { ...source, lastModified });
          response.writeHead(200, { 'content-type': 'application/xml' });
          response.end(
            `<?xml version="1.0" encoding="UTF-8"?><CopyObjectResult><ETag>"${source.sha256.slice(0, 32)}"</ETag><LastModified>${lastModified.toISOString()}</LastModified></CopyObjectResult>`,
          );
          return;
        }
        bucket.set(key, {
          body: keepBodies ? body.body : Buffer.alloc(0),
          size: body.size,
          sha256: body.sha256,
          lastModified: new Date(),
          parts: 0,
          metadata: metadataOf(request),
        });
        response.writeHead(200, { etag: `"${body.md5}"` });
        response.end();
        return;
      }
      case 'GET':
      case 'HEAD':
        if (object === undefined) {
          if (request.method === 'HEAD') response.writeHead(404).end();
          else sendError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
          return;
        }
        response.writeHead(200, {
          'content-length': object.body.length,
          etag: `"${object.sha256.slice(0, 32)}"`,
          'last-modified': object.lastModified.toUTCString(),
          ...Object.fromEntries(
            Object.entries(object.metadata ?? {}).map(([name, value]) => [
              `x-amz-meta-${name}`,
              value,
            ]),
          ),
        });
        response.end(request.method === 'GET' ? object.body : undefined);
        return;
      case 'DELETE':
        bucket.delete(key);
        response.writeHead(204).end();
        return;
      default:
        sendError(response, 405, 'MethodNotAllowed', 'method not allowed');
    }
  }

  /** The multipart operations; false when the request is not one. */
  function handleMultipart(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    bucketName: string,
    bucket: Map<string, StoredObject>,
    key: string,
    body: Received,
  ): boolean {
    const uploadId = url.searchParams.get('uploadId');
    if (request.method === 'POST' && url.searchParams.has('uploads')) {
      const id = randomUUID();
      uploads.set(id, { bucket: bucketName, key, parts: new Map(), metadata: metadataOf(request) });
      multipart.created += 1;
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(
        `<?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult><Bucket>${bucketName}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
      return true;
    }
    if (uploadId === null) return false;
    const upload = uploads.get(uploadId);
    if (upload === undefined || upload.bucket !== bucketName || upload.key !== key) {
      sendError(response, 404, 'NoSuchUpload', 'The specified upload does not exist.');
      return true;
    }
    if (request.method === 'PUT') {
      const partNumber = Number(url.searchParams.get('partNumber'));
      const etag = `"${body.md5}"`;
      upload.parts.set(partNumber, {
        body: keepBodies ? body.body : Buffer.alloc(0),
        size: body.size,
        etag,
      });
      // Without kept bodies, the object's hash is over the part hashes.
      partHashes.set(`${uploadId}/${partNumber}`, body.sha256);
      response.writeHead(200, { etag }).end();
      return true;
    }
    if (request.method === 'DELETE') {
      uploads.delete(uploadId);
      multipart.aborted += 1;
      response.writeHead(204).end();
      return true;
    }
    if (request.method === 'POST') {
      const listed = [
        ...body.body
          .toString()
          .matchAll(/<Part>[\s\S]*?<PartNumber>(\d+)<\/PartNumber>[\s\S]*?<\/Part>/g),
      ].map((match) => Number(match[1]));
      const numbers = [...upload.parts.keys()].sort((a, b) => a - b);
      if (listed.length === 0 || listed.join(',') !== numbers.join(',')) {
        sendError(response, 400, 'InvalidPart', 'The parts listed do not match the uploaded ones.');
        return true;
      }
      const parts = numbers.map((number) => upload.parts.get(number) as StoredPart);
      const whole = Buffer.concat(parts.map((part) => part.body));
      const sha256 = keepBodies
        ? createHash('sha256').update(whole).digest('hex')
        : createHash('sha256')
            .update(numbers.map((number) => partHashes.get(`${uploadId}/${number}`)).join(''))
            .digest('hex');
      bucket.set(key, {
        body: whole,
        size: parts.reduce((total, part) => total + part.size, 0),
        sha256,
        lastModified: new Date(),
        parts: parts.length,
        metadata: upload.metadata,
      });
      uploads.delete(uploadId);
      multipart.completed += 1;
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(
        `<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUploadResult><Bucket>${bucketName}</Bucket><Key>${xmlEscape(key)}</Key><ETag>"${sha256.slice(0, 32)}-${parts.length}"</ETag></CompleteMultipartUploadResult>`,
      );
      return true;
    }
    sendError(response, 405, 'MethodNotAllowed', 'method not allowed');
    return true;
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    const sha256 = createHash('sha256');
    const md5 = createHash('md5');
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      sha256.update(chunk);
      md5.update(chunk);
      size += chunk.length;
      if (keepBodies || size <= ALWAYS_KEPT_BYTES) chunks.push(chunk);
      else chunks.length = 0;
    });
    request.on('end', () => {
      handle(request, response, {
        body: keepBodies || size <= ALWAYS_KEPT_BYTES ? Buffer.concat(chunks) : Buffer.alloc(0),
        size,
        sha256: sha256.digest('hex'),
        md5: md5.digest('hex'),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    buckets,
    get refused() {
      return state.refused;
    },
    multipart,
    pendingUploads: () => uploads.size,
    requests,
    failWith: (rule) => {
      failures.push({ ...rule });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
