/**
 * `useQuery(key, fetch)`: a component's view of one key of the shared query cache
 * (`query-cache.ts`): the cached value at once, a fresh request on mount, and a re-render whenever
 * the key changes (an answer, a write's `set`, an invalidation).
 */
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import type { AivoryBridge } from '../bridge/bridge';
import { useApp } from '../state/store';
import type { QueryKey, QueryState } from './query-cache';
import { EMPTY, queryCache } from './query-cache';

/** What a component gets back from `useQuery`. */
export interface Query<T> extends QueryState<T> {
  /** Asks the host again; resolves when the answer is in. */
  reload(): Promise<void>;
  /** Puts a write's answer (the new state) into the cache for every component showing it. */
  set(value: T): void;
}

/** Options of `useQuery`. */
export interface QueryOptions {
  /** False: do not ask (yet); the state stays as cached. Default true. */
  enabled?: boolean;
  /** Send a failure to the app's error banner (default true; false: read `error` instead). */
  reportErrors?: boolean;
}

/**
 * Reads `key` through the shared cache: the cached value at once, a fresh request on mount (and
 * whenever `key` changes or is invalidated). `fetch` must give the same answer for the same key.
 */
export function useQuery<T>(
  key: QueryKey,
  fetch: (bridge: AivoryBridge) => Promise<T>,
  options: QueryOptions = {},
): Query<T> {
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const enabled = options.enabled ?? true;
  const reportErrors = options.reportErrors ?? true;
  const id = JSON.stringify(key);
  // The key's identity is its text: a fresh array each render is the same key.
  const stableKey = useMemo(() => key, [id]);
  const cache = bridge ? queryCache(bridge) : null;
  // The latest closure; a key's data source does not change between renders.
  const source = useRef(fetch);
  source.current = fetch;
  const subscribe = useCallback(
    (listener: () => void) => (cache ? cache.subscribe(stableKey, listener) : () => undefined),
    [cache, stableKey],
  );
  const snapshot = useCallback(
    (): QueryState<T> => (cache ? cache.get<T>(stableKey) : EMPTY),
    [cache, stableKey],
  );
  const state = useSyncExternalStore(subscribe, snapshot, snapshot);
  const reload = useCallback(async (): Promise<void> => {
    if (cache) await cache.load(stableKey, (b) => source.current(b));
  }, [cache, stableKey]);
  useEffect(() => {
    if (enabled) void reload();
  }, [enabled, reload]);
  const error = state.error;
  useEffect(() => {
    if (reportErrors && error) showError(error);
  }, [reportErrors, error, showError]);
  const set = useCallback((value: T) => cache?.set(stableKey, value), [cache, stableKey]);
  return { ...state, reload, set };
}
