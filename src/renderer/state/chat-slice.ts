/**
 * Chat: sending, stopping, and following turns live. Events are keyed by turnId and may arrive
 * before `chat.send` answers, so a turn is created by whichever comes first.
 */
import type { StateCreator } from 'zustand';
import type { AppState, ChatSlice, ShownTurn } from './app-state';
import type { ShownFile } from './attachment-rules';
import { attachmentsPayload } from './attachment-rules';
import { applyTurnEvent, emptyTurn } from './live-turn';

function shown(turn: ShownTurn | undefined, turnId: string): ShownTurn {
  return turn ?? { ...emptyTurn(turnId), userText: null };
}

/** The live turns with the one `chat.send` just started (its events may have come first). */
function startedTurn(
  liveTurns: Record<string, ShownTurn>,
  sent: { turnId: string; conversationId: string; messageId: string },
  userText: string | null,
  userFiles: ShownFile[],
): Record<string, ShownTurn> {
  return {
    ...liveTurns,
    [sent.turnId]: {
      ...shown(liveTurns[sent.turnId], sent.turnId),
      conversationId: sent.conversationId,
      messageId: sent.messageId,
      userText,
      userFiles,
    },
  };
}

/** The chat slice. */
export const createChatSlice: StateCreator<AppState, [], [], ChatSlice> = (set, get) => ({
  liveTurns: {},
  sendingText: null,
  sendingFiles: [],
  mode: 'normal',
  setMode(mode) {
    set({ mode });
  },
  modelId: null,
  setModelId(modelId) {
    set({ modelId });
  },
  async send(text, files = []) {
    const { bridge, activeId, mode, modelId } = get();
    if (!bridge || (text.trim() === '' && files.length === 0) || get().sendingText !== null)
      return false;
    const shownFiles = files.map((file): ShownFile => ({
      name: file.name,
      size: file.size,
      mime: file.mime,
      path: null,
    }));
    set({ sendingText: text, sendingFiles: shownFiles });
    try {
      const sent = await bridge.invoke('chat.send', {
        text,
        mode,
        ...(activeId ? { conversationId: activeId } : {}),
        ...(modelId ? { modelId } : {}),
        ...(files.length > 0 ? { attachments: attachmentsPayload(files) } : {}),
      });
      set({
        liveTurns: startedTurn(get().liveTurns, sent, text, shownFiles),
        activeId: get().activeId ?? sent.conversationId,
        sendingText: null,
        sendingFiles: [],
      });
      if (activeId === null) await get().refreshConversations();
      return true;
    } catch (error) {
      set({ sendingText: null, sendingFiles: [] });
      get().showError(error);
      return false;
    }
  },
  async retry(failedMessageId) {
    const { bridge, activeId, mode, modelId } = get();
    if (!bridge || activeId === null || get().sendingText !== null) return false;
    try {
      const sent = await bridge.invoke('chat.send', {
        text: '',
        retry: true,
        mode,
        conversationId: activeId,
        ...(modelId ? { modelId } : {}),
      });
      set({
        // The question stays as stored; only the new answer is live.
        liveTurns: startedTurn(get().liveTurns, sent, null, []),
        // The failed answer is gone from the store; the reload after the turn agrees.
        messages: get().messages.filter((message) => message.id !== failedMessageId),
      });
      return true;
    } catch (error) {
      get().showError(error);
      return false;
    }
  },
  async stop(turnId) {
    try {
      await get().bridge?.invoke('chat.cancel', { turnId });
    } catch (error) {
      get().showError(error);
    }
  },
  receiveTurnEvent({ turnId, event }) {
    const turn = applyTurnEvent(shown(get().liveTurns[turnId], turnId), event);
    const next: ShownTurn = { ...shown(get().liveTurns[turnId], turnId), ...turn };
    set({ liveTurns: { ...get().liveTurns, [turnId]: next } });
    if (event.type === 'budget-update' && next.messageId !== null) {
      set({ budgets: { ...get().budgets, [next.messageId]: event } });
    }
    if (event.type === 'turn-end' && next.conversationId !== null) {
      void get().refreshConversations();
      if (get().activeId === next.conversationId) void get().openConversation(next.conversationId);
    }
  },
});
