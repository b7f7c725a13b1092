/**
 * Loading data for a settings page through the bridge: the value (null while loading), a reload,
 * and a setter for answers that already carry the new state. Failures go to the error banner.
 * Only the MCP pages (`features/mcp/`) still use it; the other pages read through the shared
 * query cache (`data/use-query.ts`), which this is to give way to.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AivoryBridge } from '../../bridge/bridge';
import { useApp } from '../../state/store';

/** A bridge call a button runs (undefined while there is no bridge). */
export type BridgeTask = () => Promise<unknown> | undefined;

/** What a page gets back. */
export interface Loaded<T> {
  data: T | null;
  reload(): Promise<void>;
  set(value: T): void;
}

/** Loads once on mount with `load(bridge)`; `reload` runs it again. */
export function useLoaded<T>(load: (bridge: AivoryBridge) => Promise<T>): Loaded<T> {
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const [data, setData] = useState<T | null>(null);
  // `load` is a fresh closure each render; the page's data source never changes.
  const source = useRef(load);
  const reload = useCallback(async () => {
    if (!bridge) return;
    try {
      setData(await source.current(bridge));
    } catch (error) {
      showError(error);
    }
  }, [bridge, showError]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, reload, set: setData };
}
