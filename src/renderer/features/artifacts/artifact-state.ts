/**
 * Which file the artifact viewer shows and how wide it is. Like the sidebar and the theme it lives
 * outside the zustand store: the store belongs to the chat, and this needs nothing from it but the
 * conversation's files, which the panel reads itself. The width is remembered in localStorage.
 */
import { useSyncExternalStore } from 'react';

import type { ViewedFile } from './artifact-files';
import { clearOpening } from './opening-marker';

export type { ViewedFile };
export { conversationFiles, stepFile } from './artifact-files';

/** What the layout shows. */
export interface ArtifactView {
  file: ViewedFile | null;
  /** The panel's width in px (wide windows; narrow ones show it full window). */
  width: number;
}

const WIDTH_KEY = 'aivory.artifactWidth';
/** The narrowest and the default panel (px). */
export const MIN_PANEL_WIDTH = 320;
export const DEFAULT_PANEL_WIDTH = 560;

let view: ArtifactView = { file: null, width: readWidth() };
const listeners = new Set<() => void>();

function readWidth(): number {
  try {
    const saved = Number(window.localStorage.getItem(WIDTH_KEY));
    return Number.isFinite(saved) && saved >= MIN_PANEL_WIDTH ? saved : DEFAULT_PANEL_WIDTH;
  } catch {
    return DEFAULT_PANEL_WIDTH;
  }
}

function set(next: ArtifactView): void {
  view = next;
  for (const listener of listeners) listener();
}

/** Shows `file` in the viewer. */
export function openArtifact(file: ViewedFile): void {
  set({ ...view, file });
}

/** Closes the viewer (a file it was still opening is no longer being opened). */
export function closeArtifact(): void {
  clearOpening();
  if (view.file !== null) set({ ...view, file: null });
}

/** Sets the panel's width (at least MIN_PANEL_WIDTH); `save` keeps it for the next start. */
export function setArtifactWidth(width: number, save: boolean): void {
  const next = Math.max(MIN_PANEL_WIDTH, Math.round(width));
  if (next !== view.width) set({ ...view, width: next });
  if (!save) return;
  try {
    window.localStorage.setItem(WIDTH_KEY, String(next));
  } catch {
    // Storage refused (private mode): the width lasts for this page only.
  }
}

/** The viewer's state, re-rendering on change. */
export function useArtifactView(): ArtifactView {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => view,
  );
}
