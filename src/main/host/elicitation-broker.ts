/**
 * The desktop's MCP elicitor: a server that asks the user something during a turn's call becomes
 * an `elicitation.request` event for every window, and the server waits for `elicitation.answer`.
 * An accepted form is checked against the form here (the adapter checks again before sending).
 * A request nobody can answer ends without asking: declined when no window or socket is
 * connected; canceled when the call ends (its signal aborts), the wait times out or the last
 * window leaves; accepted as `completed` when the server says a URL elicitation is complete (the
 * signal aborts with ElicitationCompleted). Settling says only the action, never the values.
 */
import type { z } from 'zod';
import type { elicitationSettledReasonSchema } from '../../shared/ipc/elicitation-methods';
import { AivoryError } from '../../shared/errors';
import { checkContent, completedBy, describeProblem } from '../../shared/mcp-elicitation';
import type { IdGenerator, McpElicitationAnswer, McpElicitor } from '../core/ports';
import type { EventHub } from './event-hub';

/** How long one request waits for an answer. */
export const DEFAULT_ELICITATION_WAIT_MS = 10 * 60_000;

type SettledReason = z.infer<typeof elicitationSettledReasonSchema>;

interface Pending {
  settle: (answer: McpElicitationAnswer, reason: SettledReason) => void;
  fields: Parameters<typeof checkContent>[0];
}

export interface ElicitationBrokerOptions {
  events: EventHub;
  ids: Pick<IdGenerator, 'next'>;
  /** Default DEFAULT_ELICITATION_WAIT_MS. */
  waitMs?: number;
}

/** Pending elicitation requests of one host, keyed by `elicitationId`. */
export class ElicitationBroker {
  private readonly pending = new Map<string, Pending>();
  private readonly waitMs: number;

  constructor(private readonly options: ElicitationBrokerOptions) {
    this.waitMs = options.waitMs ?? DEFAULT_ELICITATION_WAIT_MS;
    options.events.onEmpty(() => this.cancelAll('disconnected'));
  }

  /** The elicitor of one turn; `turnId()` names the turn, `conversationId()` its conversation. */
  elicitorFor(turnId: () => string | null, conversationId: () => string | null): McpElicitor {
    return (request, signal) =>
      new Promise<McpElicitationAnswer>((resolve) => {
        if (signal.aborted) return resolve({ action: 'cancel' });
        if (this.options.events.size === 0) return resolve({ action: 'decline' });
        const elicitationId = this.options.ids.next('elicitation');
        const onAbort = (): void =>
          completedBy(signal)
            ? settle({ action: 'accept', content: {} }, 'completed')
            : settle({ action: 'cancel' }, 'canceled');
        const timer = setTimeout(() => settle({ action: 'cancel' }, 'timeout'), this.waitMs);
        timer.unref?.();
        const settle = (answer: McpElicitationAnswer, reason: SettledReason): void => {
          if (!this.pending.delete(elicitationId)) return;
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          this.options.events.publish('elicitation.settled', {
            elicitationId,
            action: answer.action,
            reason,
          });
          resolve(answer);
        };
        this.pending.set(elicitationId, { settle, fields: request.fields });
        signal.addEventListener('abort', onAbort, { once: true });
        this.options.events.publish('elicitation.request', {
          elicitationId,
          turnId: turnId(),
          conversationId: conversationId(),
          service: request.service,
          mode: request.mode,
          message: request.message,
          fields: request.fields,
          url: request.url ?? null,
          ...(request.retry === true ? { retry: true } : {}),
        });
      });
  }

  /**
   * The user's answer: false when the request is unknown or already over; an accepted form that
   * does not pass its fields' rules throws (the window shows the error; the request stays open).
   */
  answer(elicitationId: string, answer: McpElicitationAnswer): boolean {
    const pending = this.pending.get(elicitationId);
    if (!pending) return false;
    if (answer.action === 'accept') {
      const checked = checkContent(pending.fields, answer.content);
      if (!checked.ok) {
        throw new AivoryError(
          'invalid-input',
          `The answer to "${checked.field}" does not fit the form: ${describeProblem(checked.problem)}.`,
        );
      }
      pending.settle({ action: 'accept', content: checked.content }, 'answered');
      return true;
    }
    pending.settle(answer, 'answered');
    return true;
  }

  /** Number of requests waiting for an answer. */
  get size(): number {
    return this.pending.size;
  }

  private cancelAll(reason: SettledReason): void {
    for (const pending of [...this.pending.values()]) pending.settle({ action: 'cancel' }, reason);
  }
}
