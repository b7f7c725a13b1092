/**
 * `warmUpWhenIdle`: `aivory serve` loads its first turn's modules only once its thread is idle,
 * never while it is answering.
 */
import { describe, expect, it } from 'vitest';
import { WARMED_UP, warmUpWhenIdle } from '../../../src/main/cli/idle-warm-up';
import { recordingLogger } from '../../support/turn-harness';

/** Keeps the thread busy in 20 ms blocks (timers run between them) for `ms`. */
function busyFor(ms: number): Promise<number> {
  const until = performance.now() + ms;
  return new Promise((resolve) => {
    const step = (): void => {
      const blockEnd = performance.now() + 20;
      while (performance.now() < blockEnd) {
        // busy
      }
      if (performance.now() < until) setImmediate(step);
      else resolve(performance.now());
    };
    setImmediate(step);
  });
}

describe('warmUpWhenIdle', () => {
  it('waits while the thread is busy, then warms up once', async () => {
    const logger = recordingLogger();
    const calls: number[] = [];
    let warmed: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (warmed = resolve));
    const warming = warmUpWhenIdle(async () => {
      calls.push(performance.now());
      warmed();
    }, logger);
    try {
      const busyEnded = await busyFor(1_000);
      await done;
      expect(calls).toHaveLength(1);
      expect(calls[0]).toBeGreaterThan(busyEnded);
      await new Promise((resolve) => setImmediate(resolve));
      expect(logger.entries).toContainEqual(expect.objectContaining({ message: WARMED_UP }));
    } finally {
      warming.stop();
    }
  });

  it('logs a failed warm-up and leaves the rest to the first turn', async () => {
    const logger = recordingLogger();
    let failed: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (failed = resolve));
    const warming = warmUpWhenIdle(async () => {
      setImmediate(failed);
      throw new Error('no such module');
    }, logger);
    try {
      await done;
      expect(logger.entries).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          message: 'loading the turn modules ahead failed',
        }),
      );
    } finally {
      warming.stop();
    }
  });
});
