/**
 * Persists a streaming assistant message progressively: text and reasoning deltas are batched
 * and written at most every FLUSH_INTERVAL_MS; tool calls and results are written at once. If
 * the process dies, the message survives as far as the last flush and is marked `interrupted`
 * by the next process that opens the store.
 */
import type { MessagePart, MessageStatus } from '../../shared/dto';
import { applyEventToParts } from '../../shared/message-parts';
import type { TurnEvent } from '../../shared/turn-events';
import type { ConversationStore } from '../core/ports';

/** Longest a streamed delta waits before it is on disk: small enough to lose little on a crash. */
export const FLUSH_INTERVAL_MS = 200;

const IMMEDIATE_EVENTS: ReadonlySet<TurnEvent['type']> = new Set(['tool-call-end', 'tool-result']);

export class MessageWriter {
  private parts: MessagePart[] = [];
  private dirty = false;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly store: Pick<ConversationStore, 'updateMessage'>,
    private readonly messageId: string,
    private readonly flushIntervalMs = FLUSH_INTERVAL_MS,
  ) {}

  get currentParts(): readonly MessagePart[] {
    return this.parts;
  }

  apply(event: TurnEvent): void {
    const next = applyEventToParts(this.parts, event);
    if (
      next.length === this.parts.length &&
      event.type !== 'text-delta' &&
      event.type !== 'reasoning-delta'
    ) {
      return;
    }
    this.parts = next;
    this.dirty = true;
    if (IMMEDIATE_EVENTS.has(event.type)) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.flushIntervalMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.dirty) return;
    this.dirty = false;
    this.store.updateMessage(this.messageId, { parts: this.parts });
  }

  /** Writes the final parts and status in one transaction. */
  finish(status: MessageStatus): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dirty = false;
    this.store.updateMessage(this.messageId, { parts: this.parts, status });
  }
}
