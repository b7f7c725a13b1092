/**
 * The colour theme: the `ui.theme` setting (light, dark, or system — the default) applied as
 * `data-theme="light|dark"` on `<html>`, which the stylesheets' custom properties key on. `system`
 * follows `matchMedia('(prefers-color-scheme: dark)')` live. The choice is cached in
 * localStorage so the first paint of the next start already has it; the saved setting (loaded
 * once the bridge is up) is what counts. It lives outside the zustand store on purpose: the store
 * belongs to the chat, and the theme needs nothing from it.
 */
import { useSyncExternalStore } from 'react';
import type { AivoryBridge } from '../../bridge/bridge';
import { getSettings, setSettings } from '../../data/settings';

/** The `ui.theme` setting. */
export type ThemeSetting = 'system' | 'light' | 'dark';
/** The theme shown. */
export type Theme = 'light' | 'dark';

const CACHE_KEY = 'aivory.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The theme shown for a setting, given whether the system prefers dark. */
export function resolveTheme(setting: ThemeSetting, systemPrefersDark: boolean): Theme {
  if (setting !== 'system') return setting;
  return systemPrefersDark ? 'dark' : 'light';
}

/** A stored or sent value as a setting (anything unknown is `system`). */
export function asThemeSetting(value: unknown): ThemeSetting {
  return value === 'light' || value === 'dark' ? value : 'system';
}

let current: ThemeSetting = 'system';
const listeners = new Set<() => void>();
let stopFollowing: (() => void) | null = null;

function darkQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(DARK_QUERY)
    : null;
}

function paint(): void {
  if (typeof document === 'undefined') return;
  document.documentElement.dataset.theme = resolveTheme(current, darkQuery()?.matches ?? false);
  document.documentElement.dataset.themeSetting = current;
}

/** Shows `setting` now (and keeps following the system while it is `system`). */
export function applyTheme(setting: ThemeSetting): void {
  current = setting;
  stopFollowing?.();
  stopFollowing = null;
  const query = darkQuery();
  if (setting === 'system' && query !== null) {
    query.addEventListener('change', paint);
    stopFollowing = () => query.removeEventListener('change', paint);
  }
  paint();
  try {
    window.localStorage.setItem(CACHE_KEY, setting);
  } catch {
    // Storage can be off (private windows, tests): the saved setting still applies at start.
  }
  for (const listener of listeners) listener();
}

/** At start, before the first render: the cached setting of the last run, or `system`. */
export function applyCachedTheme(): void {
  applyTheme(asThemeSetting(readCache()));
}

function readCache(): string | null {
  try {
    return window.localStorage.getItem(CACHE_KEY);
  } catch {
    return null;
  }
}

/** Applies the saved `ui.theme` once the bridge answers. */
export async function loadThemeSetting(bridge: AivoryBridge): Promise<void> {
  const settings = await getSettings(bridge);
  applyTheme(asThemeSetting(settings.ui.theme));
}

/** Shows and saves a new setting. */
export async function saveThemeSetting(bridge: AivoryBridge, setting: ThemeSetting): Promise<void> {
  applyTheme(setting);
  await setSettings(bridge, { key: 'ui', values: { theme: setting } });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current setting, for the settings page. */
export function useThemeSetting(): ThemeSetting {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
}
