/**
 * When to close a service's session that nobody uses: per service, how many requests run on it
 * now, and a timer that runs only while none do. A long tool call or a stream of calls keeps the
 * session; a quiet one is closed after the idle period (the next use reconnects), so a server
 * is not held open for a conversation the user left hours ago.
 */

/** The default idle period of an MCP session (McpServicesDependencies.idleCloseMs). */
export const MCP_IDLE_CLOSE_MS = 10 * 60_000;

export class McpIdleClock {
  private readonly running = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly idleMs: number,
    /** Called when the service's session has been idle for the whole period. */
    private readonly onIdle: (serviceId: string) => void,
  ) {}

  /** A request starts on the service's session; the function returned ends it (once). */
  begin(serviceId: string): () => void {
    this.stop(serviceId);
    this.running.set(serviceId, (this.running.get(serviceId) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.running.get(serviceId) ?? 1) - 1;
      if (left > 0) {
        this.running.set(serviceId, left);
        return;
      }
      this.running.delete(serviceId);
      this.start(serviceId);
    };
  }

  /** (Re)starts the service's idle period, unless a request is running on it. */
  start(serviceId: string): void {
    if ((this.running.get(serviceId) ?? 0) > 0) return;
    this.stop(serviceId);
    const timer = setTimeout(() => {
      this.timers.delete(serviceId);
      if ((this.running.get(serviceId) ?? 0) === 0) this.onIdle(serviceId);
    }, this.idleMs);
    // An idle session must not keep the process (the CLI) alive.
    timer.unref();
    this.timers.set(serviceId, timer);
  }

  /** The session is gone: no idle close is due (running requests still end themselves). */
  stop(serviceId: string): void {
    clearTimeout(this.timers.get(serviceId));
    this.timers.delete(serviceId);
  }

  /** Stops every timer (the app is closing). */
  stopAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
