/**
 * What a server's `list_changed` notifications cost, bounded: a server may send them as fast as
 * it likes (100 in a burst, each answered with 28 MB of tools, kept `aivory serve` busy for 45 s),
 * so the work each one asks for — listing the tools again, telling the windows to reload a list —
 * is coalesced per service: one run in flight, at most one more queued (the latest request; the
 * others in between are the same question), and at least `minIntervalMs` between the starts of
 * two runs. A burst of any length costs two runs; a steady stream one run per interval.
 */

/** The least time between two runs for one service (`McpServicesDependencies` may change it). */
export const LIST_CHANGED_MIN_INTERVAL_MS = 2_000;

interface KeyState {
  running: boolean;
  /** The run asked for while one ran or waited (the latest request replaces an earlier one). */
  queued: (() => Promise<void> | void) | null;
  /** When the last run started (ms, `now()`). */
  lastStart: number;
  timer: ReturnType<typeof setTimeout> | null;
}

export class ChangeCoalescer {
  private readonly keys = new Map<string, KeyState>();
  private closed = false;

  constructor(
    private readonly minIntervalMs: number,
    private readonly onError: (key: string, error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Asks for `run` for `key`: now, or after the run in flight / the interval, coalesced. */
  request(key: string, run: () => Promise<void> | void): void {
    if (this.closed) return;
    let state = this.keys.get(key);
    if (state === undefined) {
      state = { running: false, queued: null, lastStart: -Infinity, timer: null };
      this.keys.set(key, state);
    }
    state.queued = run;
    if (state.running || state.timer !== null) return;
    this.next(key, state);
  }

  /** Forgets what is queued for `key` (its service ended or went away). */
  forget(key: string): void {
    const state = this.keys.get(key);
    if (state === undefined) return;
    if (state.timer !== null) clearTimeout(state.timer);
    state.timer = null;
    state.queued = null;
    if (!state.running) this.keys.delete(key);
  }

  /** Forgets every key `matches` accepts (all the work of a service that went away). */
  forgetWhere(matches: (key: string) => boolean): void {
    for (const key of [...this.keys.keys()]) if (matches(key)) this.forget(key);
  }

  /** Nothing more runs (shutdown); a run in flight finishes on its own. */
  close(): void {
    this.closed = true;
    for (const key of [...this.keys.keys()]) this.forget(key);
  }

  /** Starts the queued run when the interval allows, else waits for it. */
  private next(key: string, state: KeyState): void {
    const run = state.queued;
    // Idle: the state stays (its last start keeps the interval for the next request).
    if (run === null || this.closed) return;
    const wait = state.lastStart + this.minIntervalMs - this.now();
    if (wait > 0) {
      state.timer = setTimeout(() => {
        state.timer = null;
        this.next(key, state);
      }, wait);
      state.timer.unref?.();
      return;
    }
    state.queued = null;
    state.running = true;
    state.lastStart = this.now();
    void (async () => {
      try {
        await run();
      } catch (error) {
        this.onError(key, error);
      } finally {
        state.running = false;
        this.next(key, state);
      }
    })();
  }
}
