/**
 * The desktop's MCP sampling approval: a server that asks the turn's model for a completion
 * becomes a `sampling.request` event for every window, and waits for `sampling.answer` (once,
 * always for this server, deny). A request nobody can answer ends without asking: denied when no
 * window or socket is connected, when the call ends (its signal aborts), the wait times out or
 * the last window leaves.
 */
import type { IdGenerator, McpSamplingDecision } from '../core/ports';
import type { McpSamplingAsk } from '../services/turn-sampling';
import type { EventHub } from './event-hub';
import { PendingRequests } from './pending-requests';

/** How long one request waits for an answer. */
export const DEFAULT_SAMPLING_WAIT_MS = 10 * 60_000;

export interface SamplingBrokerOptions {
  events: EventHub;
  ids: Pick<IdGenerator, 'next'>;
  /** Default DEFAULT_SAMPLING_WAIT_MS. */
  waitMs?: number;
}

/** Pending sampling approvals of one host, keyed by `samplingId`. */
export class SamplingBroker {
  private readonly requests: PendingRequests<McpSamplingDecision>;
  private readonly events: EventHub;

  constructor(options: SamplingBrokerOptions) {
    this.events = options.events;
    this.requests = new PendingRequests({
      events: options.events,
      ids: options.ids,
      kind: 'sampling',
      waitMs: options.waitMs ?? DEFAULT_SAMPLING_WAIT_MS,
      settled: (samplingId, decision, reason) =>
        options.events.publish('sampling.settled', { samplingId, decision, reason }),
    });
  }

  /** The approval of one turn; `turnId()` names the turn, `conversationId()` its conversation. */
  askFor(turnId: () => string | null, conversationId: () => string | null): McpSamplingAsk {
    return (prompt, signal) =>
      this.requests.ask({
        signal,
        nobody: 'deny',
        aborted: 'deny',
        onAbort: () => ({ answer: 'deny', reason: 'canceled' }),
        unanswered: 'deny',
        extra: undefined,
        publish: (samplingId) =>
          this.events.publish('sampling.request', {
            samplingId,
            turnId: turnId(),
            conversationId: conversationId(),
            service: prompt.service,
            model: prompt.model,
            systemPrompt: prompt.systemPrompt,
            messages: prompt.messages,
            maxTokens: prompt.maxTokens,
          }),
      });
  }

  /** The user's decision: false when the request is unknown or already over. */
  answer(samplingId: string, decision: McpSamplingDecision): boolean {
    return this.requests.answer(samplingId, decision);
  }

  /** Number of requests waiting for an answer. */
  get size(): number {
    return this.requests.size;
  }
}
