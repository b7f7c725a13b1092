/// <reference lib="dom" />
/**
 * What the UI bench measures inside the page (Chromium main thread): the time from a click on a
 * conversation to its last message being painted, and during a streamed answer the long tasks
 * (PerformanceObserver 'longtask': every task over 50 ms) and the longest gap between frames.
 * The functions given to `page.evaluate` run in the page, hence the DOM types.
 */
import type { Page } from 'playwright-core';

/** Main-thread figures over one observation window. */
export interface MainThreadStats {
  /** The longest long task in ms; 0 when no task took over 50 ms. */
  longestTaskMs: number;
  longTasks: number;
  longTaskTotalMs: number;
  /** The longest time between two animation frames, in ms. */
  longestFrameGapMs: number;
  /**
   * The longest delay of a 10 ms timer beyond its due time: how long the main thread was busy
   * before it could run, so it sizes tasks under 50 ms too (the long-task API cannot).
   */
  longestTimerDelayMs: number;
}

interface ObserverState extends MainThreadStats {
  observer: PerformanceObserver;
  running: boolean;
  lastFrame: number;
}

/** The probe timer's period. */
const PROBE_INTERVAL_MS = 10;

type BenchWindow = Window & { __uiBench?: ObserverState };

/** Clicks the conversation titled `title`; ms until its last message (with `marker`) is painted. */
export function timeOpen(page: Page, title: string, marker: string): Promise<number> {
  return page.evaluate(
    async ({ title, marker }) => {
      const items = document.querySelectorAll<HTMLElement>('[data-testid="conversation-item"]');
      const item = [...items].find((element) => element.textContent?.includes(title));
      if (item === undefined) throw new Error(`no conversation titled ${title}`);
      const startedAt = performance.now();
      item.click();
      await new Promise<void>((resolve) => {
        const check = (): void => {
          const messages = document.querySelectorAll('[data-testid="message-assistant"]');
          const last = messages[messages.length - 1];
          if (last?.textContent?.includes(marker)) resolve();
          else requestAnimationFrame(check);
        };
        check();
      });
      // The frame that shows it: after the next animation frame has been painted.
      await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - startedAt;
    },
    { title, marker },
  );
}

/** Starts recording long tasks and frame gaps. */
export async function startObserving(page: Page): Promise<void> {
  await page.evaluate((interval) => {
    const state = {
      longestTaskMs: 0,
      longTasks: 0,
      longTaskTotalMs: 0,
      longestFrameGapMs: 0,
      longestTimerDelayMs: 0,
      running: true,
      lastFrame: performance.now(),
    } as ObserverState;
    const record = (entries: PerformanceEntryList): void => {
      for (const entry of entries) {
        state.longTasks += 1;
        state.longTaskTotalMs += entry.duration;
        state.longestTaskMs = Math.max(state.longestTaskMs, entry.duration);
      }
    };
    state.observer = new PerformanceObserver((list) => record(list.getEntries()));
    state.observer.observe({ type: 'longtask' });
    const frame = (now: number): void => {
      state.longestFrameGapMs = Math.max(state.longestFrameGapMs, now - state.lastFrame);
      state.lastFrame = now;
      if (state.running) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    const probe = (due: number): void => {
      state.longestTimerDelayMs = Math.max(state.longestTimerDelayMs, performance.now() - due);
      if (!state.running) return;
      const next = performance.now() + interval;
      setTimeout(() => probe(next), interval);
    };
    probe(performance.now());
    (window as BenchWindow).__uiBench = state;
  }, PROBE_INTERVAL_MS);
}

/** Stops recording and returns the figures (pending long-task entries included). */
export function stopObserving(page: Page): Promise<MainThreadStats> {
  return page.evaluate(() => {
    const state = (window as BenchWindow).__uiBench;
    if (state === undefined) throw new Error('startObserving was not called');
    state.running = false;
    for (const entry of state.observer.takeRecords()) {
      state.longTasks += 1;
      state.longTaskTotalMs += entry.duration;
      state.longestTaskMs = Math.max(state.longestTaskMs, entry.duration);
    }
    state.observer.disconnect();
    const { longestTaskMs, longTasks, longTaskTotalMs, longestFrameGapMs, longestTimerDelayMs } =
      state;
    return { longestTaskMs, longTasks, longTaskTotalMs, longestFrameGapMs, longestTimerDelayMs };
  });
}

/** Waits (polling twice a second, not every frame) until the last answer is complete. */
export async function waitForAnswer(page: Page, marker: string, timeoutMs: number): Promise<void> {
  await page.waitForFunction(
    (marker) => {
      const messages = document.querySelectorAll('[data-testid="message-assistant"]');
      const last = messages[messages.length - 1];
      return last?.getAttribute('data-status') === 'complete' && last.textContent?.includes(marker);
    },
    marker,
    { timeout: timeoutMs, polling: 500 },
  );
}
