/**
 * Who answers a server's elicitation. A service's connection is shared, so a request cannot be
 * tied to the caller by the connection: it goes to whoever runs a call on that service right now
 * (`enter` when a call starts, the returned `leave` when it ends) — the chat turn that made the
 * call (its UI) or `aivory mcp call` (the terminal). The latest call to enter wins. Nobody
 * running a call, or a caller without an elicitor (a non-interactive run), means `decline`; a call
 * that ends while its user is asked aborts the question, which answers `cancel`. The model never
 * answers: elicitors are the user's.
 */
import type {
  McpElicitationAnswer,
  McpElicitationRequest,
  McpElicitor,
  Logger,
} from '../../core/ports';
import { ActiveCalls } from './mcp-active-calls';

export class McpElicitationRouter {
  private readonly calls = new ActiveCalls<McpElicitor>();

  constructor(private readonly logger?: Logger) {}

  /** A call of `serviceId` starts; `leave` when it ends (a pending question is then canceled). */
  enter(serviceId: string, elicit: McpElicitor | undefined): () => void {
    return this.calls.enter(serviceId, elicit);
  }

  /** Number of calls running on `serviceId` (tests, diagnostics). */
  running(serviceId: string): number {
    return this.calls.running(serviceId);
  }

  /** The server of `service` asks: the answer of whoever runs a call on it now, else decline. */
  async route(
    service: { id: string; name: string },
    request: McpElicitationRequest,
    signal: AbortSignal,
  ): Promise<McpElicitationAnswer> {
    const call = this.calls.latest(service.id);
    if (call?.handler === undefined) {
      this.logger?.info('MCP elicitation declined: nobody to ask', {
        service: service.name,
        mode: request.mode,
        reason: call === undefined ? 'no call running' : 'non-interactive caller',
      });
      return { action: 'decline' };
    }
    const asked = AbortSignal.any([signal, call.ended.signal]);
    if (asked.aborted) return { action: 'cancel' };
    try {
      return await call.handler({ ...request, service: service.name }, asked);
    } catch {
      return { action: 'cancel' };
    }
  }
}
