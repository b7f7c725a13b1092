/**
 * Watched resources ("Watch for changes" on the service page, `aivory mcp resource --watch`):
 * `resources/subscribe` on the service's shared session, and each `notifications/resources/updated`
 * for a watched URI handed to its watchers, who read the resource again. One server subscription
 * per service and URI however many watch it; the session is kept from its idle close while one
 * does. When the session ends (the server went away, the service was edited) the subscription
 * is made again on a new session — a few tries, then the watch ends with the reason — and the
 * watchers are told to read again (the resource may have changed meanwhile). The last watcher
 * of a URI leaving unsubscribes on the live session (none is opened for it).
 */
import { AivoryError } from '../../../shared/errors';
import type { McpService } from '../../../shared/mcp';
import type { Logger, McpSession } from '../../core/ports';
import type { McpSessionEnd } from './mcp-connections';

/** At most this many watches at once in a process. */
export const MAX_RESOURCE_WATCHES = 32;
/** Updates of one watched URI reach its watchers at most this often (a trailing one follows). */
export const WATCH_UPDATE_INTERVAL_MS = 250;
/** How long each subscribe may take. */
const SUBSCRIBE_TIMEOUT_MS = 20_000;
/** The waits before each new subscription after the session ended (then the watch ends). */
const RESUBSCRIBE_DELAYS_MS = [0, 1000, 4000] as const;

/** What a watcher hears: read the resource again, or the watch is over (with why). */
export type McpWatchEvent = { kind: 'updated' } | { kind: 'ended'; reason: string };

/** What the watches need of the service layer. */
export interface McpWatchParts {
  get(idOrName: string): McpService;
  withSession<T>(
    service: McpService,
    signal: AbortSignal,
    action: (session: McpSession) => Promise<T>,
  ): Promise<T>;
  live(serviceId: string): Promise<McpSession> | undefined;
  hold(serviceId: string): () => void;
  logger: Logger;
}

interface Subscription {
  service: McpService;
  uri: string;
  watchers: Map<string, (event: McpWatchEvent) => void>;
  release: () => void;
  lastSent: number;
  trailing: NodeJS.Timeout | null;
  /** Bumped by each new subscription attempt, so an older one's result is ignored. */
  generation: number;
  /** The first subscription: settled once the server took it (or refused). */
  ready: Promise<void>;
}

export class McpResourceWatches {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly byWatch = new Map<string, string>();
  private nextId = 1;

  constructor(private readonly parts: McpWatchParts) {}

  /**
   * Watches `uri` of the service: resolves once the server took the subscription, with the
   * watch's id (for `unwatch`). Refused when the server offers no subscriptions.
   */
  async watch(
    idOrName: string,
    uri: string,
    listener: (event: McpWatchEvent) => void,
    signal: AbortSignal,
  ): Promise<string> {
    const service = this.parts.get(idOrName);
    if (this.byWatch.size >= MAX_RESOURCE_WATCHES)
      throw new AivoryError(
        'invalid-input',
        `At most ${MAX_RESOURCE_WATCHES} resources can be watched at once.`,
      );
    const key = keyOf(service.id, uri);
    const id = `watch-${this.nextId++}`;
    let subscription = this.subscriptions.get(key);
    if (subscription === undefined) {
      const created: Subscription = {
        service,
        uri,
        watchers: new Map(),
        release: this.parts.hold(service.id),
        lastSent: 0,
        trailing: null,
        generation: 0,
        ready: Promise.resolve(),
      };
      this.subscriptions.set(key, created);
      created.ready = this.subscribe(created, signal);
      try {
        await created.ready;
      } catch (error) {
        this.drop(key, created);
        throw error;
      }
      subscription = created;
    } else {
      // A watch of the same URI being made: this one stands or falls with it.
      await subscription.ready;
      if (this.subscriptions.get(key) !== subscription)
        throw new AivoryError('connection', `The watch of ${uri} ended before it began.`);
    }
    subscription.watchers.set(id, listener);
    this.byWatch.set(id, key);
    return id;
  }

