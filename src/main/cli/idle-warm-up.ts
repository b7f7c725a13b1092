/**
 * `aivory serve` loads what its first turn needs once its thread has been idle for a moment
 * (`AppContext.warmUp`): loaded at that turn instead, the chat service, the model SDK and undici
 * held the thread that answers every request for ~160 ms (issue 37, item 11). A module loads in
 * one synchronous block whenever it loads; idle, no request is waiting behind it.
 */
import { performance } from 'node:perf_hooks';
import type { Logger } from '../core/ports';

/** What the log says once the modules are loaded (the UI bench waits for it). */
export const WARMED_UP = 'turn modules loaded ahead';
/** How often the thread's load is checked. */
const CHECK_MS = 250;
/** The share of a check's interval the thread may have been busy and still count as idle. */
const IDLE_SHARE = 0.05;

/** Runs `warmUp` once, at the first check that finds the thread idle; `stop` gives up. */
export function warmUpWhenIdle(warmUp: () => Promise<void>, logger: Logger): { stop(): void } {
  let since = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const busy = performance.eventLoopUtilization(since);
    since = performance.eventLoopUtilization();
    if (busy.utilization > IDLE_SHARE) return;
    clearInterval(timer);
    const startedAt = performance.now();
    warmUp().then(
      () => logger.info(WARMED_UP, { ms: Math.round(performance.now() - startedAt) }),
      (error: unknown) => {
        // The first turn loads the same modules and reports what fails then.
        logger.warn('loading the turn modules ahead failed', {
          error: error instanceof Error ? error.message : String(error),
        });
      },
    );
  }, CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
