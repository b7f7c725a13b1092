/** The shape of the one renderer store, made of three slices (session, conversations, chat). */
import type { Conversation, Message, TurnMode } from '../../shared/dto';
import type { EventPayload, InvokeResponse } from '../../shared/ipc-contract';
import type { BudgetUpdateEvent } from '../../shared/turn-events';
import type { AivoryBridge } from '../bridge/bridge';
import type { LanguageSetting, Locale } from '../i18n/i18n';
import type { PendingAttachment, ShownFile } from './attachment-rules';
import type { LiveTurn } from './live-turn';
import type { ModelChoice } from './composer-rules';

/** Which screen shows. */
export type Phase = 'loading' | 'setup' | 'ready';
/** A stored turn's summary. */
export type TurnSummary = InvokeResponse<'conversations.get'>['turns'][number];
/** One full-text search hit. */
export type SearchHit = InvokeResponse<'conversations.search'>[number];

/** A live turn plus the user's text while it is not yet among the loaded messages. */

export interface ShownTurn extends LiveTurn {
  userText: string | null;
  /** The files sent with that text (not yet stored, so without paths). */
  userFiles?: ShownFile[];
}

/** Session state and actions. */
export interface SessionSlice {
  bridge: AivoryBridge | null;
  phase: Phase;
  connected: boolean;
  locale: Locale;
  languageSetting: LanguageSetting;
  settingsOpen: boolean;
  error: string | null;
  version: string;
  /** Connects the store to a bridge and loads the first screen. */
  start(bridge: AivoryBridge): Promise<void>;
  setLanguage(setting: LanguageSetting): Promise<void>;
  setSettingsOpen(open: boolean): void;
  /** Called by the setup screen once a model is saved. */
  finishSetup(): Promise<void>;
  showError(error: unknown): void;
  dismissError(): void;
}

/** Conversation state and actions. */
export interface ConversationSlice {
  conversations: Conversation[];
  searchQuery: string;
  hits: SearchHit[] | null;
  activeId: string | null;
  messages: Message[];
  /** Turn summaries of the active conversation by assistant message id. */
  turns: Record<string, TurnSummary>;
  /** The last budget seen for an assistant message (kept after the turn is reloaded). */
  budgets: Record<string, BudgetUpdateEvent>;
  /** For each shown message with other versions: all their ids, oldest first. */
  versions: Record<string, string[]>;
  /** The message before the first loaded one (more to load above); null: all loaded. */
  older: string | null;
  /** True while an older page is being read. */
  loadingOlder: boolean;
  /** The last loaded message when more follow it (a window around a search hit); null: none. */
  newer: string | null;
  /** True while a newer page is being read. */
  loadingNewer: boolean;
  /** A message to scroll to once shown (a search hit); null: none. */
  focusMessageId: string | null;
  /**
   * Where the reader last asked to go: a conversation being opened (or open), null for a new
   * chat. A conversation's page that arrives after the reader went elsewhere is not shown (a
   * turn's reload landing after New chat would otherwise reopen the old conversation, and the
   * next message would go there).
   */
  headingId: string | null;
  refreshConversations(): Promise<void>;
  search(query: string): Promise<void>;
  /**
   * Opens a conversation on its latest page (again: keeps the older pages loaded when they still
   * lead to it); with `focusMessageId`, loads a window around that message and asks to scroll
   * to it.
   */
  openConversation(id: string, focusMessageId?: string): Promise<void>;
  /**
   * Reads a conversation again on its latest page (a turn ended, an exchange was deleted, another
   * version is shown): shown only if the reader is still heading there when it arrives.
   */
  reloadConversation(id: string): Promise<void>;
  /** Starts reading the page before the loaded ones; false when there is none or one is on its way. */
  loadOlder(): boolean;
  /** Starts reading the page after the loaded ones; false when there is none or one is on its way. */
  loadNewer(): boolean;
  /** The focused message has been scrolled to. */
  clearFocus(): void;
  /**
   * How many times a new chat was started (New chat, or the open conversation deleted): the
   * composer empties its draft each time, so nothing of the old one is sent into the new one.
   */
  newChats: number;
  newChat(): void;
  renameConversation(id: string, title: string): Promise<void>;
  /** Pins (true) or unpins a conversation: pinned ones head the sidebar. */
  pinConversation(id: string, pinned: boolean): Promise<void>;
  deleteConversation(id: string): Promise<void>;
  /** Deletes a question of the open conversation with its answer (given either message). */
  deleteExchange(messageId: string): Promise<void>;
  /** Shows another version of a message of the open conversation (and the newest path under it). */
  showVersion(messageId: string): Promise<void>;
  exportConversation(id: string, format: 'md' | 'json'): Promise<void>;
}

/** Chat state and actions. */
export interface ChatSlice {
  liveTurns: Record<string, ShownTurn>;
  /** The text being sent before `chat.send` answers. */
  sendingText: string | null;
  /** The files being sent with it. */
  sendingFiles: ShownFile[];
  mode: TurnMode;
  setMode(mode: TurnMode): void;
  /** The saved model the composer uses; null: the environment model, else the saved default. */
  modelId: string | null;
  setModelId(id: string | null): void;
  /**
   * More saved models the next question goes to beside the composer's (at most three): their
   * answers stream side by side. Empty: the composer's model alone.
   */
  compareModelIds: string[];
  setCompareModelIds(ids: string[]): void;
  /**
   * Keeps one answer of several models' (`groupId`) as the conversation's answer: shows that
   * version and closes the side-by-side view (the others stay versions of it).
   */
  keepAnswer(groupId: string, messageId: string): Promise<void>;
  /**
   * A new chat's own tool switches, set in the composer before the conversation exists; its
   * first message sends them (`chat.send`'s `toolToggles`). Cleared by New chat.
   */
  draftToolToggles: Record<string, boolean>;
  /** Sets (true/false) or removes (null) one of the new chat's switches. */
  setDraftToolToggle(name: string, value: boolean | null): void;
  /** Text waiting to be put into the composer (a starter prompt); `seq` tells repeats apart. */
  composerInsert: { text: string; seq: number } | null;
  /** Puts `text` into the composer (after what is there) and focuses it. */
  insertIntoComposer(text: string): void;
  /** Called by the composer once it took `composerInsert`. */
  clearComposerInsert(): void;
  /** Sends a message (text, files or both); resolves false when it was not sent. */
  send(text: string, files?: readonly PendingAttachment[]): Promise<boolean>;
  /**
   * Answers the open conversation's last question again, replacing `failedMessageId` (its last
   * answer, which failed, was stopped or came back empty); resolves false when not started.
   */
  retry(failedMessageId: string): Promise<boolean>;
  /**
   * Writes a new version of an answer of the open conversation (its question is asked again), in
   * `mode` (default: the composer's), with the saved model `modelId` (default: the composer's).
   */
  regenerate(answerId: string, mode?: TurnMode, modelId?: string): Promise<boolean>;
  /** The models the composer's picker offers (kept here for "regenerate with another model"). */
  modelChoices: ModelChoice[];
  setModelChoices(choices: ModelChoice[]): void;
  /** Asks a question of the open conversation again as `text`: a new version, answered anew. */
  editAndResend(questionId: string, text: string): Promise<boolean>;
  stop(turnId: string): Promise<void>;
  receiveTurnEvent(payload: EventPayload<'turn.event'>): void;
}

/** The whole store. */
export type AppState = SessionSlice & ConversationSlice & ChatSlice;
