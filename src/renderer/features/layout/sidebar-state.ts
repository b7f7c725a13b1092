/**
 * Whether the conversations sidebar shows. Two cases, decided by the window width:
 * - wide (over NARROW_WIDTH): the sidebar is a column beside the chat; collapsing it is a
 *   preference kept in localStorage, so the next start opens the same way;
 * - narrow (NARROW_WIDTH or less): the sidebar is a drawer over the chat, closed at start and
 *   after a conversation is picked; never remembered.
 * The toggle button (sidebar-toggle.tsx) and ⌘/Ctrl+B (features/shortcuts) both call
 * `toggleSidebar`. Like the theme, it lives outside the zustand store: the store belongs to the
 * chat, and this needs nothing from it.
 */
import { useSyncExternalStore } from 'react';

/** At this width and below the sidebar is an overlay drawer (px; matches layout.css). */
export const NARROW_WIDTH = 900;
const NARROW_QUERY = `(max-width: ${NARROW_WIDTH}px)`;
const CACHE_KEY = 'aivory.sidebar';

/** What the layout shows. */
export interface SidebarView {
  /** The window is narrow: the sidebar is a drawer. */
  narrow: boolean;
  /** The sidebar is shown (the column, or the drawer open). */
  open: boolean;
}

let collapsed = readCollapsed();
let drawerOpen = false;
let view: SidebarView = sidebarView(narrowQuery()?.matches ?? false, collapsed, drawerOpen);
const listeners = new Set<() => void>();

function narrowQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(NARROW_QUERY)
    : null;
}

function readCollapsed(): boolean {
  try {
    return window.localStorage.getItem(CACHE_KEY) === 'collapsed';
  } catch {
    return false;
  }
}

/** The view for a width state (pure: unit-tested). */
export function sidebarView(narrow: boolean, wideCollapsed: boolean, drawer: boolean): SidebarView {
  return { narrow, open: narrow ? drawer : !wideCollapsed };
}

function update(): void {
  const next = sidebarView(narrowQuery()?.matches ?? false, collapsed, drawerOpen);
  if (next.narrow === view.narrow && next.open === view.open) return;
  view = next;
  for (const listener of listeners) listener();
}

/** Shows or hides the sidebar: the drawer in a narrow window, the column in a wide one. */
export function toggleSidebar(): void {
  if (narrowQuery()?.matches ?? false) {
    drawerOpen = !drawerOpen;
  } else {
    collapsed = !collapsed;
    try {
      window.localStorage.setItem(CACHE_KEY, collapsed ? 'collapsed' : 'open');
    } catch {
      // Storage can be off (private windows): the choice then lasts until the window closes.
    }
  }
  update();
}

/** Closes the drawer (a conversation was picked, Esc, a click beside it); no-op when wide. */
export function closeSidebarDrawer(): void {
  drawerOpen = false;
  update();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const query = narrowQuery();
  // Crossing the width closes the drawer: a wide window never reopens into an overlay.
  const onChange = (): void => {
    drawerOpen = false;
    update();
  };
  query?.addEventListener('change', onChange);
  update();
  return () => {
    listeners.delete(listener);
    query?.removeEventListener('change', onChange);
  };
}

/** The sidebar's view, re-rendering on toggles and when the window crosses NARROW_WIDTH. */
export function useSidebar(): SidebarView {
  return useSyncExternalStore(
    subscribe,
    () => view,
    () => view,
  );
}
