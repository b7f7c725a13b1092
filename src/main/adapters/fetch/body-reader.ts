/**
 * Reads a response body under a byte cap, then undoes its content encodings under the same cap
 * applied to the DECODED bytes. The decoded cap is what matters: a 50 KB gzip body can expand to
 * 50 MB, and a cap on wire bytes alone lets it (verified with undici's maxResponseSize).
 */
import type { Readable } from 'node:stream';
import type { ZlibOptions, BrotliOptions } from 'node:zlib';
import { FetchFailure } from './fetch-failure';
import { formatBytes } from '../../../shared/byte-size';

/** Stacked encodings allowed (`gzip, gzip` is legal); more is only ever a nested bomb. */
export const MAX_CONTENT_ENCODINGS = 2;

/** What the fetcher asks servers for; anything else in Content-Encoding is refused. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

type Decoder = (input: Buffer, options: ZlibOptions & BrotliOptions) => Promise<Buffer>;
type ZlibMethod = 'gunzip' | 'brotliDecompress' | 'inflate' | 'inflateRaw';

/**
 * `node:zlib`'s one-shot `method`, loaded at the first encoded body: not at start-up, where its
 * load (and the ESM facade of `node:util` for `promisify`) cost several milliseconds for nothing.
 */
function zlibDecoder(method: ZlibMethod): Decoder {
  return (input, options) =>
    new Promise((resolve, reject) => {
      const run: (
        input: Buffer,
        options: ZlibOptions & BrotliOptions,
        callback: (error: Error | null, result: Buffer) => void,
      ) => void = process.getBuiltinModule('node:zlib')[method];
      run(input, options, (error, result) => {
        if (error) reject(error);
        else resolve(result);
      });
    });
}

const DECODERS: ReadonlyMap<string, Decoder> = new Map<string, Decoder>([
  ['gzip', zlibDecoder('gunzip')],
  ['x-gzip', zlibDecoder('gunzip')],
  ['br', zlibDecoder('brotliDecompress')],
  ['deflate', inflateEither],
]);

/** Collects the raw body, failing as soon as it passes `maxBytes`. */
export async function readWireBody(
  body: Readable,
  maxBytes: number,
  what: string,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += buffer.length;
    if (total > maxBytes) {
      body.destroy();
      throw new FetchFailure(`${what} is larger than ${formatBytes(maxBytes)}`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

/** The encodings of a Content-Encoding header, in the order they were applied. */
export function parseContentEncoding(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '' && token !== 'identity');
}

/**
 * Undoes `encodings` (last applied first). zlib stops with ERR_BUFFER_TOO_LARGE as soon as the
 * output passes `maxBytes`, so a bomb costs at most `maxBytes` of memory.
 */
export async function decodeBody(
  wire: Buffer,
  encodings: readonly string[],
  maxBytes: number,
  what: string,
): Promise<Buffer> {
  if (encodings.length > MAX_CONTENT_ENCODINGS) {
    throw new FetchFailure(
      `${what} is encoded ${encodings.length} times; at most ${MAX_CONTENT_ENCODINGS} are accepted`,
    );
  }
  let data = wire;
  for (const encoding of [...encodings].reverse()) {
    const decoder = DECODERS.get(encoding);
    if (!decoder) {
      throw new FetchFailure(
        `${what} uses an unsupported content encoding "${encoding.slice(0, 40)}"`,
      );
    }
    try {
      data = await decoder(data, { maxOutputLength: maxBytes });
    } catch (error) {
      if (isTooLarge(error)) {
        throw new FetchFailure(`${what} is larger than ${formatBytes(maxBytes)} once decompressed`);
      }
      throw new FetchFailure(`${what} could not be decompressed (${encoding}: ${describe(error)})`);
    }
  }
  return data;
}

/** `deflate` is zlib-wrapped per the RFC, but some servers send raw deflate; accept both. */
function inflateEither(input: Buffer, options: ZlibOptions): Promise<Buffer> {
  const first = input[0] ?? 0;
  const second = input[1] ?? 0;
  const zlibWrapped = (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0;
  return zlibDecoder(zlibWrapped ? 'inflate' : 'inflateRaw')(input, options);
}

function isTooLarge(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ERR_BUFFER_TOO_LARGE';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 120) : 'unknown error';
}
