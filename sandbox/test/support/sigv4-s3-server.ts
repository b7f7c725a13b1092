/**
 * A minimal S3-compatible server for tests, in memory, path-style only. Unlike s3rver (which
 * accepts any Signature V4 and cannot paginate on Node 20), it VERIFIES every request's AWS
 * Signature V4 (header form) and the body's x-amz-content-sha256, and pages ListObjectsV2 with
 * continuation tokens. Its canonicalisation is written from the AWS documentation independently of
 * the client under test. Object times can be set, to test pruning.
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface StoredObject {
  body: Buffer;
  lastModified: Date;
}

export interface SigV4S3Server {
  endpoint: string;
  /** bucket → key → object */
  buckets: Map<string, Map<string, StoredObject>>;
  /** How many signed requests were refused. */
  refused: number;
  close(): Promise<void>;
}

export interface SigV4S3ServerOptions {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  buckets: string[];
  /** ListObjectsV2 page size (S3: 1000). */
  pageSize?: number;
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
  const state = { refused: 0 };

  /** Returns an error code, or null when the signature is valid. */
  function verify(request: IncomingMessage, url: URL, body: Buffer): string | null {
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
    if (createHash('sha256').update(body).digest('hex') !== payloadHash) {
      return 'XAmzContentSHA256Mismatch';
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

  function handle(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const problem = verify(request, url, body);
    if (problem !== null) {
      state.refused += 1;
      sendError(response, problem === 'XAmzContentSHA256Mismatch' ? 400 : 403, problem, problem);
      return;
    }
    const [, bucketName = '', ...keyParts] = url.pathname.split('/').map(decodeURIComponent);
    const key = keyParts.join('/');
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
          return `<Contents><Key>${xmlEscape(name)}</Key><LastModified>${object?.lastModified.toISOString()}</LastModified><Size>${object?.body.length}</Size></Contents>`;
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
    const object = bucket.get(key);
    switch (request.method) {
      case 'PUT':
        bucket.set(key, { body, lastModified: new Date() });
        response.writeHead(200).end();
        return;
      case 'GET':
      case 'HEAD':
        if (object === undefined) {
          if (request.method === 'HEAD') response.writeHead(404).end();
          else sendError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
          return;
        }
        response.writeHead(200, {
          'content-length': object.body.length,
          'last-modified': object.lastModified.toUTCString(),
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

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handle(request, response, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    buckets,
    get refused() {
      return state.refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
