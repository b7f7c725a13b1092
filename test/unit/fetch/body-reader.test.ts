import { Readable } from 'node:stream';
import { brotliCompressSync, constants, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  decodeBody,
  parseContentEncoding,
  readWireBody,
} from '../../../src/main/adapters/fetch/body-reader';
import { formatBytes } from '../../../src/shared/byte-size';

const MB = 1024 * 1024;
const what = 'the page';

describe('body reader', () => {
  it('stops a gzip bomb at the decoded cap without inflating it', async () => {
    const bomb = gzipSync(Buffer.alloc(60 * MB));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    await expect(decodeBody(bomb, ['gzip'], 5 * MB, what)).rejects.toThrow(
      'the page is larger than 5 MiB once decompressed',
    );
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(30 * MB);
  });

  it('stops brotli and nested gzip bombs, and refuses three stacked encodings', async () => {
    const brotli = brotliCompressSync(Buffer.alloc(60 * MB), {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
    });
    await expect(decodeBody(brotli, ['br'], MB, what)).rejects.toThrow(
      /larger than 1 MiB once decompressed/,
    );
    const nested = gzipSync(gzipSync(Buffer.alloc(60 * MB)));
    await expect(decodeBody(nested, ['gzip', 'gzip'], MB, what)).rejects.toThrow(
      /once decompressed/,
    );
    await expect(decodeBody(nested, ['gzip', 'gzip', 'gzip'], MB, what)).rejects.toThrow(
      /encoded 3 times/,
    );
  });

  it('decodes gzip, zlib and raw deflate, and brotli', async () => {
    const text = Buffer.from('hello '.repeat(1000));
    expect(await decodeBody(gzipSync(text), parseContentEncoding('GZIP'), MB, what)).toEqual(text);
    expect(await decodeBody(deflateSync(text), ['deflate'], MB, what)).toEqual(text);
    expect(await decodeBody(deflateRawSync(text), ['deflate'], MB, what)).toEqual(text);
    expect(await decodeBody(brotliCompressSync(text), ['br'], MB, what)).toEqual(text);
    expect(await decodeBody(text, parseContentEncoding('identity'), MB, what)).toEqual(text);
  });

  it('refuses unknown encodings and corrupt data with a message', async () => {
    await expect(decodeBody(Buffer.from('x'), ['zstd'], MB, what)).rejects.toThrow(
      'the page uses an unsupported content encoding "zstd"',
    );
    await expect(decodeBody(Buffer.from('not gzip'), ['gzip'], MB, what)).rejects.toThrow(
      /could not be decompressed/,
    );
  });

  it('caps wire bytes while streaming and destroys the source', async () => {
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024));
      },
    });
    await expect(readWireBody(endless, MB, what)).rejects.toThrow('the page is larger than 1 MiB');
    expect(produced).toBeLessThan(2 * MB);
    expect(endless.destroyed).toBe(true);
    expect(
      await readWireBody(Readable.from([Buffer.from('ab'), Buffer.from('c')]), 3, what),
    ).toEqual(Buffer.from('abc'));
  });

  it('formats sizes for people', () => {
    expect(formatBytes(5 * MB)).toBe('5 MiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(900)).toBe('900 B');
    expect(formatBytes(3.2 * MB)).toBe('3.2 MiB');
    expect(formatBytes(5 * 1024 * MB)).toBe('5 GiB');
  });
});
