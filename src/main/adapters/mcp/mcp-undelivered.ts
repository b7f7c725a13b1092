/**
 * A request that never reached a live session on the server: the connection was already lost
 * before it was sent, the server refused the TCP connection, or it answered that it no longer
 * knows the session (HTTP 404, or a 400 that says so, as the SDK's example servers and
 * server-everything do). Nothing ran on the server, so the service layer may send the request
 * again, once, on a new connection (McpConnections.use) — even a tools/call. A connection that
 * breaks while a request is running is not this: the tool may have run.
 *
 * No SDK import here, so the service layer can test for it without loading the SDK.
 */
import { McpError } from '../../core/ports';
import type { McpFailureKind } from '../../core/ports';

export class McpUndelivered extends McpError {
  constructor(kind: McpFailureKind, message: string) {
    super(kind, message);
    this.name = 'McpUndelivered';
  }
}

/** True for a failure that left the server untouched (see McpUndelivered). */
export function isUndelivered(error: unknown): error is McpUndelivered {
  return error instanceof McpUndelivered;
}
