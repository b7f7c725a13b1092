/**
 * One waiting room for every question the host puts to the user on a turn's behalf (tool
 * approvals, MCP elicitations, MCP sampling): the request goes out as an event to every window,
 * and the asker waits for an answer. The rules are the same for all three, so they live here once:
 *
 * - nobody to ask (no window or socket connected): settled at once with `nobody`, no event;
 * - the asker's signal already aborted: settled at once with `aborted`, no event;
 * - the signal aborts while waiting, the wait times out, or the last window leaves: settled with
 *   the brokers' answer for that case and a reason (`canceled`, `timeout`, `disconnected`);
 * - the user's answer settles it with `answered`; a second answer, or one for an unknown id, is
 *   refused (false).
 *
 * Each settlement publishes the broker's "settled" event exactly once, so every window can take
 * its card down.
 */
import type { IdGenerator } from '../core/ports';
import type { EventHub } from './event-hub';

/** Why a request ended (a broker may add its own reasons, e.g. elicitation's 'completed'). */
export type SettledReason = 'answered' | 'canceled' | 'timeout' | 'disconnected';

/** One question to put to the user. */
export interface PendingAsk<Answer, Extra, Reason extends string> {
  signal: AbortSignal;
  /** What the asker gets when nobody is connected to be asked. */
  nobody: Answer;
  /** What the asker gets when the signal had aborted before asking. */
  aborted: Answer;
  /** What a signal that aborts while waiting settles with (and why). */
  onAbort: () => { answer: Answer; reason: Reason };
  /** What the timeout and the last window leaving settle with. */
  unanswered: Answer;
  /** Kept with the request for the broker's own answer checks. */
  extra: Extra;
  /** Publishes the request event under its new id. */
  publish: (id: string) => void;
}

/** What the brokers give the waiting room. */
export interface PendingRequestsOptions<Answer, Reason extends string> {
  events: EventHub;
  ids: Pick<IdGenerator, 'next'>;
  /** The id prefix of one kind of request, e.g. 'approval'. */
  kind: string;
  waitMs: number;
  /** Publishes the broker's "settled" event. */
  settled: (id: string, answer: Answer, reason: Reason) => void;
}

interface Pending<Answer, Extra, Reason extends string> {
  settle: (answer: Answer, reason: Reason) => void;
  unanswered: Answer;
  extra: Extra;
}

/** Requests of one kind waiting for the user, keyed by id. */
export class PendingRequests<Answer, Extra = undefined, MoreReason extends string = never> {
  private readonly pending = new Map<string, Pending<Answer, Extra, SettledReason | MoreReason>>();

  constructor(
    private readonly options: PendingRequestsOptions<Answer, SettledReason | MoreReason>,
  ) {
    options.events.onEmpty(() => {
      for (const entry of [...this.pending.values()])
        entry.settle(entry.unanswered, 'disconnected');
    });
  }

  /** Puts the question out and resolves with the answer (see the file comment). */
  ask(request: PendingAsk<Answer, Extra, SettledReason | MoreReason>): Promise<Answer> {
    const { signal } = request;
    if (signal.aborted) return Promise.resolve(request.aborted);
    if (this.options.events.size === 0) return Promise.resolve(request.nobody);
    const id = this.options.ids.next(this.options.kind);
    return new Promise<Answer>((resolve) => {
      const onAbort = (): void => {
        const { answer, reason } = request.onAbort();
        settle(answer, reason);
      };
      const timer = setTimeout(() => settle(request.unanswered, 'timeout'), this.options.waitMs);
      timer.unref?.();
      const settle = (answer: Answer, reason: SettledReason | MoreReason): void => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.options.settled(id, answer, reason);
        resolve(answer);
      };
      this.pending.set(id, { settle, unanswered: request.unanswered, extra: request.extra });
      signal.addEventListener('abort', onAbort, { once: true });
      request.publish(id);
    });
  }

  /** What was kept with a waiting request (undefined when it is unknown or over). */
  extraOf(id: string): Extra | undefined {
    return this.pending.get(id)?.extra;
  }

  /** The user's answer; false when the request is unknown or already over. */
  answer(id: string, answer: Answer): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    entry.settle(answer, 'answered');
    return true;
  }

  /** Number of requests waiting for an answer. */
  get size(): number {
    return this.pending.size;
  }
}
