/**
 * The state of one connection, shared by the fetch, the SDK callbacks and the session: whether
 * it is open, lost or closed by us; who listens for its end and for tool-list changes; and the
 * one trick the SDK needs: when the event-stream answer to a request breaks, the SDK only logs
 * it and lets the request wait for its timeout, so the link answers that request itself with a
 * JSON-RPC error (`failRequest`), which rejects it at once.
 */
import { randomUUID } from 'node:crypto';
import { SseError } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import { isUndelivered, McpError } from '../../core/ports';
import type { McpTransportKind } from '../../core/ports';
import { INJECTED_FAILURE_CODE, isParseError } from './mcp-errors';
import type { McpFetchEvents } from './mcp-fetch';

/** How long after an answer stream's end a still-pending request is failed. */
const ENDED_STREAM_GRACE_MS = 250;
/**
 * How long a connection the server forgot stays up for the requests already sent on it, so each
 * hears its own answer (the server's "unknown session": undelivered, sent again) instead of
 * "closed during the call"; then it closes whatever is left.
 */
const DRAIN_MS = 5000;

type LinkState = 'connecting' | 'open' | 'lost' | 'closed';

/** One connection's state and listeners; also the fetch's event sink. */
export class McpLink implements McpFetchEvents {
  /** Marks the failures this link injects, so a server cannot forge them. */
  readonly nonce = randomUUID();
  /** The last McpError the fetch threw (see classifyFailure). */
  lastHttpFailure: McpError | null = null;
  /** Set while connecting: called with a transport error that should end the attempt at once. */
  onConnectProblem: ((error: unknown) => void) | null = null;
  private state: LinkState = 'connecting';
  private transport: Transport | null = null;
  private lostReason = '';
  private readonly closeListeners: ((reason: string) => void)[] = [];
  private readonly toolListeners: (() => void)[] = [];
  private readonly libraryListeners: (() => void)[] = [];
  private readonly updateListeners: ((uri: string) => void)[] = [];
  /** Requests sent and not yet settled (see `request` and `lose`). */
  private inFlight = 0;
  private drainTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly kind: McpTransportKind,
    /** How messages name the server. */
    readonly server: string,
    /** Ends the connection (closes the SDK client); called once when it is lost. */
    private readonly shutdown: () => void,
  ) {}

  attach(transport: Transport): void {
    this.transport = transport;
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** Why requests fail now that the connection is not open. */
  get closedMessage(): string {
    if (this.state === 'lost')
      return `the connection to ${this.server} was lost: ${this.lostReason}`;
    return `the connection to ${this.server} is closed`;
  }

  markOpen(): void {
    if (this.state === 'connecting') this.state = 'open';
  }

  /** Our own close(): returns false when it was already closed. */
  beginClose(): boolean {
    if (this.drainTimer !== null) {
      clearTimeout(this.drainTimer);
      this.drainTimer = null;
    }
    if (this.state === 'closed') return false;
    this.state = 'closed';
    return true;
  }

  onResponseBroken(id: string | number, error: McpError): void {
    this.failRequest(id, error);
  }

  /**
   * The answer stream of request `id` ended. When the request is still pending a moment later
   * (the SDK dispatches the stream's last messages first), the server ended it without a result.
   * Were it answered, the injected error finds no request and is dropped by the SDK.
   */
  onResponseEnded(id: string | number): void {
    const timer = setTimeout(() => {
      const error = new McpError(
        'disconnected',
        `${this.server} ended its answer stream without a result`,
      );
      this.failRequest(id, error);
    }, ENDED_STREAM_GRACE_MS);
    timer.unref();
  }

  /**
   * The server no longer knows the session. The request it refused (`id`, when it was one) is
   * failed first with `error` (an McpUndelivered, so it may be sent again on a new connection);
   * closing would otherwise reject it with a plain "connection closed".
   */
  onSessionExpired(id: string | number | null, error: McpError): void {
    if (id !== null) this.failRequest(id, error);
    // Told by the event stream (no request of ours): the requests in flight may be refused in a
    // moment by the same server for the same reason, and must hear it themselves.
    this.lose(`${this.server} ended the MCP session`, id === null);
  }

  /** A request is sent on this connection; the function returned says it settled (once). */
  request(): () => void {
    this.inFlight++;
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      this.inFlight--;
      if (this.inFlight === 0 && this.drainTimer !== null) this.finishDrain();
    };
  }

  private finishDrain(): void {
    if (this.drainTimer === null) return;
    clearTimeout(this.drainTimer);
    this.drainTimer = null;
    this.shutdown();
  }

  onFailure(error: McpError): void {
    this.lastHttpFailure = error;
  }

  /** Rejects the pending request `id` with `error` (no effect once it was answered). */
  failRequest(id: string | number, error: McpError): void {
    if (this.state === 'closed') return;
    this.transport?.onmessage?.({
      jsonrpc: '2.0',
      id,
      error: {
        code: INJECTED_FAILURE_CODE,
        message: error.message,
        data: {
          nonce: this.nonce,
          kind: error.kind,
          message: error.message,
          undelivered: isUndelivered(error),
        },
      },
    });
  }

  /** Every error the SDK reports (client.onerror). */
  onTransportError(error: unknown): void {
    if (this.state === 'connecting') {
      if (this.kind !== 'stdio' && isParseError(error)) this.onConnectProblem?.(error);
      return;
    }
    if (this.state !== 'open' || !(error instanceof Error)) return;
    if (/Maximum reconnection attempts/.test(error.message)) {
      this.lose(`the event stream from ${this.server} ended and could not be reopened`, true);
    } else if (this.kind === 'sse' && error instanceof SseError) {
      this.lose(`the SSE stream from ${this.server} ended`);
    }
  }

  /** The SDK client closed (client.onclose): unexpected unless we are closing. */
  onTransportClosed(): void {
    if (this.state === 'connecting') return;
    this.lose(
      this.kind === 'stdio' ? `${this.server} exited` : `${this.server} closed the connection`,
    );
  }

  /**
   * The connection ended without our close(): tell the listeners once (no new request goes on
   * it), then shut down — with `drain`, only once the requests in flight settled (at most
   * DRAIN_MS), since the connection itself still works and their answers say what happened.
   */
  lose(reason: string, drain = false): void {
    if (this.state !== 'open') return;
    this.state = 'lost';
    this.lostReason = reason;
    for (const listener of this.closeListeners.splice(0)) safeCall(() => listener(reason));
    if (!drain || this.inFlight === 0) {
      this.shutdown();
      return;
    }
    this.drainTimer = setTimeout(() => this.finishDrain(), DRAIN_MS);
    this.drainTimer.unref();
  }

  addCloseListener(listener: (reason: string) => void): void {
    if (this.state === 'lost') {
      queueMicrotask(() => safeCall(() => listener(this.lostReason)));
    } else if (this.state !== 'closed') {
      this.closeListeners.push(listener);
    }
  }

  addToolsListener(listener: () => void): void {
    this.toolListeners.push(listener);
  }

  emitToolsChanged(): void {
    if (this.state !== 'open') return;
    for (const listener of this.toolListeners) safeCall(listener);
  }

  addLibraryListener(listener: () => void): void {
    this.libraryListeners.push(listener);
  }

  addResourceUpdatedListener(listener: (uri: string) => void): void {
    this.updateListeners.push(listener);
  }

  /** notifications/resources/updated, with the (cleaned, bounded) URI. */
  emitResourceUpdated(uri: string): void {
    if (this.state !== 'open') return;
    for (const listener of this.updateListeners) safeCall(() => listener(uri));
  }

  /** prompts/list_changed or resources/list_changed. */
  emitLibraryChanged(): void {
    if (this.state !== 'open') return;
    for (const listener of this.libraryListeners) safeCall(listener);
  }
}

export function safeCall(callback: () => void): void {
  try {
    callback();
  } catch {
    // A listener's failure is its own; the connection carries on.
  }
}
