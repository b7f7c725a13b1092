/**
 * The `docker exec` demultiplexer on Docker's frame format (8-byte header: stream type, 3 zero
 * bytes, big-endian payload length): every split of the byte stream gives the same stdout and
 * stderr, and a full destination pauses the source until it drains.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { demultiplex } from '../src/exec-demux';

function frame(type: 1 | 2, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header[0] = type;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('latin1') };
}

describe('demultiplex', () => {
  const big = Buffer.alloc(70_000, 'b');
  const wire = Buffer.concat([
    frame(1, Buffer.from('hello ')),
    frame(2, Buffer.from('oops')),
    frame(1, Buffer.alloc(0)),
    frame(1, big),
    frame(2, Buffer.from('!')),
    frame(1, Buffer.from(' end')),
  ]);
  const expectedOut = `hello ${big.toString('latin1')} end`;

  it('gives the same output for every split point and for one-byte chunks', () => {
    const splits = [...Array.from({ length: 40 }, (_, index) => index), 69_990, wire.length - 3];
    for (const at of splits) {
      const source = new PassThrough();
      const stdout = collector();
      const stderr = collector();
      demultiplex(source, stdout.stream, stderr.stream);
      source.write(wire.subarray(0, at));
      source.write(wire.subarray(at));
      expect(stdout.text()).toBe(expectedOut);
      expect(stderr.text()).toBe('oops!');
    }
    const source = new PassThrough();
    const stdout = collector();
    const stderr = collector();
    demultiplex(source, stdout.stream, stderr.stream);
    for (let offset = 0; offset < 200; offset += 1) source.write(wire.subarray(offset, offset + 1));
    source.write(wire.subarray(200));
    expect(stdout.text()).toBe(expectedOut);
    expect(stderr.text()).toBe('oops!');
  });

  it('pauses the source while stdout is full and resumes when it drains', async () => {
    const source = new PassThrough();
    const stdout = new PassThrough({ highWaterMark: 1024 });
    demultiplex(source, stdout, new PassThrough());
    source.write(frame(1, Buffer.alloc(4096, 'x')));
    expect(source.isPaused()).toBe(true);
    const drained = new Promise((resolve) => stdout.once('drain', resolve));
    stdout.resume();
    await drained;
    expect(source.isPaused()).toBe(false);
  });
});
