/**
 * A real HTTP server on 127.0.0.1 that speaks like OpenAI's Images API: POST
 * /v1/images/generations (JSON) and POST /v1/images/edits (multipart). It answers with tiny valid
 * PNGs as `b64_json`, records every request (for edits: the multipart field names, the number of
 * image parts and the prompt) and can be told to answer 401.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { deflateSync } from 'node:zlib';

export interface RecordedImageRequest {
  path: string;
  authorization: string | undefined;
  /** Generations: the JSON body. Edits: the text fields of the multipart body. */
  fields: Record<string, string>;
  /** Edits: every multipart field name in order (files included), e.g. `image[]`. */
  fieldNames: string[];
  /** Edits: how many parts named `image` or `image[]` carried a file. */
  imageParts: number;
  /** Edits: the file names of those parts, in order. */
  imageNames: string[];
}

export interface FakeImagesServer {
  /** Ends in `/v1`. */
  baseUrl: string;
  requests: RecordedImageRequest[];
  /** When true, every request gets 401 with OpenAI's error body. */
  rejectAuth: boolean;
  /** When set, images are answered as `url` entries pointing here instead of `b64_json`. */
  answerWithUrl: string | null;
  close(): Promise<void>;
}

/** Starts the server on an ephemeral loopback port. */
export async function startFakeImagesServer(): Promise<FakeImagesServer> {
  const requests: RecordedImageRequest[] = [];
  const state: FakeImagesServer = {
    baseUrl: '',
    requests,
    rejectAuth: false,
    answerWithUrl: null,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request, response) => {
    void handle(request, response, state).catch(() => {
      response.statusCode = 500;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  state.baseUrl = `http://127.0.0.1:${port}/v1`;
  return state;
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  state: FakeImagesServer,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  const body = Buffer.concat(chunks);
  const path = request.url ?? '';
  const recorded: RecordedImageRequest = {
    path,
    authorization: request.headers.authorization,
    fields: {},
    fieldNames: [],
    imageParts: 0,
    imageNames: [],
  };
  state.requests.push(recorded);
  if (state.rejectAuth) {
    reply(response, 401, {
      error: {
        message: 'Incorrect API key provided.',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    });
    return;
  }
  if (request.method === 'POST' && path === '/v1/images/generations') {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null) {
      for (const [key, value] of Object.entries(parsed)) recorded.fields[key] = String(value);
    }
  } else if (request.method === 'POST' && path === '/v1/images/edits') {
    parseMultipart(body, request.headers['content-type'] ?? '', recorded);
  } else {
    reply(response, 404, { error: { message: 'not found' } });
    return;
  }
  const count = Number(recorded.fields.n ?? '1') || 1;
  const [width = 8, height = 8] = (recorded.fields.size ?? '8x8').split('x').map(Number);
  // Tiny stand-ins with the requested ratio, so callers can read real PNG dimensions.
  const divisor = Math.max(1, Math.ceil(Math.max(width, height) / 16));
  const png = makePng(Math.ceil(width / divisor), Math.ceil(height / divisor));
  reply(response, 200, {
    created: 1,
    data: Array.from({ length: count }, () =>
      state.answerWithUrl === null
        ? { b64_json: png.toString('base64') }
        : { url: state.answerWithUrl },
    ),
  });
}

function parseMultipart(body: Buffer, contentType: string, recorded: RecordedImageRequest): void {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) return;
  const text = body.toString('latin1');
  for (const section of text.split(`--${marker}`)) {
    const headerEnd = section.indexOf('\r\n\r\n');
    if (headerEnd === -1) continue;
    const headers = section.slice(0, headerEnd);
    const name = /name="([^"]*)"/.exec(headers)?.[1];
    if (name === undefined) continue;
    const fileName = /filename="([^"]*)"/.exec(headers)?.[1];
    recorded.fieldNames.push(name);
    const value = section.slice(headerEnd + 4).replace(/\r\n$/, '');
    if (fileName !== undefined) {
      if (name === 'image' || name === 'image[]') {
        recorded.imageParts += 1;
        recorded.imageNames.push(fileName);
      }
    } else {
      recorded.fields[name] = Buffer.from(value, 'latin1').toString('utf8');
    }
  }
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** A valid RGB PNG of the given size, filled with one colour. */
export function makePng(width: number, height: number): Buffer {
  const row = Buffer.alloc(1 + width * 3, 0x80);
  row[0] = 0;
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
