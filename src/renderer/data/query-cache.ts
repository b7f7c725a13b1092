/**
 * The renderer's one read path: a cache of host answers shared by every component, keyed by
 * query key (`['models']`, `['conversation-settings', id]`), per bridge. `useQuery(key, fetch)`
 * shows the cached value at once and asks the host again on mount (stale-while-revalidate, as
 * SWR does); two components asking for one key share one request. A write invalidates the keys
 * it changes (the data modules do it after each mutation), and host events invalidate what they
 * announce (`EVENT_INVALIDATIONS`); an invalidated key that a mounted component shows is fetched
 * again at once, any other on its next mount.
 *
 * Hand-written rather than SWR or TanStack Query: the app needs a cache, sharing, invalidation
 * by key prefix and a setter — about 250 lines with the hook and the comments — and no retry,
 * focus or interval policies to configure away (docs/architecture/desktop-ui.md, "Renderer
 * data").
 */
import type { AivoryBridge } from '../bridge/bridge';
import type { EventName, EventPayload } from '../../shared/ipc-contract';

/** A query's identity: its domain first, then what narrows it. */
export type QueryKey = readonly (string | number | boolean | null)[];

/** What a component sees of one key. */
export interface QueryState<T> {
  /** The last answer (kept while a fresh one loads), or null before the first. */
  readonly data: T | null;
  /** The last failure, cleared by the next answer. */
  readonly error: unknown;
  /** Whether a request is in flight. */
  readonly loading: boolean;
}

interface Entry {
  key: QueryKey;
  state: QueryState<unknown>;
  fetch: ((bridge: AivoryBridge) => Promise<unknown>) | null;
  inFlight: Promise<void> | null;
  /** Bumped by every write, so an answer that arrives after a newer value is dropped. */
  version: number;
  stale: boolean;
  listeners: Set<() => void>;
}

export const EMPTY: QueryState<never> = { data: null, error: null, loading: false };

/** Whether `key` starts with `prefix`. */
export function keyMatches(key: QueryKey, prefix: QueryKey): boolean {
  return prefix.length <= key.length && prefix.every((part, index) => key[index] === part);
}

/** The cache of one bridge (components read it through `useQuery`). */
export class QueryCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly bridge: AivoryBridge) {}

  private entry(key: QueryKey): Entry {
    const id = JSON.stringify(key);
    let entry = this.entries.get(id);
    if (!entry) {
      entry = {
        key,
        state: EMPTY,
        fetch: null,
        inFlight: null,
        version: 0,
        stale: true,
        listeners: new Set(),
      };
      this.entries.set(id, entry);
    }
    return entry;
  }

  private update(entry: Entry, state: Partial<QueryState<unknown>>): void {
    entry.state = { ...entry.state, ...state };
    for (const listener of entry.listeners) listener();
  }

  /** The current state of `key`. */
  get<T>(key: QueryKey): QueryState<T> {
    return this.entry(key).state as QueryState<T>;
  }

  /** Calls `listener` whenever `key` changes; returns the unsubscribe function. */
  subscribe(key: QueryKey, listener: () => void): () => void {
    const entry = this.entry(key);
    entry.listeners.add(listener);
    return () => entry.listeners.delete(listener);
  }

  /**
   * Asks the host for `key` with `fetch` (remembered for later invalidations); joins a request
   * already in flight. Resolves when the answer (or the failure) is in the cache.
   */
  load<T>(key: QueryKey, fetch: (bridge: AivoryBridge) => Promise<T>): Promise<void> {
    const entry = this.entry(key);
    entry.fetch = fetch;
    return this.run(entry);
  }

  private run(entry: Entry): Promise<void> {
    if (entry.inFlight) return entry.inFlight;
    const fetch = entry.fetch;
    if (!fetch) return Promise.resolve();
    const version = ++entry.version;
    entry.stale = false;
    this.update(entry, { loading: true });
    const done = fetch(this.bridge).then(
      (data) => {
        if (entry.version === version) this.update(entry, { data, error: null, loading: false });
      },
      (error: unknown) => {
        if (entry.version === version) this.update(entry, { error, loading: false });
      },
    );
    const tracked: Promise<void> = done.finally(() => {
      if (entry.inFlight === tracked) entry.inFlight = null;
    });
    entry.inFlight = tracked;
    return tracked;
  }

  /** Puts an answer that already carries the new state (a write's response) into the cache. */
  set<T>(key: QueryKey, data: T): void {
    const entry = this.entry(key);
    entry.version += 1;
    entry.inFlight = null;
    this.update(entry, { data, error: null, loading: false });
  }

  /**
   * Marks every key under `prefix` stale and fetches again those a mounted component shows;
   * resolves when they are in.
   */
  invalidate(prefix: QueryKey): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const entry of this.entries.values()) {
      if (!keyMatches(entry.key, prefix)) continue;
      entry.stale = true;
      if (entry.listeners.size > 0 && entry.fetch) {
        // A request in flight may have been answered before the write: ask again after it.
        entry.version += 1;
        entry.inFlight = null;
        pending.push(this.run(entry));
      }
    }
    return Promise.all(pending).then(() => undefined);
  }
}

/**
 * Host events that change what a query shows: the keys each one invalidates. A turn may save a
 * memory (save_memory); a server announcing changed tools marks its service stale (the list) and
 * its tools; one announcing changed prompts or resources changes its library.
 */
const EVENT_INVALIDATIONS: {
  [E in EventName]?: (payload: EventPayload<E>) => QueryKey[];
} = {
  'turn.event': ({ event }) => (event.type === 'turn-end' ? [['memories']] : []),
  'mcp.stale': ({ serviceId }) => [
    ['mcp', 'list'],
    ['mcp', 'tools', serviceId],
  ],
  'mcp.libraryChanged': ({ serviceId }) => [['mcp', 'library', serviceId]],
};

const caches = new WeakMap<AivoryBridge, QueryCache>();

/** The cache of `bridge`, made (and subscribed to the host's events) on first use. */
export function queryCache(bridge: AivoryBridge): QueryCache {
  let cache = caches.get(bridge);
  if (!cache) {
    const created = new QueryCache(bridge);
    for (const name of Object.keys(EVENT_INVALIDATIONS) as EventName[]) {
      const keysOf = EVENT_INVALIDATIONS[name] as (payload: unknown) => QueryKey[];
      bridge.onEvent(name, (payload) => {
        for (const key of keysOf(payload)) void created.invalidate(key);
      });
    }
    caches.set(bridge, created);
    cache = created;
  }
  return cache;
}

/** Invalidates `prefix` in the cache of `bridge` (the data modules call it after a write). */
export function invalidate(bridge: AivoryBridge, prefix: QueryKey): Promise<void> {
  return queryCache(bridge).invalidate(prefix);
}
