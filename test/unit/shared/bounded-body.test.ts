import { describe, expect, it } from 'vitest';
import { readBoundedBody, readTextStart } from '../../../src/shared/bounded-body';

/** A stream of `chunks`, then (with `hang`) one read that never answers; records its cancel. */
function stream(
  chunks: string[],
  hang = false,
): {
  body: ReadableStream<Uint8Array>;
  cancelled: () => boolean;
} {
  let cancelled = false;
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk !== undefined) controller.enqueue(new TextEncoder().encode(chunk));
      else if (!hang) controller.close();
      else return new Promise(() => undefined);
      return undefined;
    },
    cancel() {
      cancelled = true;
    },
  });
  return { body, cancelled: () => cancelled };
}

const tooLarge = (): Error => new Error('too large');
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('readBoundedBody', () => {
  it('reads a body up to the cap in full, and nothing for no body', async () => {
    expect(text(await readBoundedBody(stream(['ab', 'cd', 'e']).body, 5, tooLarge))).toBe('abcde');
    expect((await readBoundedBody(null, 5, tooLarge)).byteLength).toBe(0);
  });

  it("throws the caller's error one byte over the cap and cancels the stream", async () => {
    const over = stream(['abc', 'def']);
    await expect(readBoundedBody(over.body, 5, tooLarge)).rejects.toThrow('too large');
    expect(over.cancelled()).toBe(true);
  });

  it("ends a read that hangs when the signal aborts, with the signal's reason", async () => {
    const hanging = stream(['abc'], true);
    const controller = new AbortController();
    const reading = readBoundedBody(hanging.body, 100, tooLarge, controller.signal);
    controller.abort(new Error('stopped by the user'));
    await expect(reading).rejects.toThrow('stopped by the user');
    expect(hanging.cancelled()).toBe(true);
  });
});

describe('readTextStart', () => {
  it('stops once the text is enough, on a stream that stays open, and cancels it', async () => {
    const open = stream(['event: ping\n', 'event: endpoint\n', 'data: x\n'], true);
    const endpoint = (text: string) => /^event: endpoint$/m.test(text);
    expect(await readTextStart(open.body, 4096, endpoint)).toBe('event: ping\nevent: endpoint\n');
    expect(open.cancelled()).toBe(true);
  });

  it('stops at the character cap (the last chunk may pass it), and reads nothing for no body', async () => {
    const long = stream(['abcd', 'efgh', 'ijkl'], true);
    expect(await readTextStart(long.body, 6, () => false)).toBe('abcdefgh');
    expect(long.cancelled()).toBe(true);
    expect(await readTextStart(null, 6, () => false)).toBe('');
  });
});
