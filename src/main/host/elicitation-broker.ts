/**
 * The desktop's MCP elicitor: a server that asks the user something during a turn's call becomes
 * an `elicitation.request` event for every window, and the server waits for `elicitation.answer`.
 * An accepted form is checked against the form here (the adapter checks again before sending).
 * A request nobody can answer ends without asking: declined when no window or socket is
 * connected; canceled when the call ends (its signal aborts), the wait times out or the last
 * window leaves; accepted as `completed` when the server says a URL elicitation is complete (the
 * signal aborts with ElicitationCompleted). Settling says only the action, never the values.
 */
import { AivoryError } from '../../shared/errors';
import { checkContent, completedBy, describeProblem } from '../../shared/mcp-elicitation';
import type { IdGenerator, McpElicitationAnswer, McpElicitor } from '../core/ports';
import type { EventHub } from './event-hub';
import { PendingRequests } from './pending-requests';

/** How long one request waits for an answer. */
export const DEFAULT_ELICITATION_WAIT_MS = 10 * 60_000;

type Fields = Parameters<typeof checkContent>[0];

export interface ElicitationBrokerOptions {
  events: EventHub;
  ids: Pick<IdGenerator, 'next'>;
  /** Default DEFAULT_ELICITATION_WAIT_MS. */
  waitMs?: number;
}

/** Pending elicitation requests of one host, keyed by `elicitationId`. */
export class ElicitationBroker {
  private readonly requests: PendingRequests<McpElicitationAnswer, Fields, 'completed'>;
  private readonly events: EventHub;

  constructor(options: ElicitationBrokerOptions) {
    this.events = options.events;
    this.requests = new PendingRequests({
      events: options.events,
      ids: options.ids,
      kind: 'elicitation',
      waitMs: options.waitMs ?? DEFAULT_ELICITATION_WAIT_MS,
      settled: (elicitationId, answer, reason) =>
        options.events.publish('elicitation.settled', {
          elicitationId,
          action: answer.action,
          reason,
        }),
    });
  }

  /** The elicitor of one turn; `turnId()` names the turn, `conversationId()` its conversation. */
  elicitorFor(turnId: () => string | null, conversationId: () => string | null): McpElicitor {
    return (request, signal) =>
      this.requests.ask({
        signal,
        nobody: { action: 'decline' },
        aborted: { action: 'cancel' },
        onAbort: () =>
          completedBy(signal)
            ? { answer: { action: 'accept', content: {} }, reason: 'completed' }
            : { answer: { action: 'cancel' }, reason: 'canceled' },
        unanswered: { action: 'cancel' },
        extra: request.fields,
        publish: (elicitationId) =>
          this.events.publish('elicitation.request', {
            elicitationId,
            turnId: turnId(),
            conversationId: conversationId(),
            service: request.service,
            mode: request.mode,
            message: request.message,
            fields: request.fields,
            url: request.url ?? null,
            ...(request.retry === true ? { retry: true } : {}),
          }),
      });
  }

  /**
   * The user's answer: false when the request is unknown or already over; an accepted form that
   * does not pass its fields' rules throws (the window shows the error; the request stays open).
   */
  answer(elicitationId: string, answer: McpElicitationAnswer): boolean {
    const fields = this.requests.extraOf(elicitationId);
    if (fields === undefined) return false;
    if (answer.action === 'accept') {
      const checked = checkContent(fields, answer.content);
      if (!checked.ok) {
        throw new AivoryError(
          'invalid-input',
          `The answer to "${checked.field}" does not fit the form: ${describeProblem(checked.problem)}.`,
        );
      }
      return this.requests.answer(elicitationId, { action: 'accept', content: checked.content });
    }
    return this.requests.answer(elicitationId, answer);
  }

  /** Number of requests waiting for an answer. */
  get size(): number {
    return this.requests.size;
  }
}
