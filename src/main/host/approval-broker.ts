/**
 * The desktop's MCP approver: a turn's MCP tool that needs consent becomes an `approval.request`
 * event for every window, and the call waits for `approval.answer`. A request that nobody can
 * answer ends as a denial: when the turn is canceled (its signal aborts), when the wait times out,
 * and when no window or socket is connected (or the last one leaves).
 */
import { USER_APPROVAL_WAIT_MS } from '../core/ports';
import type { ApprovalAnswer, ApprovalRequest, Approver, IdGenerator } from '../core/ports';
import type { EventHub } from './event-hub';
import { PendingRequests } from './pending-requests';

/** How long one request waits for an answer: the one approval wait of the app. */
export const DEFAULT_APPROVAL_WAIT_MS = USER_APPROVAL_WAIT_MS;

/** What the broker needs. */
export interface ApprovalBrokerOptions {
  events: EventHub;
  ids: Pick<IdGenerator, 'next'>;
  /** Default DEFAULT_APPROVAL_WAIT_MS. */
  waitMs?: number;
}

/** Pending approval requests of one host, keyed by `approvalId`. */
export class ApprovalBroker {
  private readonly requests: PendingRequests<ApprovalAnswer>;
  private readonly events: EventHub;

  constructor(options: ApprovalBrokerOptions) {
    this.events = options.events;
    this.requests = new PendingRequests({
      events: options.events,
      ids: options.ids,
      kind: 'approval',
      waitMs: options.waitMs ?? DEFAULT_APPROVAL_WAIT_MS,
      settled: (approvalId, answer, reason) =>
        options.events.publish('approval.settled', { approvalId, answer, reason }),
    });
  }

  /** The Approver of one turn; `turnId()` names the turn once it has started. */
  approverFor(turnId: () => string | null): Approver {
    return (request, signal) => this.ask(request, turnId(), signal);
  }

  /** Publishes the request and resolves with the user's answer, or 'deny' (see above). */
  ask(
    request: ApprovalRequest,
    turnId: string | null,
    signal: AbortSignal,
  ): Promise<ApprovalAnswer> {
    return this.requests.ask({
      signal,
      nobody: 'deny',
      aborted: 'deny',
      onAbort: () => ({ answer: 'deny', reason: 'canceled' }),
      unanswered: 'deny',
      extra: undefined,
      publish: (approvalId) =>
        this.events.publish('approval.request', {
          approvalId,
          kind: request.kind ?? 'mcp',
          turnId,
          conversationId: request.conversationId,
          toolName: request.toolName,
          service: request.service,
          tool: request.tool,
          arguments: request.arguments,
          readOnlyHint: request.readOnlyHint,
          destructiveHint: request.destructiveHint,
          reason: request.reason ?? null,
          taint: request.taint ? [...request.taint] : [],
        }),
    });
  }

  /** The user's answer; false when the request is unknown or already over. */
  answer(approvalId: string, answer: ApprovalAnswer): boolean {
    return this.requests.answer(approvalId, answer);
  }

  /** Number of requests waiting for an answer. */
  get size(): number {
    return this.requests.size;
  }
}
