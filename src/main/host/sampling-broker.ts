/**
 * The desktop's MCP sampling approval: a server that asks the turn's model for a completion
 * becomes a `sampling.request` event for every window, and waits for `sampling.answer` (once,
 * always for this server, deny). A request nobody can answer ends without asking: denied when no
 * window or socket is connected, when the call ends (its signal aborts), the wait times out or
 * the last window leaves.
 */
import type { z } from 'zod';
import type { samplingSettledReasonSchema } from '../../shared/ipc/sampling-methods';
import type { IdGenerator, McpSamplingDecision } from '../core/ports';
import type { McpSamplingAsk } from '../services/turn-sampling';
import type { EventHub } from './event-hub';

/** How long one request waits for an answer. */
export const DEFAULT_SAMPLING_WAIT_MS = 10 * 60_000;

type SettledReason = z.infer<typeof samplingSettledReasonSchema>;

export interface SamplingBrokerOptions {
  events: EventHub;
  ids: Pick<IdGenerator, 'next'>;
  /** Default DEFAULT_SAMPLING_WAIT_MS. */
  waitMs?: number;
}

/** Pending sampling approvals of one host, keyed by `samplingId`. */
export class SamplingBroker {
  private readonly pending = new Map<
    string,
    (decision: McpSamplingDecision, reason: SettledReason) => void
  >();
  private readonly waitMs: number;

  constructor(private readonly options: SamplingBrokerOptions) {
    this.waitMs = options.waitMs ?? DEFAULT_SAMPLING_WAIT_MS;
    options.events.onEmpty(() => {
      for (const settle of [...this.pending.values()]) settle('deny', 'disconnected');
    });
  }

  /** The approval of one turn; `turnId()` names the turn, `conversationId()` its conversation. */
  askFor(turnId: () => string | null, conversationId: () => string | null): McpSamplingAsk {
    return (prompt, signal) =>
      new Promise<McpSamplingDecision>((resolve) => {
        if (signal.aborted || this.options.events.size === 0) return resolve('deny');
        const samplingId = this.options.ids.next('sampling');
        const onAbort = (): void => settle('deny', 'canceled');
        const timer = setTimeout(() => settle('deny', 'timeout'), this.waitMs);
        timer.unref?.();
        const settle = (decision: McpSamplingDecision, reason: SettledReason): void => {
          if (!this.pending.delete(samplingId)) return;
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          this.options.events.publish('sampling.settled', { samplingId, decision, reason });
          resolve(decision);
        };
        this.pending.set(samplingId, settle);
        signal.addEventListener('abort', onAbort, { once: true });
        this.options.events.publish('sampling.request', {
          samplingId,
          turnId: turnId(),
          conversationId: conversationId(),
          service: prompt.service,
          model: prompt.model,
          systemPrompt: prompt.systemPrompt,
          messages: prompt.messages,
          maxTokens: prompt.maxTokens,
        });
      });
  }

  /** The user's decision: false when the request is unknown or already over. */
  answer(samplingId: string, decision: McpSamplingDecision): boolean {
    const settle = this.pending.get(samplingId);
    if (!settle) return false;
    settle(decision, 'answered');
    return true;
  }

  /** Number of requests waiting for an answer. */
  get size(): number {
    return this.pending.size;
  }
}
