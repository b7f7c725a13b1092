/** Session: the bridge, which screen shows, language, settings panel, the error banner. */
import type { StateCreator } from 'zustand';
import { appStatus, getSettings, setSettings } from '../data/settings';
import { resolveLocale } from '../i18n/i18n';
import type { AppState, SessionSlice } from './app-state';
import { batchPerFrame } from './frame-batch';
import { rememberedConversation } from './conversation-slice';
import { requestErrorText } from './request-error-text';

/** The browser's preferred languages (empty outside a browser, e.g. in unit tests). */
function preferredLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages;
}

/** The session slice. */
export const createSessionSlice: StateCreator<AppState, [], [], SessionSlice> = (set, get) => ({
  bridge: null,
  phase: 'loading',
  connected: true,
  locale: resolveLocale('system', preferredLanguages()),
  languageSetting: 'system',
  settingsOpen: false,
  error: null,
  version: '',
  async start(bridge) {
    set({ bridge });
    bridge.onConnectionChange((connected) => set({ connected }));
    // Streamed deltas arrive by the hundred per second: one render per frame, not per delta.
    bridge.onEvent(
      'turn.event',
      batchPerFrame((payload) => get().receiveTurnEvent(payload)),
    );
    // A title generated after a conversation's first answer (or any change the host announces).
    bridge.onEvent('conversations.updated', ({ conversation }) => {
      const list = get().conversations;
      if (list.some((item) => item.id === conversation.id)) {
        set({
          conversations: list.map((item) => (item.id === conversation.id ? conversation : item)),
        });
      } else {
        void get().refreshConversations();
      }
    });
    try {
      const [status, settings] = await Promise.all([appStatus(bridge), getSettings(bridge)]);
      set({
        version: status.version,
        languageSetting: settings.ui.language,
        locale: resolveLocale(settings.ui.language, preferredLanguages()),
        mode: settings.chat.defaultMode,
        phase: status.needsSetup ? 'setup' : 'ready',
      });
      if (!status.needsSetup) {
        await get().refreshConversations();
        // A reload reopens the conversation that was open (if it still exists).
        const last = rememberedConversation();
        if (last !== null && get().conversations.some((item) => item.id === last)) {
          await get().openConversation(last);
        }
      }
    } catch (error) {
      get().showError(error);
    }
  },
  async setLanguage(setting) {
    const bridge = get().bridge;
    set({ languageSetting: setting, locale: resolveLocale(setting, preferredLanguages()) });
    if (!bridge) return;
    try {
      await setSettings(bridge, { key: 'ui', values: { language: setting } });
    } catch (error) {
      get().showError(error);
    }
  },
  setSettingsOpen(open) {
    set({ settingsOpen: open });
  },
  async finishSetup() {
    set({ phase: 'ready' });
    await get().refreshConversations();
  },
  showError(error) {
    set({ error: requestErrorText(error, get().locale) });
  },
  dismissError() {
    set({ error: null });
  },
});
