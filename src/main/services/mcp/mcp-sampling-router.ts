/**
 * Who answers a server's sampling request. Like elicitation (`mcp-elicitation-router.ts`): a
 * service's connection is shared, so a request goes to whoever runs a call on that service right
 * now (`enter` when a call starts, the returned `leave` when it ends) — the chat turn that made the
 * call or `aivory mcp call`; the latest call to enter wins. Nobody running a call, or a caller
 * without a sampler (a non-interactive run), means a refusal; a call that ends meanwhile aborts
 * the request (refused too).
 */
import type { Logger, McpSampler, McpSamplingAnswer, McpSamplingRequest } from '../../core/ports';
import { ActiveCalls } from './mcp-active-calls';

export class McpSamplingRouter {
  private readonly calls = new ActiveCalls<McpSampler>();

  constructor(private readonly logger?: Logger) {}

  /** A call of `serviceId` starts; `leave` when it ends (a pending request is then refused). */
  enter(serviceId: string, sample: McpSampler | undefined): () => void {
    return this.calls.enter(serviceId, sample);
  }

  /** The server of `service` asks: the answer of whoever runs a call on it now, else refused. */
  async route(
    service: { id: string; name: string },
    request: McpSamplingRequest,
    signal: AbortSignal,
  ): Promise<McpSamplingAnswer> {
    const call = this.calls.latest(service.id);
    if (call?.handler === undefined) {
      const reason = call === undefined ? 'no call running' : 'non-interactive caller';
      this.logger?.info('MCP sampling refused: nobody to ask', { service: service.name, reason });
      return { action: 'decline', reason: `nobody to ask (${reason})` };
    }
    const asked = AbortSignal.any([signal, call.ended.signal]);
    if (asked.aborted) return { action: 'decline', reason: 'the call ended' };
    try {
      return await call.handler(
        { ...request, serviceId: service.id, service: service.name },
        asked,
      );
    } catch {
      return { action: 'decline', reason: 'the sampling request failed' };
    }
  }
}
