/**
 * Chat: sending, stopping, and following turns live. Events are keyed by turnId and may arrive
 * before `chat.send` answers, so a turn is created by whichever comes first.
 */
import type { StateCreator } from 'zustand';
import { cancelTurn, sendMessage } from '../data/chat';
import type { TurnMode } from '../../shared/dto';
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
  sent: {
    turnId: string;
    conversationId: string;
    messageId: string;
    answers?: { turnId: string; messageId: string }[] | undefined;
  },
  userText: string | null,
  userFiles: ShownFile[],
): Record<string, ShownTurn> {
  // Several models: each answer is a live turn of its own; the question shows with the first.
  if (sent.answers !== undefined) {
    const next = { ...withoutGroups(liveTurns, sent.conversationId) };
    const size = sent.answers.length;
    sent.answers.forEach((answer, index) => {
      next[answer.turnId] = {
        group: { id: sent.turnId, index, size },
        ...shown(liveTurns[answer.turnId], answer.turnId),
        conversationId: sent.conversationId,
        messageId: answer.messageId,
        userText: index === 0 ? userText : null,
        userFiles: index === 0 ? userFiles : [],
      };
    });
    return next;
  }
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

/**
 * The live turns without the ended answers of several models kept side by side in a conversation
 * (a new question there, or a kept answer, closes the comparison).
 */
export function withoutGroups(
  liveTurns: Record<string, ShownTurn>,
  conversationId: string,
): Record<string, ShownTurn> {
  return Object.fromEntries(
    Object.entries(liveTurns).filter(
      ([, turn]) =>
        !(turn.group !== undefined && turn.end !== null && turn.conversationId === conversationId),
    ),
  );
}

type SetState = Parameters<StateCreator<AppState, [], [], ChatSlice>>[0];

/**
 * Answers again in the open conversation (a retry, a new version, an edited question): starts the
 * turn, shows it live, and keeps of the shown messages what `keep` leaves (the reload after the
 * turn agrees). `question` is the new question shown live (an edit), absent when the stored one
 * stays. Resolves false when it did not start.
 */
async function resend(
  get: () => AppState,
  set: SetState,
  request: ({ retry: true } | { regenerate: string } | { editOf: string; text: string }) & {
    mode?: TurnMode;
    /** A saved model instead of the composer's. */
    modelId?: string;
  },
  keep: (messages: AppState['messages']) => AppState['messages'],
  question?: { text: string; files: ShownFile[] },
): Promise<boolean> {
  const { bridge, activeId, mode, modelId } = get();
  if (!bridge || activeId === null || get().sendingText !== null) return false;
  try {
    const sent = await sendMessage(bridge, {
      text: '',
      mode,
      ...(modelId ? { modelId } : {}),
      ...request,
      conversationId: activeId,
    });
    set({
      liveTurns: startedTurn(get().liveTurns, sent, question?.text ?? null, question?.files ?? []),
      messages: keep(get().messages),
      // What followed is replaced: the window (if one was open far back) now ends here.
      newer: null,
    });
    return true;
  } catch (error) {
    get().showError(error);
    return false;
  }
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
    set({ modelId, compareModelIds: get().compareModelIds.filter((id) => id !== modelId) });
  },
  compareModelIds: [],
  setCompareModelIds(ids) {
    set({ compareModelIds: ids.filter((id) => id !== get().modelId).slice(0, 3) });
  },
  async keepAnswer(groupId, messageId) {
    const conversationId = get().activeId;
    if (conversationId === null) return;
    await get().showVersion(messageId);
    set({
      liveTurns: Object.fromEntries(
        Object.entries(get().liveTurns).filter(([, turn]) => turn.group?.id !== groupId),
      ),
    });
  },
  composerInsert: null,
  insertIntoComposer(text) {
    set({ composerInsert: { text, seq: (get().composerInsert?.seq ?? 0) + 1 } });
  },
  clearComposerInsert() {
    set({ composerInsert: null });
  },
  draftToolToggles: {},
  setDraftToolToggle(name, value) {
    const next = { ...get().draftToolToggles };
    if (value === null) delete next[name];
    else next[name] = value;
    set({ draftToolToggles: next });
  },
  async send(text, files = []) {
    const { bridge, activeId, mode, modelId, draftToolToggles, compareModelIds } = get();
    const toggles = activeId === null && Object.keys(draftToolToggles).length > 0;
    if (!bridge || (text.trim() === '' && files.length === 0) || get().sendingText !== null)
      return false;
    const shownFiles = files.map((file): ShownFile => ({
      name: file.name,
      size: file.size,
      mime: file.mime,
      path: null,
    }));
    set({ sendingText: text, sendingFiles: shownFiles });
    // A window far back (a search hit) is open: the question goes at the end, so show the end.
    if (activeId !== null && get().newer !== null) void get().reloadConversation(activeId);
    try {
      const sent = await sendMessage(bridge, {
        text,
        mode,
        ...(activeId ? { conversationId: activeId } : {}),
        ...(modelId ? { modelId } : {}),
        ...(compareModelIds.length > 0 ? { compareModelIds } : {}),
        ...(files.length > 0 ? { attachments: attachmentsPayload(files) } : {}),
        ...(toggles ? { toolToggles: draftToolToggles } : {}),
      });
      set({
        // A new question closes a comparison still open here (it continues from the shown answer).
        liveTurns: startedTurn(
          withoutGroups(get().liveTurns, sent.conversationId),
          sent,
          text,
          shownFiles,
        ),
        activeId: get().activeId ?? sent.conversationId,
        headingId: get().headingId ?? sent.conversationId,
        sendingText: null,
        sendingFiles: [],
        ...(activeId === null ? { draftToolToggles: {} } : {}),
      });
      if (activeId === null) await get().refreshConversations();
      return true;
    } catch (error) {
      set({ sendingText: null, sendingFiles: [] });
      get().showError(error);
      return false;
    }
  },
  retry(failedMessageId) {
    // The failed answer is gone from the store; the reload after the turn agrees.
    return resend(get, set, { retry: true }, (messages) =>
      messages.filter((message) => message.id !== failedMessageId),
    );
  },
  modelChoices: [],
  setModelChoices(choices) {
    set({ modelChoices: choices });
  },
  regenerate(answerId, mode, modelId) {
    // The question stays; the answer and what followed it leave the shown path.
    const request = {
      regenerate: answerId,
      ...(mode ? { mode } : {}),
      ...(modelId ? { modelId } : {}),
    };
    return resend(get, set, request, (messages) => {
      const index = messages.findIndex((message) => message.id === answerId);
      return index === -1 ? messages : messages.slice(0, index);
    });
  },
  editAndResend(questionId, text) {
    const question = get().messages.find((message) => message.id === questionId);
    if (!question || text.trim() === '') return Promise.resolve(false);
    const files = question.parts.flatMap((part) =>
      part.kind === 'attachment' ? [{ ...part.attachment }] : [],
    );
    // The new question and its answer replace the old one and what followed it.
    return resend(
      get,
      set,
      { editOf: questionId, text },
      (messages) => {
        const index = messages.findIndex((message) => message.id === questionId);
        return index === -1 ? messages : messages.slice(0, index);
      },
      { text, files },
    );
  },
  async stop(turnId) {
    const bridge = get().bridge;
    if (!bridge) return;
    try {
      await cancelTurn(bridge, turnId);
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
      if (get().activeId === next.conversationId)
        void get().reloadConversation(next.conversationId);
    }
  },
});
