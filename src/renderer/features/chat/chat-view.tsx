/**
 * The open conversation: its header (title, pin, a menu with rename, export, delete), stored
 * messages, live turns
 * streaming in, and the composer.
 */
import type { ReactNode } from 'react';
import { useEffect, useMemo, useState } from 'react';
import type { TurnMode } from '../../../shared/dto';
import { messageText } from '../../../shared/message-parts';
import { useT } from '../../i18n/use-t';
import { budgetFromToolCalls, storedBudget } from '../../state/budget-text';
import type { ShownTurn } from '../../state/app-state';
import { useApp } from '../../state/store';
import { AssistantMessage, UserMessage } from './message-view';
import type { VersionSwitch } from './message-versions';
import { Composer } from './composer';
import { useMessageWindow } from './use-message-window';
import { useStickToBottom } from './use-stick-to-bottom';
import { ConversationSettingsButton } from '../conversations/conversation-settings-dialog';
import { MoreIcon, PinIcon, UnpinIcon } from '../../components/icons';
import { MenuButton } from '../../components/menu';
import { useConversationActions } from '../conversations/conversation-actions';
import { TitleEditor } from '../conversations/title-editor';
import { LiveAnnouncer } from './live-announcer';
import { EmptyState } from './empty-state';

/** The open conversation (or a new one) with the composer. */
export function ChatView(): ReactNode {
  const t = useT();
  const activeId = useApp((state) => state.activeId);
  const messages = useApp((state) => state.messages);
  const turns = useApp((state) => state.turns);
  const budgets = useApp((state) => state.budgets);
  const liveTurns = useApp((state) => state.liveTurns);
  const sendingText = useApp((state) => state.sendingText);
  const sendingFiles = useApp((state) => state.sendingFiles);
  const live = Object.values(liveTurns).filter(
    (turn) => turn.conversationId === activeId && activeId !== null,
  );
  const liveIds = new Set(live.map((turn) => turn.messageId));
  const running = live.find((turn) => turn.end === null) ?? null;
  // Stored messages re-render only when they change, not on every streamed delta; a long
  // conversation renders from its end (use-message-window.ts).
  const hasOlder = useApp((state) => state.older !== null);
  const loadOlder = useApp((state) => state.loadOlder);
  const focusMessageId = useApp((state) => state.focusMessageId);
  const clearFocus = useApp((state) => state.clearFocus);
  const focusIndex =
    focusMessageId === null ? -1 : messages.findIndex((message) => message.id === focusMessageId);
  const { start, sentinel } = useMessageWindow(
    activeId,
    messages,
    { hasOlder, loadOlder },
    focusIndex < 0 ? 0 : messages.length - focusIndex,
  );
  const liveKey = [...liveIds].join(' ');
  const retry = useApp((state) => state.retry);
  const deleteExchange = useApp((state) => state.deleteExchange);
  const regenerate = useApp((state) => state.regenerate);
  const editAndResend = useApp((state) => state.editAndResend);
  const versions = useApp((state) => state.versions);
  const showVersion = useApp((state) => state.showVersion);
  // While a turn runs here, nothing is deleted (a boolean: the memo must not follow every delta).
  const busy = running !== null;
  const last = messages.at(-1);
  // Only the last stored answer, when it failed, was stopped or came back empty, and no turn
  // runs in this conversation.
  const retriable =
    last !== undefined &&
    last.role === 'assistant' &&
    running === null &&
    !liveIds.has(last.id) &&
    (last.status !== 'complete' || messageText(last.parts).trim() === '')
      ? last.id
      : null;
  /** Where a message stands among its versions ("‹ 2/3 ›"); switching waits for a running turn. */
  const versionOf = (id: string): { versions: VersionSwitch } | Record<string, never> => {
    const siblings = versions[id];
    if (!siblings) return {};
    const show = (index: number): void => {
      const target = siblings[index - 1];
      if (target !== undefined) void showVersion(target);
    };
    return {
      versions: {
        index: siblings.indexOf(id) + 1,
        count: siblings.length,
        ...(busy ? {} : { show }),
      },
    };
  };
  const stored = useMemo(
    () =>
      messages
        .slice(start)
        .filter((message) => !liveIds.has(message.id))
        .map((message) =>
          message.role === 'user' ? (
            <UserMessage
              key={message.id}
              messageId={message.id}
              text={messageText(message.parts)}
              {...versionOf(message.id)}
              {...(busy
                ? {}
                : {
                    onDelete: () => void deleteExchange(message.id),
                    onEdit: (text: string) => void editAndResend(message.id, text),
                  })}
              files={message.parts.flatMap((part) =>
                part.kind === 'attachment' ? [part.attachment] : [],
              )}
            />
          ) : (
            <AssistantMessage
              key={message.id}
              messageId={message.id}
              parts={message.parts}
              status={message.status}
              budget={
                budgets[message.id] ??
                storedBudget(turns[message.id]) ??
                budgetFromToolCalls(
                  turns[message.id]?.turnId ?? '',
                  turns[message.id]?.toolCalls ?? {},
                )
              }
              taint={turns[message.id]?.taint?.reasons ?? []}
              taintedCallId={turns[message.id]?.taint?.toolCallId ?? null}
              stopReason={turns[message.id]?.stopReason ?? null}
              error={turns[message.id]?.error ?? null}
              model={turns[message.id]?.model ?? null}
              modelLabel={turns[message.id]?.modelLabel ?? null}
              usage={turns[message.id]?.usage ?? null}
              {...versionOf(message.id)}
              omittedMessages={turns[message.id]?.omittedMessages ?? 0}
              {...(message.id === retriable ? { onRetry: () => void retry(message.id) } : {})}
              {...(busy || message.status === 'streaming'
                ? {}
                : {
                    onRegenerate: (mode?: TurnMode, modelId?: string) =>
                      void regenerate(message.id, mode, modelId),
                  })}
            />
          ),
        ),
    // liveIds is read through liveKey, its string form.
    // versionOf reads versions, showVersion and busy.
    [
      messages,
      turns,
      budgets,
      liveKey,
      start,
      retriable,
      retry,
      deleteExchange,
      busy,
      versions,
      showVersion,
      regenerate,
      editAndResend,
    ],
  );
  const lastLive = live.at(-1);
  const { scroller, atBottom, jumpToBottom, follow } = useStickToBottom(activeId);
  useEffect(() => {
    follow();
  }, [messages.length, lastLive?.parts, sendingText, follow]);
  // A search hit: once its message is rendered, scroll to it (instead of following the end).
  // One that is not loaded (no longer on the shown path) is dropped: nothing to scroll to.
  useEffect(() => {
    if (focusMessageId === null) return;
    if (focusIndex < 0) {
      clearFocus();
      return;
    }
    if (focusIndex < start) return;
    const element = document.querySelector(`[data-message-id="${CSS.escape(focusMessageId)}"]`);
    element?.scrollIntoView({ block: 'center' });
    clearFocus();
  }, [focusMessageId, focusIndex, start, clearFocus]);
  // Sending is a wish to see the answer: follow it again.
  useEffect(() => {
    if (sendingText !== null) jumpToBottom();
  }, [sendingText, jumpToBottom]);

  return (
    <main className="chat">
      <ChatHeader />
      <LiveAnnouncer turn={lastLive ?? null} />
      <div className="messages" data-testid="messages" ref={scroller}>
        {messages.length === 0 && live.length === 0 && sendingText === null && <EmptyState />}
        {(start > 0 || hasOlder) && <div ref={sentinel} className="messages-earlier" aria-hidden />}
        {/* One keyed list: a finished turn's message turns into its stored copy in place. */}
        {[...stored, ...live.flatMap(liveTurnElements)]}
        {sendingText !== null && (
          <>
            <UserMessage text={sendingText} files={sendingFiles} />
            <AssistantMessage
              parts={[]}
              status="streaming"
              budget={null}
              stopReason={null}
              error={null}
            />
          </>
        )}
      </div>
      {!atBottom && (
        <button
          type="button"
          className="button jump-to-latest"
          data-testid="jump-to-latest"
          onClick={jumpToBottom}
        >
          {t('chat.jumpToLatest')}
        </button>
      )}
      <Composer runningTurnId={running?.turnId ?? null} />
    </main>
  );
}

