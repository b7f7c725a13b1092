import { describe, expect, it } from 'vitest';
import type { FrameScheduler } from '../../../src/renderer/state/frame-batch';
import {
  batchPerFrame,
  MAX_BATCH_DELAY_MS,
  MIN_BATCH_INTERVAL_MS,
} from '../../../src/renderer/state/frame-batch';

/** A clock, frames and timers that advance only when the test says so. */
function manualScheduler() {
  let now = 1000;
  let frames: (() => void)[] = [];
  let timers: { callback: () => void; at: number }[] = [];
  const scheduler: FrameScheduler = {
    now: () => now,
    requestFrame(callback) {
      frames.push(callback);
      return () => (frames = frames.filter((frame) => frame !== callback));
    },
    setTimer(callback, delayMs) {
      const timer = { callback, at: now + delayMs };
      timers.push(timer);
      return () => (timers = timers.filter((entry) => entry !== timer));
    },
  };
  return {
    scheduler,
    /** Runs the pending animation frames. */
    frame() {
      const pending = frames;
      frames = [];
      for (const callback of pending) callback();
    },
    /** Moves the clock and fires the timers that are due. */
    advance(milliseconds: number) {
      now += milliseconds;
      const due = timers.filter((timer) => timer.at <= now);
      timers = timers.filter((timer) => timer.at > now);
      for (const timer of due) timer.callback();
    },
    pendingFrames: () => frames.length,
  };
}

describe('turn events batched per animation frame', () => {
  it('holds items until a frame, then delivers them all, in order', () => {
    const clock = manualScheduler();
    const delivered: number[] = [];
    const push = batchPerFrame((item: number) => delivered.push(item), clock.scheduler);
    push(1);
    push(2);
    push(3);
    expect(delivered).toEqual([]);
    clock.frame();
    expect(delivered).toEqual([1, 2, 3]);
  });

  it('delivers at most once per interval, whatever the event rate', () => {
    const clock = manualScheduler();
    const delivered: number[][] = [];
    let batch: number[] = [];
    const push = batchPerFrame((item: number) => batch.push(item), clock.scheduler);
    const frameDone = (): void => {
      if (batch.length > 0) delivered.push(batch);
      batch = [];
    };
    // 200 events a second for 200 ms, with a frame every 16 ms.
    for (let tick = 1; tick <= 40; tick += 1) {
      push(tick);
      clock.advance(5);
      if (tick % 3 === 0) {
        clock.frame();
        frameDone();
      }
    }
    clock.advance(MIN_BATCH_INTERVAL_MS);
    clock.frame();
    frameDone();
    expect(delivered.flat()).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    expect(delivered.length).toBeLessThanOrEqual(Math.ceil(200 / MIN_BATCH_INTERVAL_MS) + 1);
  });

  it('flushes on the fallback timer when no frame comes (a hidden tab)', () => {
    const clock = manualScheduler();
    const delivered: string[] = [];
    const push = batchPerFrame((item: string) => delivered.push(item), clock.scheduler);
    push('a');
    clock.advance(MAX_BATCH_DELAY_MS);
    expect(delivered).toEqual(['a']);
    expect(clock.pendingFrames()).toBe(0);
  });
});
