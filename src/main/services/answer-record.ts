/**
 * One answer's persistence while its turn runs: the message written as the events arrive
 * (`MessageWriter`), the budget and taint the events report kept, and the turn record saved once —
 * at `turn-end`, or when the answer stops early — before `turn-end` goes out. A write that fails
 * (full disk, locked database) aborts `unsaved`, which stops the turn; it then ends as an error
 * saying why (`MessageWriter.failedEnd`) and the app keeps running.
 */
import type {
  MessageStatus,
  TurnBudgetRecord,
  TurnRecord,
  TurnTaintRecord,
} from '../../shared/dto';
import { StorageError, toPublicError } from '../../shared/errors';
import type { StopReason, TurnEndEvent, TurnEvent } from '../../shared/turn-events';
import type { Clock, ConversationStore, Logger } from '../core/ports';
import { MessageWriter } from './message-writer';
import type { AnswerEnd, UnsavedAnswerEnds } from './unsaved-answer-ends';

/** The message status each way a turn can end leaves its answer in. */
export const MESSAGE_STATUS_BY_STOP: Record<StopReason, MessageStatus> = {
  completed: 'complete',
  tool_budget_exceeded: 'complete',
  tool_no_progress: 'complete',
  tool_parse_failure: 'complete',
  length: 'complete',
  canceled: 'canceled',
  error: 'error',
};

/** Which answer this is: the turn, its message and the model answering. */
export interface AnswerIdentity {
  turnId: string;
  conversationId: string;
  messageId: string;
  modelId: string | null;
  modelName: string;
}

export class AnswerRecord {
  /** Aborted when the answer can no longer be saved: the turn stops. */
  readonly unsaved = new AbortController();
  /** Earlier messages the history left out (recorded with the turn when any). */
  omittedMessages = 0;
  private readonly writer: MessageWriter;
  private readonly startedAt: number;
  private recorded = false;
  /** The database was found damaged while the turn was recorded: the turn ends with it. */
  private damage: StorageError | null = null;
  private taint: TurnTaintRecord | null = null;
  private budget: TurnBudgetRecord | null = null;

  constructor(
    private readonly dependencies: {
      conversations: ConversationStore;
      clock: Clock;
      logger: Logger;
      /**
       * True when a stop now is the app closing, not the user: a canceled answer is then
       * stored `interrupted` (message and turn record), as after a crash. Absent: never.
       */
      interrupted?: () => boolean;
      /** Where an end that cannot be written now waits for the next chance; absent: dropped. */
      unsavedEnds?: Pick<UnsavedAnswerEnds, 'add'>;
    },
    private readonly identity: AnswerIdentity,
  ) {
    this.startedAt = dependencies.clock.now();
    this.writer = new MessageWriter(dependencies.conversations, identity.messageId, {
      onFailure: (failure) => {
        dependencies.logger.error('the answer could not be saved', {
          turnId: identity.turnId,
          error: String(failure.cause),
        });
        this.unsaved.abort(failure);
      },
    });
  }

  /** Whether the turn's total tool-call budget is used up (by the latest budget update). */
  budgetSpent(): boolean {
    const total = this.budget?.total;
    return total !== undefined && total.limit !== null && total.used >= total.limit;
  }

  /**
   * Takes one event of the turn: written to the message (live progress is not), budget and taint
   * kept, and at `turn-end` the turn recorded. Returns the event to pass on: a `turn-end` whose
   * writes failed becomes the error saying so.
   */
  take(event: TurnEvent): TurnEvent {
    if (event.type === 'turn-end') event = this.writer.failedEnd(event);
    if (event.type !== 'tool-progress') this.writer.apply(event);
    if (event.type === 'budget-update') {
      this.budget = { perTool: event.perTool, total: event.total, rounds: event.rounds };
    }
    if (event.type === 'turn-tainted') {
      this.taint = { toolCallId: event.toolCallId, reasons: event.reasons };
    }
    if (event.type === 'turn-end') {
      this.finish(event);
      // The final write itself may be the one that failed.
      event = this.writer.failedEnd(event);
      if (this.damage !== null && event.stopReason !== 'error')
        event = {
          ...event,
          stopReason: 'error',
          error: toPublicError(this.damage),
        };
    }
    return event;
  }

  /**
   * Finishes the message and records the turn, once: with the `turn-end`, or with none when the
   * answer stopped early (then as canceled). When that cannot be written (a full disk, a lock),
   * the answer's end — `error` with the reason, or the record alone — goes to `unsavedEnds`, which
   * writes it at the next chance.
   */
  finish(end: TurnEndEvent | null): void {
    if (this.recorded) return;
    this.recorded = true;
    const stopReason = end?.stopReason ?? 'canceled';
    const interrupted = stopReason === 'canceled' && this.dependencies.interrupted?.() === true;
    const status = interrupted ? 'interrupted' : MESSAGE_STATUS_BY_STOP[stopReason];
    const { messageId } = this.identity;
    if (!this.writer.finish(status)) {
      // Not even the status could be written: the answer ends as failed, with why, once it can.
      const failed = this.writer.failedEnd(end ?? this.stoppedEnd());
      this.later({ messageId, status: 'error', record: this.record(failed, failed.stopReason) });
      return;
    }
    // An earlier write failed (the status written is `error`): the record says so too.
    const failedEarlier = this.writer.failure !== null;
    const record = failedEarlier
      ? this.record(this.writer.failedEnd(end ?? this.stoppedEnd()), 'error')
      : this.record(end, interrupted ? 'interrupted' : stopReason);
    try {
      this.dependencies.conversations.saveTurnRecord(record);
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
      // A damaged file is not written again (the store refuses): the user must hear of it now.
      if (error.problem === 'damaged') this.damage = error;
      this.dependencies.logger.error('the turn record could not be saved', {
        turnId: this.identity.turnId,
        error: String(error),
      });
      this.later({ messageId, status: failedEarlier ? 'error' : status, record });
    }
  }

  private later(end: AnswerEnd): void {
    if (this.dependencies.unsavedEnds) this.dependencies.unsavedEnds.add(end);
    else
      this.dependencies.logger.warn('an answer end was not stored', { messageId: end.messageId });
  }

  /** The end of an answer stopped before its `turn-end`. */
  private stoppedEnd(): TurnEndEvent {
    return {
      type: 'turn-end',
      turnId: this.identity.turnId,
      stopReason: 'canceled',
      answer: '',
      toolCalls: {},
      providerRounds: 0,
      durationMs: 0,
    };
  }

  private record(end: TurnEndEvent | null, stopReason: TurnRecord['stopReason']): TurnRecord {
    const { turnId, conversationId, messageId, modelId, modelName } = this.identity;
    return {
      id: turnId,
      conversationId,
      messageId,
      modelId,
      modelName,
      stopReason,
      toolCalls: end?.toolCalls ?? {},
      providerRounds: end?.providerRounds ?? 0,
      startedAt: this.startedAt,
      durationMs: this.dependencies.clock.now() - this.startedAt,
      errorCode: end?.error?.code ?? null,
      errorMessage: end?.error?.message ?? null,
      budget: this.budget,
      usage: end?.usage ?? null,
      taint: this.taint,
      ...(this.omittedMessages > 0 ? { omittedMessages: this.omittedMessages } : {}),
    };
  }
}
