/**
 * ChangeCoalescer: per key one run in flight, at most one queued (the latest), runs at least the
 * interval apart, keys independent, nothing after close, a failing run reported and not fatal.
 */
import { describe, expect, it, vi } from 'vitest';
import { ChangeCoalescer } from '../../../src/main/services/mcp/mcp-change-coalescer';

/** A run that finishes when told to. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('ChangeCoalescer', () => {
  it('runs once at once and once more after, for any number of requests meanwhile', async () => {
    const coalescer = new ChangeCoalescer(0, () => undefined);
    const first = gate();
    const runs: string[] = [];
    coalescer.request('a', async () => {
      runs.push('first');
      await first.promise;
    });
    for (let index = 0; index < 100; index += 1)
      coalescer.request('a', () => {
        runs.push(`queued ${index}`);
      });
    expect(runs).toEqual(['first']);
    first.open();
    await vi.waitFor(() => expect(runs).toEqual(['first', 'queued 99']));
  });

  it('keeps the interval between the starts of two runs, per key', async () => {
    let now = 1_000;
    const coalescer = new ChangeCoalescer(
      500,
      () => undefined,
      () => now,
    );
    const runs: string[] = [];
    coalescer.request('a', () => void runs.push('a1'));
    coalescer.request('b', () => void runs.push('b1'));
    await vi.waitFor(() => expect(runs).toEqual(['a1', 'b1']));
    now = 1_100;
    coalescer.request('a', () => void runs.push('a2'));
    expect(runs).not.toContain('a2');
    // Waits the rest of the interval (400 ms on this clock) before it starts.
    now = 1_600;
    await vi.waitFor(() => expect(runs).toContain('a2'), { timeout: 2_000 });
    coalescer.close();
  });

  it('reports a failing run and goes on; runs nothing after close', async () => {
    const errors: unknown[] = [];
    const coalescer = new ChangeCoalescer(0, (_key, error) => errors.push(error));
    coalescer.request('a', () => Promise.reject(new Error('listing failed')));
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    const runs: string[] = [];
    coalescer.request('a', () => void runs.push('after'));
    await vi.waitFor(() => expect(runs).toEqual(['after']));
    coalescer.close();
    coalescer.request('a', () => void runs.push('closed'));
    expect(runs).toEqual(['after']);
  });

  it('drops what is queued for a service that went away, and only that', async () => {
    const coalescer = new ChangeCoalescer(50, () => undefined);
    const runs: string[] = [];
    const keys = ['tools:s1', 'library:l1:s1', 'tools:s12'];
    for (const key of keys) coalescer.request(key, () => void runs.push(`${key} first`));
    await vi.waitFor(() => expect(runs).toHaveLength(3));
    // Each now waits for its interval; s1 is removed meanwhile.
    for (const key of keys) coalescer.request(key, () => void runs.push(`${key} again`));
    coalescer.forgetWhere((key) => key.endsWith(':s1'));
    // s12's wait was set last: when it has run, s1's would have run too.
    await vi.waitFor(() => expect(runs).toContain('tools:s12 again'));
    expect(runs.filter((run) => run.endsWith('again'))).toEqual(['tools:s12 again']);
    coalescer.close();
  });
});
