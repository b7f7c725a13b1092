/**
 * Fan-out of server → renderer events. Handlers publish (a chat turn publishes its TurnEvents);
 * each connected transport (the Electron window, every WebSocket) subscribes and forwards. A
 * listener that throws is dropped from nothing and breaks nothing: the error is logged.
 */
import type { EventName, EventPayload } from '../../shared/ipc-contract';
import type { Logger } from '../core/ports';

/** One delivered event: its name and payload, as the transports send it. */
export type HubEvent = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName];

/** A transport forwarding events. */
export type HubListener = (event: HubEvent) => void;

/** The event fan-out shared by every transport of one host. */
export class EventHub {
  private readonly listeners = new Set<HubListener>();
  private readonly emptyWatchers = new Set<() => void>();

  constructor(private readonly logger: Pick<Logger, 'error'>) {}

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: HubListener): () => void {
    this.listeners.add(listener);
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
      for (const watcher of [...this.emptyWatchers]) watcher();
    };
  }

  /**
   * Calls `watcher` each time the last listener leaves (no window or socket is left to show an
   * event; pending approvals are denied). Returns the function that removes the watcher.
   */
  onEmpty(watcher: () => void): () => void {
    this.emptyWatchers.add(watcher);
    return () => {
      this.emptyWatchers.delete(watcher);
    };
  }

  /** Delivers the event to every current listener, in subscription order. */
  publish<E extends EventName>(name: E, payload: EventPayload<E>): void {
    const event = { name, payload } as HubEvent;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error('event listener failed', { event: name, error: String(error) });
      }
    }
  }

  /** Number of listeners (transports report it in tests and diagnostics). */
  get size(): number {
    return this.listeners.size;
  }
}