/**
 * A live turn's user message and answer, keyed so that the answer keeps its component when the
 * reload after `turn-end` brings its stored copy (same message id): remounting a long answer
 * would re-render all of it at once.
 */
function liveTurnElements(turn: ShownTurn): ReactNode[] {
  const end = turn.end;
  const status =
    end === null
      ? 'streaming'
      : end.stopReason === 'canceled'
        ? 'canceled'
        : end.stopReason === 'error'
          ? 'error'
          : 'complete';
  return [
    turn.userText !== null && (
      <UserMessage key={`live-user-${turn.turnId}`} text={turn.userText} files={turn.userFiles} />
    ),
    <AssistantMessage
      key={turn.messageId ?? `live-${turn.turnId}`}
      turnId={turn.turnId}
      parts={turn.parts}
      status={status}
      budget={turn.budget}
      taint={turn.taint}
      taintedCallId={turn.taintedCallId}
      progress={turn.progress}
      model={turn.model}
      protocolRetry={turn.protocolRetry}
      usage={end?.usage ?? null}
      omittedMessages={turn.omittedMessages ?? 0}
      stopReason={end?.stopReason ?? null}
      error={end?.error ?? null}
    />,
  ];
}

/** An always-visible icon button of the chat header. */
interface HeaderButton {
  id: string;
  label: string;
  icon: ReactNode;
  testId: string;
  /** Shown as pressed (`aria-pressed`), for a toggle. */
  pressed?: boolean;
  onClick(): void;
}

