/**
 * Persists a streaming assistant message progressively: text and reasoning deltas are batched
 * and written at most every FLUSH_INTERVAL_MS; tool calls and results are written at once. If
 * the process dies, the message survives as far as the last flush and is marked `interrupted`
 * by the next process that opens the store.
 *
 * A reasoning part gets its `durationMs` here, from its first delta to the event that follows it
 * (or the end of the turn), so "Thought for 12 s" is still true after a reload.
 *
 * A write that fails (a full disk, a lock another program holds past the busy timeout) never
 * throws out of a timer: the writer stops writing, keeps what is on disk, and reports the failure
 * once through `onFailure`, so the turn can end as an error saying why (`failedEnd`).
 */
import type { MessagePart, MessageStatus } from '../../shared/dto';
import { AivoryError, StorageError, toPublicError } from '../../shared/errors';
import { applyEventToParts } from '../../shared/message-parts';
import type { TurnEndEvent, TurnEvent } from '../../shared/turn-events';
import type { ConversationStore } from '../core/ports';

/** Longest a streamed delta waits before it is on disk: small enough to lose little on a crash. */
export const FLUSH_INTERVAL_MS = 200;

/** Events after which the reasoning before them is over (the renderer stops its timer then too). */
const ENDS_REASONING: ReadonlySet<TurnEvent['type']> = new Set([
  'text-delta',
  'tool-call-end',
  'tool-result',
  'turn-end',
]);

const IMMEDIATE_EVENTS: ReadonlySet<TurnEvent['type']> = new Set(['tool-call-end', 'tool-result']);

export interface MessageWriterOptions {
  flushIntervalMs?: number;
  /** Called once, when a write first fails (from a timer too); the turn should stop. */
  onFailure?: (failure: AivoryError) => void;
  /** Milliseconds now (the reasoning's duration); `Date.now` unless a test gives its own. */
  now?: () => number;
}

export class MessageWriter {
  private parts: MessagePart[] = [];
  /** The parts as last written successfully (what a reader of the database sees). */
  private savedParts: readonly MessagePart[] = [];
  private dirty = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private failed: AivoryError | null = null;
  private readonly flushIntervalMs: number;
  private readonly onFailure: ((failure: AivoryError) => void) | undefined;
  private readonly now: () => number;
  /** When the last part, a reasoning still going on, got its first delta; null otherwise. */
  private reasoningSince: number | null = null;

  constructor(
    private readonly store: Pick<ConversationStore, 'updateMessage'>,
    private readonly messageId: string,
    options: MessageWriterOptions = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? FLUSH_INTERVAL_MS;
    this.onFailure = options.onFailure;
    this.now = options.now ?? Date.now;
  }

  get currentParts(): readonly MessagePart[] {
    return this.parts;
  }

  /** Why the answer could not be saved, worded for the user; null while every write worked. */
  get failure(): AivoryError | null {
    return this.failed;
  }

  apply(event: TurnEvent): void {
    const applied = applyEventToParts(this.parts, event);
    const next = this.timeReasoning(applied, event);
    if (
      next === applied &&
      next.length === this.parts.length &&
      event.type !== 'text-delta' &&
      event.type !== 'reasoning-delta'
    ) {
      return;
    }
    this.parts = next;
    if (this.failed !== null) return;
    this.dirty = true;
    if (IMMEDIATE_EVENTS.has(event.type)) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.flushIntervalMs);
  }

  /**
   * `next` with the duration stamped on a reasoning part that `event` ended (anything but more
   * reasoning or turn bookkeeping follows it); notes when a new reasoning part starts.
   */
  private timeReasoning(next: MessagePart[], event: TurnEvent): MessagePart[] {
    if (event.type === 'reasoning-delta') {
      if (this.reasoningSince === null) this.reasoningSince = this.now();
      return next;
    }
    if (this.reasoningSince === null || !ENDS_REASONING.has(event.type)) return next;
    return this.closeReasoning(next);
  }

  /** `parts` with the open reasoning part's duration set (the latest reasoning part). */
  private closeReasoning(parts: MessagePart[]): MessagePart[] {
    const since = this.reasoningSince;
    this.reasoningSince = null;
    if (since === null) return parts;
    const index = parts.findLastIndex((part) => part.kind === 'reasoning');
    const part = parts[index];
    if (part?.kind !== 'reasoning') return parts;
    const stamped = [...parts];
    stamped[index] = { ...part, durationMs: Math.max(0, Math.round(this.now() - since)) };
    return stamped;
  }

  /** Writes the parts gathered so far. Never throws: a failure is kept (see `failure`). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.dirty || this.failed !== null) return;
    this.dirty = false;
    const parts = this.parts;
    this.attempt(() => this.store.updateMessage(this.messageId, { parts }), parts);
  }

  /**
   * Writes the final parts and status in one transaction; returns whether it was saved. After a
   * failed write only the status is tried (once): the parts on disk are what was saved before.
   */
  finish(status: MessageStatus): boolean {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dirty = false;
    if (this.reasoningSince !== null) this.parts = this.closeReasoning(this.parts);
    if (this.failed !== null) {
      try {
        this.store.updateMessage(this.messageId, { status: 'error' });
        return true;
      } catch {
        return false;
      }
    }
    const parts = this.parts;
    return this.attempt(() => this.store.updateMessage(this.messageId, { parts, status }), parts);
  }

  /**
   * `end` as the turn ends when the answer could not be saved: an error whose message says why
   * and from which word on the answer is missing from disk; `end` itself while nothing failed.
   */
  failedEnd(end: TurnEndEvent): TurnEndEvent {
    if (this.failed === null) return end;
    return { ...end, stopReason: 'error', error: toPublicError(this.failed) };
  }

  private attempt(write: () => void, parts: readonly MessagePart[]): boolean {
    try {
      write();
      this.savedParts = parts;
      return true;
    } catch (error) {
      this.failed = unsavedAnswerError(error, this.savedParts);
      this.onFailure?.(this.failed);
      return false;
    }
  }
}

/**
 * The user's message for an answer whose write failed: the storage problem and from which word
 * of the answer's text nothing more is on disk (the last saved word may be cut, so it counts as
 * the first missing one). Other errors keep their own message.
 */
export function unsavedAnswerError(
  error: unknown,
  savedParts: readonly MessagePart[],
): AivoryError {
  if (!(error instanceof StorageError)) {
    return error instanceof AivoryError
      ? error
      : new AivoryError('internal', 'This answer could not be saved; see the log.', {
          cause: error,
        });
  }
  const text = savedParts.map((part) => (part.kind === 'text' ? part.text : '')).join(' ');
  const words = text.split(/\s+/).filter((word) => word !== '').length;
  const firstMissing = words === 0 || /\s$/.test(text) ? words + 1 : words;
  return new AivoryError(
    'storage',
    `${error.what}: this answer could not be saved from word ${firstMissing} (the words before it are saved). ${error.remedy}`,
    { cause: error },
  );
}
