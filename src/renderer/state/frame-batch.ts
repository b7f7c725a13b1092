/**
 * Delivers a burst of items together instead of one by one. A model streams hundreds of text
 * deltas a second; applied one at a time, each is its own store update, React render, layout and
 * paint. Queued and handed over together in one animation-frame callback (React batches the store
 * updates made in one task), they cost one render — and at most one every MIN_BATCH_INTERVAL_MS,
 * which still reads as smooth streaming while leaving the main thread idle most of each second.
 * Order is kept.
 */

/** Shortest time between two deliveries (20 per second). */
export const MIN_BATCH_INTERVAL_MS = 50;
/** Longest extra wait for a frame when none comes (a hidden tab gets no animation frames). */
export const MAX_BATCH_DELAY_MS = 100;

/** When to flush; injectable for tests. */
export interface FrameScheduler {
  now(): number;
  requestFrame(callback: () => void): () => void;
  setTimer(callback: () => void, delayMs: number): () => void;
}

/** The animation-frame functions (absent outside a browser, e.g. in unit tests). */
interface FrameFunctions {
  requestAnimationFrame?: (callback: () => void) => number;
  cancelAnimationFrame?: (handle: number) => void;
}

/** The browser's scheduler. */
export const browserScheduler: FrameScheduler = {
  now: () => performance.now(),
  requestFrame(callback) {
    const frames = globalThis as unknown as FrameFunctions;
    if (!frames.requestAnimationFrame) return () => undefined;
    const handle = frames.requestAnimationFrame(() => callback());
    return () => frames.cancelAnimationFrame?.(handle);
  },
  setTimer(callback, delayMs) {
    const handle = setTimeout(callback, delayMs);
    return () => clearTimeout(handle);
  },
};

/**
 * Wraps `deliver` so the items given between two deliveries are delivered together, in order, in
 * the first animation frame at least MIN_BATCH_INTERVAL_MS after the previous delivery (or on a
 * fallback timer when no frame comes).
 */
export function batchPerFrame<T>(
  deliver: (item: T) => void,
  scheduler: FrameScheduler = browserScheduler,
): (item: T) => void {
  let queue: T[] = [];
  let cancels: (() => void)[] = [];
  let lastDelivery = Number.NEGATIVE_INFINITY;
  const flush = (): void => {
    for (const cancel of cancels) cancel();
    cancels = [];
    lastDelivery = scheduler.now();
    const items = queue;
    queue = [];
    for (const item of items) deliver(item);
  };
  const awaitFrame = (): void => {
    cancels.push(scheduler.requestFrame(flush));
  };
  return (item) => {
    queue.push(item);
    if (cancels.length > 0) return;
    const wait = Math.max(0, lastDelivery + MIN_BATCH_INTERVAL_MS - scheduler.now());
    cancels = wait === 0 ? [scheduler.requestFrame(flush)] : [scheduler.setTimer(awaitFrame, wait)];
    cancels.push(scheduler.setTimer(flush, wait + MAX_BATCH_DELAY_MS));
  };
}
