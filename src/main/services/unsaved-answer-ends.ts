/**
 * Answers whose end could not be written (issue 37, item 9). When the disk is full or another
 * program holds the database's lock as a turn ends, the answer's status and turn record cannot
 * be stored: it stayed `streaming` for the life of the process (no reason after a reload, left
 * out of the next turn's history). Its end — `error`, with the reason the user was shown — is
 * kept here and written at the next chance: on a timer (1 s, doubling to 30 s; it never keeps
 * the process alive), before the next turn starts, and once more when the app closes. A write
 * never waits for a lock (`ConversationStore.endAnswerNow`), so a long-held lock does not stall
 * a running `aivory serve`. If the process ends first, the next start marks the answer
 * interrupted, as after a crash.
 */
import { StorageError } from '../../shared/errors';
import type { MessageStatus, TurnRecord } from '../../shared/dto';
import type { ConversationStore, Logger } from '../core/ports';

/** The first wait before writing an unsaved end again; doubled after each failure. */
export const FIRST_RETRY_MS = 1_000;
/** The longest wait between two tries. */
export const LAST_RETRY_MS = 30_000;

/** How an answer ends in the store. */
export interface AnswerEnd {
  messageId: string;
  status: MessageStatus;
  /** Its turn record; absent when it is already stored. */
  record?: TurnRecord;
}

export class UnsavedAnswerEnds {
  private readonly pending = new Map<string, AnswerEnd>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private delayMs = FIRST_RETRY_MS;
  private closed = false;

  constructor(
    private readonly dependencies: {
      conversations: Pick<ConversationStore, 'endAnswerNow'>;
      logger: Logger;
    },
  ) {}

  /** How many answers wait to be ended. */
  get size(): number {
    return this.pending.size;
  }

  /** Keeps `end` to write at the next chance (the timer starts). */
  add(end: AnswerEnd): void {
    if (this.closed) return;
    this.pending.set(end.messageId, end);
    this.schedule();
  }

  /** Writes every end it can now; true when none is left. Never throws. */
  retry(): boolean {
    for (const [messageId, end] of this.pending) {
      try {
        const stored = this.dependencies.conversations.endAnswerNow(end);
        this.pending.delete(messageId);
        // False: the message was deleted meanwhile, so there was nothing left to end.
        this.dependencies.logger.info(
          stored
            ? 'an answer that could not be ended is now stored'
            : 'an answer that could not be ended was deleted meanwhile',
          { messageId, status: end.status },
        );
      } catch (error) {
        // A damaged file is never written again: what is on disk stays as it is.
        if (error instanceof StorageError && error.problem === 'damaged') {
          this.dependencies.logger.warn('answer ends dropped: the database is damaged', {
            answers: this.pending.size,
          });
          this.pending.clear();
          break;
        }
        // Still full or locked: every other end would fail the same way.
        if (error instanceof StorageError) break;
        this.pending.delete(messageId);
        this.dependencies.logger.error('an unsaved answer end was dropped', {
          messageId,
          error: String(error),
        });
      }
    }
    if (this.pending.size > 0) return false;
    this.stopTimer();
    this.delayMs = FIRST_RETRY_MS;
    return true;
  }

  /**
   * The end kept for `messageId`, or undefined: what a window reading the conversation shows
   * instead of the `streaming` still on disk (the status and the reason, once it is written).
   */
  endOf(messageId: string): AnswerEnd | undefined {
    return this.pending.get(messageId);
  }

  /** One last try (the store is about to close); nothing is tried afterwards. */
  close(): void {
    if (this.pending.size > 0) this.retry();
    this.closed = true;
    this.stopTimer();
    this.pending.clear();
  }

  private schedule(): void {
    if (this.timer !== null || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.retry()) return;
      this.delayMs = Math.min(this.delayMs * 2, LAST_RETRY_MS);
      this.schedule();
    }, this.delayMs);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
