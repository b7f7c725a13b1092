/**
 * The open conversation: its header (title, pin, a menu with rename, export, delete), stored
 * messages, live turns
 * streaming in, and the composer.
 */
import type { ReactNode } from 'react';
import { useEffect, useMemo } from 'react';
import type { Message, TurnMode } from '../../../shared/dto';
import { messageText } from '../../../shared/message-parts';
import { useT } from '../../i18n/use-t';
import { budgetFromToolCalls, storedBudget } from '../../state/budget-text';
import { useApp } from '../../state/store';
import { AssistantMessage, UserMessage } from './message-view';
import type { VersionSwitch } from './message-versions';
import { Composer } from './composer';
import { MessageList } from './message-list';
import type { ChatRow } from './chat-rows';
import { chatRows, liveAnswer } from './chat-rows';
import { AnswerGroup } from './answer-group';
import { usePageLoading } from './use-page-loading';
import { useStickToBottom } from './use-stick-to-bottom';
import { LiveAnnouncer } from './live-announcer';
import { EmptyState } from './empty-state';
import { ChatHeader } from './chat-header';
import { traceFoldsFollow } from './trace-fold';

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
  const hasOlder = useApp((state) => state.older !== null);
  const hasNewer = useApp((state) => state.newer !== null);
  const loadOlder = useApp((state) => state.loadOlder);
  const loadNewer = useApp((state) => state.loadNewer);
  const reloadConversation = useApp((state) => state.reloadConversation);
  const focusMessageId = useApp((state) => state.focusMessageId);
  const clearFocus = useApp((state) => state.clearFocus);
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
  // The list's rows change only when messages come or go, not on every streamed delta: a live
  // row names its turn, whose current state is read when it renders.
  const liveShape = live
    .map(
      (turn) =>
        `${turn.turnId}:${turn.messageId ?? ''}:${turn.userText !== null}:${turn.group?.id ?? ''}`,
    )
    .join(' ');
  const sending = sendingText !== null;
  const rows = useMemo(
    () => chatRows(messages, liveIds, live, sending),
    // liveIds and live are read through liveKey and liveShape, their string forms.
    [messages, liveKey, liveShape, sending],
  );
  // A stored message's element is built once and reused until what it shows changes, so a
  // streamed delta does not re-render the stored rows on screen (React skips an equal element).
  const storedElements = useMemo(
    () => new Map<string, ReactNode>(),
    // versionOf reads versions, showVersion and busy.
    [
      turns,
      budgets,
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
  const storedElement = (message: Message): ReactNode => {
    const cached = storedElements.get(message.id);
    if (cached !== undefined) return cached;
    const element =
      message.role === 'user' ? (
        <UserMessage
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
          messageId={message.id}
          parts={message.parts}
          status={message.status}
          budget={
            budgets[message.id] ??
            storedBudget(turns[message.id]) ??
            budgetFromToolCalls(turns[message.id]?.turnId ?? '', turns[message.id]?.toolCalls ?? {})
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
      );
    storedElements.set(message.id, element);
    return element;
  };
  const renderRow = (row: ChatRow): ReactNode => {
    switch (row.kind) {
      case 'stored':
        return storedElement(row.message);
      case 'live-user':
      case 'live-answer': {
        const turn = liveTurns[row.turnId];
        if (turn === undefined) return null;
        return row.kind === 'live-user' ? (
          <UserMessage text={turn.userText ?? ''} files={turn.userFiles} />
        ) : (
          liveAnswer(turn)
        );
      }
      case 'live-group':
        return <AnswerGroup groupId={row.groupId} turnIds={row.turnIds} />;
      case 'sending-user':
        return <UserMessage text={sendingText ?? ''} files={sendingFiles} />;
      case 'sending-answer':
        return (
          <AssistantMessage
            parts={[]}
            status="streaming"
            budget={null}
            stopReason={null}
            error={null}
          />
        );
    }
  };
  const lastLive = live.at(-1);
  // A tool card's open/closed choice lasts while its conversation stays open.
  useEffect(() => {
    traceFoldsFollow(activeId);
  }, [activeId]);
  // Following the end waits while a search hit is scrolled to, and in a window far back.
  const { scroller, atBottom, jumpToBottom, follow } = useStickToBottom(
    activeId,
    hasNewer || focusMessageId !== null,
  );
  usePageLoading(scroller, { hasOlder, hasNewer, loadOlder, loadNewer }, messages.length);
  useEffect(() => {
    follow();
  }, [messages.length, lastLive?.parts, sendingText, follow]);
  // A search hit that is not loaded (no longer on the shown path) is dropped: nothing to show.
  const focusLoaded =
    focusMessageId !== null && messages.some((message) => message.id === focusMessageId);
  useEffect(() => {
    if (focusMessageId !== null && !focusLoaded) clearFocus();
  }, [focusMessageId, focusLoaded, clearFocus]);
  // Sending is a wish to see the answer: follow it again.
  useEffect(() => {
    if (sendingText !== null) jumpToBottom();
  }, [sendingText, jumpToBottom]);
  // "Jump to latest" from a window far back reads the latest page first.
  const jumpToLatest = (): void => {
    if (hasNewer && activeId !== null) void reloadConversation(activeId);
    jumpToBottom();
  };

  return (
    <main className="chat">
      <ChatHeader />
      <LiveAnnouncer turn={lastLive ?? null} />
      <div className="messages" data-testid="messages" ref={scroller}>
        {messages.length === 0 && live.length === 0 && sendingText === null && <EmptyState />}
        {/* One keyed list: a finished turn's message turns into its stored copy in place. */}
        <MessageList
          key={activeId ?? ''}
          scroller={scroller}
          rows={rows}
          renderRow={renderRow}
          scrollToKey={focusLoaded ? focusMessageId : null}
          onScrolledTo={clearFocus}
        />
      </div>
      {(!atBottom || hasNewer) && (
        <button
          type="button"
          className="button jump-to-latest"
          data-testid="jump-to-latest"
          onClick={jumpToLatest}
        >
          {t('chat.jumpToLatest')}
        </button>
      )}
      {/* Several models: Stop stops them all (the group's id); each column stops its own. */}
      <Composer runningTurnId={running === null ? null : (running.group?.id ?? running.turnId)} />
    </main>
  );
}
