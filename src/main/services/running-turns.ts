/**
 * The chat service's turns as the app closes (issue 37, item 8). Closing used to stop the sandbox
 * and the MCP servers under a running turn: its Python call failed ("Tool execution failed"), the
 * turn sent the model one more request and its answer was stored complete. Now the app's `close`
 * ends the turns first: `close` aborts every running turn (its signal joins the user's), waits a
 * bounded time for each to be stored (as `interrupted`: `isClosing`), and only then does the
 * caller stop what the turns were using. A turn asked for once closing has begun is refused.
 */
import { AivoryError } from '../../shared/errors';

/** Longest `close` waits for the running turns to be stored before the app goes on closing. */
export const TURN_CLOSE_GRACE_MS = 5_000;

/** What a turn asked for while the app closes gets. */
const APP_CLOSING_MESSAGE = 'Aivory is closing; send this again once it has started.';

export class RunningTurns {
  private readonly closing = new AbortController();
  private readonly running = new Set<Promise<void>>();

  /** Aborted once the app closes: every turn's signal includes it. */
  get signal(): AbortSignal {
    return this.closing.signal;
  }

  /** True once `close` began: a turn stopped now was interrupted, not canceled by the user. */
  isClosing(): boolean {
    return this.closing.signal.aborted;
  }

  /**
   * Registers a turn that starts now; call the returned function once it is stored and over.
   * Throws `canceled` once the app is closing.
   */
  enter(): () => void {
    if (this.isClosing()) throw new AivoryError('canceled', APP_CLOSING_MESSAGE);
    let leave = (): void => {};
    const over = new Promise<void>((resolve) => (leave = resolve));
    this.running.add(over);
    return () => {
      this.running.delete(over);
      leave();
    };
  }

  /** Aborts every running turn and waits until they are over, at most `graceMs`. */
  async close(graceMs: number = TURN_CLOSE_GRACE_MS): Promise<void> {
    this.closing.abort(new AivoryError('canceled', APP_CLOSING_MESSAGE));
    if (this.running.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    try {
      await Promise.race([Promise.all(this.running), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
