/**
 * The desktop's MCP approver: a turn's MCP tool that needs consent becomes an `approval.request`
 * event for every window, and the call waits for `approval.answer`. A request that nobody can
 * answer ends as a denial: when the turn is canceled (its signal aborts), when the wait times out,
 * and when no window or socket is connected (or the last one leaves).
 */
import type { z } from 'zod';
import type { approvalSettledReasonSchema } from '../../shared/ipc/approval-methods';
import type { ApprovalAnswer, ApprovalRequest, Approver, IdGenerator } from '../core/ports';
import type { EventHub } from './event-hub';

/** How long one request waits for an answer (the MCP tool's own limit is the same). */
export const DEFAULT_APPROVAL_WAIT_MS = 5 * 60_000;

type SettledReason = z.infer<typeof approvalSettledReasonSchema>;

type Settle = (answer: ApprovalAnswer, reason: SettledReason) => void;

/** What the broker needs. */
export interface ApprovalBrokerOptions {
  events: EventHub;
  ids: Pick<IdGenerator, 'next'>;
  /** Default DEFAULT_APPROVAL_WAIT_MS. */
  waitMs?: number;
}

/** Pending approval requests of one host, keyed by `approvalId`. */
export class ApprovalBroker {
  private readonly pending = new Map<string, Settle>();
  private readonly waitMs: number;

  constructor(private readonly options: ApprovalBrokerOptions) {
    this.waitMs = options.waitMs ?? DEFAULT_APPROVAL_WAIT_MS;
    options.events.onEmpty(() => this.denyAll('disconnected'));
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
    if (signal.aborted) return Promise.resolve('deny');
    if (this.options.events.size === 0) return Promise.resolve('deny');
    const approvalId = this.options.ids.next('approval');
    return new Promise<ApprovalAnswer>((resolve) => {
      const onAbort = (): void => settle('deny', 'canceled');
      const timer = setTimeout(() => settle('deny', 'timeout'), this.waitMs);
      timer.unref?.();
      const settle = (answer: ApprovalAnswer, reason: SettledReason): void => {
        if (!this.pending.delete(approvalId)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.options.events.publish('approval.settled', { approvalId, answer, reason });
        resolve(answer);
      };
      this.pending.set(approvalId, settle);
      signal.addEventListener('abort', onAbort, { once: true });
      this.options.events.publish('approval.request', {
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
      });
    });
  }

  /** The user's answer; false when the request is unknown or already over. */
  answer(approvalId: string, answer: ApprovalAnswer): boolean {
    const settle = this.pending.get(approvalId);
    if (!settle) return false;
    settle(answer, 'answered');
    return true;
  }

  /** Number of requests waiting for an answer. */
  get size(): number {
    return this.pending.size;
  }

  private denyAll(reason: SettledReason): void {
    for (const settle of [...this.pending.values()]) settle('deny', reason);
  }
}