  /** Ends a watch; the last watcher of a URI unsubscribes (on the live session only). */
  async unwatch(watchId: string): Promise<boolean> {
    const key = this.byWatch.get(watchId);
    if (key === undefined) return false;
    this.byWatch.delete(watchId);
    const subscription = this.subscriptions.get(key);
    if (subscription === undefined) return true;
    subscription.watchers.delete(watchId);
    if (subscription.watchers.size > 0) return true;
    this.drop(key, subscription);
    const live = this.parts.live(subscription.service.id);
    if (live !== undefined) {
      await live
        .then((session) =>
          session.unsubscribeResource(subscription.uri, AbortSignal.timeout(SUBSCRIBE_TIMEOUT_MS)),
        )
        .catch(() => undefined);
    }
    return true;
  }

  /** Ends every watch (nobody is left to show them, or the process exits). */
  async unwatchAll(): Promise<void> {
    await Promise.all([...this.byWatch.keys()].map((id) => this.unwatch(id)));
  }

  /** How many watches there are now. */
  get size(): number {
    return this.byWatch.size;
  }

  /** A server's notifications/resources/updated. */
  updated(serviceId: string, uri: string): void {
    const subscription = this.subscriptions.get(keyOf(serviceId, uri));
    if (subscription !== undefined) this.tell(subscription);
  }

  /** A session ended: every watch of the service subscribes again on a new one. */
  sessionEnded(serviceId: string, why: McpSessionEnd): void {
    if (why === 'shutdown') return;
    for (const subscription of this.subscriptions.values()) {
      if (subscription.service.id !== serviceId) continue;
      void this.resubscribe(subscription, why);
    }
  }

  private async subscribe(subscription: Subscription, signal: AbortSignal): Promise<void> {
    const generation = ++subscription.generation;
    const { service, uri } = subscription;
    const offered = await this.parts.withSession(
      this.parts.get(service.id),
      AbortSignal.any([signal, AbortSignal.timeout(SUBSCRIBE_TIMEOUT_MS)]),
      (session) => session.subscribeResource(uri, signal),
    );
    if (generation !== subscription.generation) return;
    if (!offered)
      throw new AivoryError(
        'invalid-input',
        `"${service.name}" does not offer resource subscriptions, so changes cannot be watched.`,
      );
  }

  private async resubscribe(subscription: Subscription, why: McpSessionEnd): Promise<void> {
    let failure = '';
    for (const delay of RESUBSCRIBE_DELAYS_MS) {
      if (delay > 0) await sleep(delay);
      if (!this.isCurrent(subscription)) return;
      try {
        await this.subscribe(subscription, new AbortController().signal);
        this.parts.logger.info('MCP resource watch subscribed again', {
          service: subscription.service.name,
          why,
        });
        // The resource may have changed while there was no subscription.
        this.tell(subscription);
        return;
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
        if (error instanceof AivoryError && error.code === 'not-found') break;
      }
    }
    if (!this.isCurrent(subscription)) return;
    const key = keyOf(subscription.service.id, subscription.uri);
    const watchers = [...subscription.watchers.values()];
    for (const id of subscription.watchers.keys()) this.byWatch.delete(id);
    this.drop(key, subscription);
    const reason = `the subscription could not be made again: ${failure.slice(0, 300)}`;
    for (const listener of watchers) safeCall(() => listener({ kind: 'ended', reason }));
  }

  private isCurrent(subscription: Subscription): boolean {
    return (
      this.subscriptions.get(keyOf(subscription.service.id, subscription.uri)) === subscription
    );
  }

  /** Tells the watchers to read again, at most once per interval (a trailing call follows). */
  private tell(subscription: Subscription): void {
    if (subscription.trailing !== null) return;
    const wait = subscription.lastSent + WATCH_UPDATE_INTERVAL_MS - Date.now();
    const send = (): void => {
      subscription.trailing = null;
      subscription.lastSent = Date.now();
      for (const listener of [...subscription.watchers.values()])
        safeCall(() => listener({ kind: 'updated' }));
    };
    if (wait <= 0) {
      send();
      return;
    }
    subscription.trailing = setTimeout(send, wait);
    subscription.trailing.unref();
  }

  private drop(key: string, subscription: Subscription): void {
    if (this.subscriptions.get(key) !== subscription) return;
    this.subscriptions.delete(key);
    subscription.generation++;
    if (subscription.trailing !== null) clearTimeout(subscription.trailing);
    subscription.release();
  }
}

function keyOf(serviceId: string, uri: string): string {
  return `${serviceId}\u0000${uri}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function safeCall(callback: () => void): void {
  try {
    callback();
  } catch {
    // A watcher's failure is its own.
  }
}