/**
 * The title, then the header's items: the most used ones as icon buttons (`buttons`, a list to
 * add to), the rest in the "more" menu (`menu`).
 */
function ChatHeader(): ReactNode {
  const t = useT();
  const activeId = useApp((state) => state.activeId);
  const conversation = useApp((state) =>
    state.conversations.find((item) => item.id === state.activeId),
  );
  const pin = useApp((state) => state.pinConversation);
  const rename = useApp((state) => state.renameConversation);
  const [renaming, setRenaming] = useState<string | null>(null);
  const menu = useConversationActions(
    conversation,
    ['rename', 'export-md', 'export-json', 'delete'],
    {
      rename: 'conversation-rename',
      'export-md': 'conversation-export-md',
      'export-json': 'conversation-export-json',
      delete: 'conversation-delete',
    },
    () => setRenaming(activeId),
  );
  if (activeId === null) return <header className="chat-header" />;
  const pinned = (conversation?.pinnedAt ?? null) !== null;
  const buttons: HeaderButton[] = [
    {
      id: 'pin',
      label: t(pinned ? 'sidebar.unpin' : 'sidebar.pin'),
      icon: pinned ? <UnpinIcon /> : <PinIcon />,
      testId: 'conversation-pin',
      pressed: pinned,
      onClick: () => void pin(activeId, !pinned),
    },
  ];
  return (
    <header className="chat-header">
      {renaming !== null && renaming === activeId && conversation ? (
        <TitleEditor
          initial={conversation.title}
          className="chat-title-input"
          testId="chat-title-input"
          onDone={(title) => {
            setRenaming(null);
            if (title !== null) void rename(activeId, title);
          }}
        />
      ) : (
        <h1 className="chat-title" data-testid="chat-title">
          {conversation?.title ?? ''}
        </h1>
      )}
      <div className="chat-header-actions">
        <ConversationSettingsButton conversationId={activeId} />
        {buttons.map((button) => (
          <button
            key={button.id}
            type="button"
            className="icon-button"
            data-testid={button.testId}
            aria-label={button.label}
            title={button.label}
            {...(button.pressed === undefined ? {} : { 'aria-pressed': button.pressed })}
            onClick={button.onClick}
          >
            {button.icon}
          </button>
        ))}
        <MenuButton
          label={t('chat.moreActions')}
          icon={<MoreIcon />}
          testId="conversation-menu"
          items={menu}
        />
      </div>
    </header>
  );
}
