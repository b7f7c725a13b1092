/** Conversations: the list, search, the open conversation's messages (a page at a time), rename/pin/delete/export. */
import type { StateCreator } from 'zustand';
import {
  deleteConversation,
  deleteExchange,
  exportConversation,
  listConversations,
  newerMessages,
  olderMessages,
  openConversation as openConversationPage,
  pinConversation,
  renameConversation,
  searchConversations,
  showVersion,
} from '../data/conversations';
import type { AppState, ConversationSlice, ShownTurn } from './app-state';
import {
  pathOfPage,
  withLatestPage,
  withNewerPage,
  withOlderPage,
  withoutMessages,
} from './message-pages';

/** The conversation slice. */
export const createConversationSlice: StateCreator<AppState, [], [], ConversationSlice> = (
  set,
  get,
) => {
  /** Runs a bridge call; failures go to the error banner. */
  const guarded = async (task: (bridge: NonNullable<AppState['bridge']>) => Promise<void>) => {
    const bridge = get().bridge;
    if (!bridge) return;
    try {
      await task(bridge);
    } catch (error) {
      get().showError(error);
    }
  };
  const lists = requestOrder();
  const pages = requestOrder();
  /**
   * Reads a conversation's page and shows it, unless the reader went elsewhere meanwhile or a
   * later read of it was shown already. `navigate`: the reader goes there now (a click, a search
   * hit, a shortcut); otherwise a reload, which does not move the reader.
   */
  const showPage = (id: string, focusMessageId: string | undefined, navigate: boolean) =>
    guarded(async (bridge) => {
      const request = pages.next();
      if (navigate) set({ headingId: id });
      let loaded;
      try {
        // A search hit opens a window around it (not everything from it to the end).
        loaded = await openConversationPage(bridge, id, focusMessageId ?? null);
      } catch (error) {
        // Still where the reader was: reloads of the shown conversation go on being shown.
        if (get().headingId === id) set({ headingId: get().activeId });
        throw error;
      }
      if (get().headingId !== id || !pages.shows(request)) return;
      const loadedIds = new Set(loaded.messages.map((message) => message.id));
      const liveTurns: Record<string, ShownTurn> = {};
      for (const turn of Object.values(get().liveTurns)) {
        const persisted = turn.messageId !== null && loadedIds.has(turn.messageId);
        // An ended turn is stored by now (shown from the store when on the shown path; another
        // version's stays in the store); a running one stays live.
        // Several models' answers stay side by side until one is kept (or a new question).
        const compared = turn.group !== undefined && turn.conversationId === id;
        if (turn.end !== null && !compared && (persisted || turn.conversationId === id)) continue;
        liveTurns[turn.turnId] = persisted ? { ...turn, userText: null } : turn;
      }
      rememberOpen(id);
      const state = get();
      // The same conversation again (after a turn, a deletion, a version switch) keeps the
      // older pages the reader scrolled up to; a search hit's page replaces them.
      const path =
        state.activeId === id && focusMessageId === undefined
          ? withLatestPage(state, loaded)
          : pathOfPage(loaded);
      set({
        activeId: id,
        // The composer continues with the model the conversation last used (the picker falls
        // back to the default when that model was removed).
        ...(state.activeId !== id ? { modelId: loaded.conversation.modelId } : {}),
        ...path,
        loadingOlder: false,
        loadingNewer: false,
        focusMessageId: focusMessageId ?? null,
        liveTurns,
      });
    });
  return {
    conversations: [],
    searchQuery: '',
    hits: null,
    activeId: null,
    messages: [],
    turns: {},
    budgets: {},
    versions: {},
    older: null,
    loadingOlder: false,
    newer: null,
    loadingNewer: false,
    focusMessageId: null,
    headingId: null,
    refreshConversations: () =>
      guarded(async (bridge) => {
        const request = lists.next();
        const conversations = await listConversations(bridge);
        if (lists.shows(request)) set({ conversations });
      }),
    search: (query) =>
      guarded(async (bridge) => {
        set({ searchQuery: query });
        if (query.trim() === '') {
          set({ hits: null });
          return;
        }
        const hits = await searchConversations(bridge, query);
        if (get().searchQuery === query) set({ hits });
      }),
    openConversation: (id, focusMessageId) => showPage(id, focusMessageId, true),
    reloadConversation: (id) => showPage(id, undefined, false),
    loadOlder() {
      const { bridge, activeId: id, older: from, loadingOlder } = get();
      if (bridge === null || id === null || from === null || loadingOlder) return false;
      set({ loadingOlder: true });
      void guarded(async () => {
        try {
          const page = await olderMessages(bridge, { id, from });
          const state = get();
          if (state.activeId !== id || state.older !== from) return;
          const path = withOlderPage(state, page);
          if (path !== null) set(path);
          else await get().reloadConversation(id);
        } finally {
          if (get().activeId === id) set({ loadingOlder: false });
        }
      });
      return true;
    },
    loadNewer() {
      const { bridge, activeId: id, newer: after, loadingNewer } = get();
      if (bridge === null || id === null || after === null || loadingNewer) return false;
      set({ loadingNewer: true });
      void guarded(async () => {
        try {
          const page = await newerMessages(bridge, { id, after });
          const state = get();
          if (state.activeId !== id || state.newer !== after) return;
          const path = withNewerPage(state, after, page);
          if (path !== null) set(path);
          else await get().reloadConversation(id);
        } finally {
          if (get().activeId === id) set({ loadingNewer: false });
        }
      });
      return true;
    },
    clearFocus: () => set({ focusMessageId: null }),
    newChats: 0,
    newChat() {
      rememberOpen(null);
      set({
        activeId: null,
        headingId: null,
        messages: [],
        turns: {},
        versions: {},
        older: null,
        loadingOlder: false,
        newer: null,
        loadingNewer: false,
        focusMessageId: null,
        newChats: get().newChats + 1,
        draftToolToggles: {},
      });
    },
    deleteExchange: (messageId) =>
      guarded(async (bridge) => {
        const id = get().activeId;
        if (id === null) return;
        const { deleted } = await deleteExchange(bridge, { id, messageId });
        if (get().activeId === id) set(withoutMessages(get(), deleted));
        await get().reloadConversation(id);
      }),
    showVersion: (messageId) =>
      guarded(async (bridge) => {
        const id = get().activeId;
        if (id === null) return;
        await showVersion(bridge, { id, messageId });
        await get().reloadConversation(id);
      }),
    renameConversation: (id, title) =>
      guarded(async (bridge) => {
        await renameConversation(bridge, id, title);
        await get().refreshConversations();
      }),
    pinConversation: (id, pinned) =>
      guarded(async (bridge) => {
        const changed = await pinConversation(bridge, id, pinned);
        // In place at once (the order by activity does not change), then the host's list.
        set({
          conversations: get().conversations.map((item) => (item.id === id ? changed : item)),
        });
        await get().refreshConversations();
      }),
    deleteConversation: (id) =>
      guarded(async (bridge) => {
        await deleteConversation(bridge, id);
        if (get().activeId === id) get().newChat();
        await get().refreshConversations();
      }),
    exportConversation: (id, format) =>
      guarded(async (bridge) => {
        // Written to a file by the host and downloaded from there (the desktop asks where to save
        // it): a big conversation's text never travels as one message.
        const exported = await exportConversation(bridge, { id, format });
        const link = document.createElement('a');
        link.href = bridge.fileUrl(exported.path, true);
        link.download = exported.fileName;
        link.click();
      }),
  };
};

/**
 * Numbers the requests of one kind, so that an answer arriving after a later request's answer
 * was shown is dropped (the host may answer out of order).
 */
function requestOrder(): { next(): number; shows(request: number): boolean } {
  let issued = 0;
  let shown = 0;
  return {
    next: () => ++issued,
    /** Whether `request`'s answer is to be shown (no later one was); marks it shown. */
    shows(request) {
      if (request < shown) return false;
      shown = request;
      return true;
    },
  };
}

/** Where the open conversation is remembered, so a reload reopens it (this browser only). */
export const LAST_CONVERSATION_KEY = 'aivory.lastConversation';

/** Remembers the open conversation (null: a new chat). Storage may be missing or full. */
function rememberOpen(id: string | null): void {
  try {
    if (id === null) globalThis.localStorage?.removeItem(LAST_CONVERSATION_KEY);
    else globalThis.localStorage?.setItem(LAST_CONVERSATION_KEY, id);
  } catch {
    // Private mode or no storage: a reload then opens a new chat, as before.
  }
}

/** The conversation open before the reload, if any. */
export function rememberedConversation(): string | null {
  try {
    return globalThis.localStorage?.getItem(LAST_CONVERSATION_KEY) ?? null;
  } catch {
    return null;
  }
}
