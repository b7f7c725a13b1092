import { describe, expect, it } from 'vitest';
import {
  EventIdWatch,
  EventSizeCounter,
  guardBody,
} from '../../../../src/main/adapters/mcp/mcp-body-guard';
import type { McpError } from '../../../../src/main/core/ports';

const bytes = (text: string) => new TextEncoder().encode(text);

function streamOf(chunks: Uint8Array[], error?: Error): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (error) controller.error(error);
      else controller.close();
    },
  });
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('EventSizeCounter', () => {
  it('resets at each blank line, with LF or CRLF, across chunk boundaries', () => {
    const counter = new EventSizeCounter();
    expect(counter.push(bytes('data: 12345\n'))).toBe(12);
    expect(counter.push(bytes('\n'))).toBe(13);
    expect(counter.push(bytes('data: ab\r'))).toBe(9);
    expect(counter.push(bytes('\n\r'))).toBe(11);
    // The blank line "\r\n" completed in the next chunk ends the event.
    expect(counter.push(bytes('\ndata: c\r\n\r\n'))).toBe(12);
    expect(counter.push(bytes('x'))).toBe(1);
  });

  it('keeps counting an event that never ends', () => {
    const counter = new EventSizeCounter();
    counter.push(bytes('data: '));
    for (let index = 0; index < 10; index += 1) counter.push(bytes('y'.repeat(100)));
    expect(counter.push(bytes('\n'))).toBe(1007);
  });
});

describe('EventIdWatch', () => {
  it.each([
    [['id: 1\ndata: x\n\n'], true],
    [['data: x\n', 'id: 7\n\n'], true],
    [['data: x\ni', 'd: 7\n\n'], true],
    [['data: x\n', 'i', 'd:', ' 7\n'], true],
    [['data: {"id":1}\n\n', 'data: x id: 2\n\n'], false],
  ])('finds an id field in %j: %s', (chunks, seen) => {
    const watch = new EventIdWatch();
    for (const chunk of chunks) watch.push(bytes(chunk));
    expect(watch.seen).toBe(seen);
  });
});

describe('guardBody', () => {
  it('reports an event stream that ends without ids, but not one with ids', async () => {
    const ended: string[] = [];
    const plain = guardBody(streamOf([bytes('data: 1\n\n')]), {
      origin: 'http://o',
      maxBytes: 100,
      perEvent: true,
      onEndedWithoutId: () => ended.push('plain'),
    });
    await drain(plain);
    const resumable = guardBody(streamOf([bytes('id: 1\ndata: 1\n\n')]), {
      origin: 'http://o',
      maxBytes: 100,
      perEvent: true,
      onEndedWithoutId: () => ended.push('resumable'),
    });
    await drain(resumable);
    expect(ended).toEqual(['plain']);
  });

  it('passes a body under the cap through unchanged', async () => {
    const body = guardBody(streamOf([bytes('{"a":'), bytes('1}')]), {
      origin: 'http://o',
      maxBytes: 100,
      perEvent: false,
    });
    expect(await drain(body)).toBe('{"a":1}');
  });

  it('fails a body over the cap with too-large and tells onBroken', async () => {
    const broken: McpError[] = [];
    const body = guardBody(streamOf([bytes('x'.repeat(60)), bytes('x'.repeat(60))]), {
      origin: 'http://o',
      maxBytes: 100,
      perEvent: false,
      onBroken: (error) => broken.push(error),
    });
    await expect(drain(body)).rejects.toMatchObject({ kind: 'too-large' });
    expect(broken.map((error) => error.kind)).toEqual(['too-large']);
  });

  it('lets an event stream carry many small events but not one big one', async () => {
    const events = Array.from({ length: 50 }, () => bytes(`data: ${'z'.repeat(40)}\n\n`));
    const ok = guardBody(streamOf(events), { origin: 'http://o', maxBytes: 100, perEvent: true });
    expect((await drain(ok)).length).toBe(50 * 48);
    const big = guardBody(streamOf([bytes('data: '), bytes('z'.repeat(200))]), {
      origin: 'http://o',
      maxBytes: 100,
      perEvent: true,
    });
    await expect(drain(big)).rejects.toMatchObject({ kind: 'too-large' });
  });

  it('turns a broken upstream into disconnected, but leaves an abort alone', async () => {
    const broken: McpError[] = [];
    const cut = guardBody(streamOf([bytes('data: 1')], new TypeError('terminated')), {
      origin: 'http://o',
      maxBytes: 100,
      perEvent: true,
      onBroken: (error) => broken.push(error),
    });
    await expect(drain(cut)).rejects.toMatchObject({ kind: 'disconnected' });
    expect(broken).toHaveLength(1);
    const abort = new DOMException('aborted', 'AbortError');
    const aborted = guardBody(streamOf([], abort), {
      origin: 'http://o',
      maxBytes: 100,
      perEvent: true,
      onBroken: (error) => broken.push(error),
    });
    await expect(drain(aborted)).rejects.toBe(abort);
    expect(broken).toHaveLength(1);
  });
});
