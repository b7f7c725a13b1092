/**
 * A turn as the renderer follows it live: the assistant message's parts (folded with the same
 * `applyEventToParts` the chat service persists with), the latest budget, the calls still running
 * and the end. Pure: `applyTurnEvent(turn, event)` returns a new turn.
 */
import type { MessagePart } from '../../shared/dto';
import { applyEventToParts } from '../../shared/message-parts';
import type {
  BudgetUpdateEvent,
  ModelWaitEvent,
  TaintReason,
  ToolProgressEvent,
  TurnEndEvent,
  TurnEvent,
  TurnGroup,
} from '../../shared/turn-events';

/** A running (or just ended) turn. */
export interface LiveTurn {
  turnId: string;
  conversationId: string | null;
  messageId: string | null;
  /** The model answering (its name as sent), once `turn-start` came. */
  model: string | null;
  /** The saved model answering (its id), when it is a saved one. */
  modelId?: string;
  /** One of several models' answers to one question (shown side by side); absent: the only one. */
  group?: TurnGroup;
  /** Earlier messages the request left out (context policy or window); absent: none. */
  omittedMessages?: number;
  /** The latest retry after a malformed tool call (prompt mode), until the next round answers. */
  protocolRetry: number | null;
  /** The model request waits before it is sent again (a 429, a 503), until anything else comes. */
  modelWait?: Pick<ModelWaitEvent, 'waitMs' | 'status'>;
  parts: MessagePart[];
  budget: BudgetUpdateEvent | null;
  /** What untrusted content this turn has read (empty while it has read none). */
  taint: TaintReason[];
  /** The call whose result tainted the turn (its card is marked), or null. */
  taintedCallId: string | null;
  /** toolCallId → the call's latest progress report, while it runs (never stored). */
  progress: Readonly<Record<string, ToolProgressView>>;
  /** toolCallId → tool name, for calls announced but not yet answered. */
  running: Record<string, string>;
  end: TurnEndEvent | null;
}

/** What a running call's card shows of its progress. */
export type ToolProgressView = Pick<ToolProgressEvent, 'progress' | 'total' | 'message'>;

/** A turn known only by its id (its events may arrive before `chat.send` answers). */
export function emptyTurn(turnId: string): LiveTurn {
  return {
    turnId,
    conversationId: null,
    messageId: null,
    model: null,
    protocolRetry: null,
    parts: [],
    budget: null,
    taint: [],
    taintedCallId: null,
    progress: {},
    running: {},
    end: null,
  };
}

/** The turn after `event`. */
export function applyTurnEvent(turn: LiveTurn, event: TurnEvent): LiveTurn {
  if (event.type === 'tool-progress') {
    // Only for a call still running; the parts are untouched (no re-render of the message text).
    if (turn.running[event.toolCallId] === undefined) return turn;
    const view: ToolProgressView = {
      progress: event.progress,
      ...(event.total === undefined ? {} : { total: event.total }),
      ...(event.message === undefined ? {} : { message: event.message }),
    };
    return { ...turn, progress: { ...turn.progress, [event.toolCallId]: view } };
  }
  if (event.type === 'model-wait') {
    return { ...turn, modelWait: { waitMs: event.waitMs, status: event.status } };
  }
  const next: LiveTurn = { ...turn, parts: applyEventToParts(turn.parts, event) };
  // Anything else after a wait: the request went again (or the turn ended).
  delete next.modelWait;
  switch (event.type) {
    case 'turn-start':
      return {
        ...next,
        conversationId: event.conversationId,
        messageId: event.messageId,
        model: event.model,
        ...(event.omittedMessages === undefined ? {} : { omittedMessages: event.omittedMessages }),
        ...(event.modelId === undefined ? {} : { modelId: event.modelId }),
        ...(event.group === undefined ? {} : { group: event.group }),
      };
    case 'tool-call-start':
      return { ...next, running: { ...turn.running, [event.toolCallId]: event.name } };
    case 'tool-result': {
      const running = { ...turn.running };
      delete running[event.toolCallId];
      const progress = { ...turn.progress };
      delete progress[event.toolCallId];
      // A call was read and ran: the retry, if any, worked.
      return { ...next, running, progress, protocolRetry: null };
    }
    case 'budget-update':
      return { ...next, budget: event };
    case 'protocol-retry':
      return { ...next, protocolRetry: event.attempt };
    case 'turn-tainted':
      return { ...next, taint: event.reasons, taintedCallId: event.toolCallId };
    case 'turn-end':
      return { ...next, running: {}, progress: {}, end: event };
    default:
      return next;
  }
}
