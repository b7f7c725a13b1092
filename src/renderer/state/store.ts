/**
 * The renderer's one store (zustand, slices pattern). Components read it through `useApp` with
 * narrow selectors; besides this file only the slices (`*-slice.ts`, for zustand's
 * `StateCreator` type) import zustand.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import type { AppState } from './app-state';
import { createChatSlice } from './chat-slice';
import { createConversationSlice } from './conversation-slice';
import { createSessionSlice } from './session-slice';

/** A fresh store (the app makes one; tests make their own). */
export function createAppStore(): StoreApi<AppState> {
  return createStore<AppState>()((...args) => ({
    ...createSessionSlice(...args),
    ...createConversationSlice(...args),
    ...createChatSlice(...args),
  }));
}

/** The app's store. */
export const appStore = createAppStore();

/** Reads a slice of the app store and re-renders when it changes. */
export function useApp<T>(selector: (state: AppState) => T): T {
  return useStore(appStore, selector);
}
