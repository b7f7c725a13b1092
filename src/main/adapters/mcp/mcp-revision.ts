/**
 * Protocol revisions: which ones Aivory's MCP client speaks (those of the SDK it is built on), and
 * how a server that speaks only others is recognised and named. Without this, a server of a newer
 * revision (2026-07-28 refuses the 2025 `initialize` with HTTP 400) read as "not an MCP server".
 *
 * A server says which revisions it speaks in two ways: the "unsupported protocol version" error
 * (JSON-RPC -32022, `data.supported`) answering our handshake, or — when it refused the handshake
 * for another reason (e.g. a missing `MCP-Protocol-Version` header) — the 2026-07-28
 * `server/discover` request, which the connector sends once as a probe (`probeRevisions`).
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '../../core/ports';
import { oneLine } from '../../../shared/untrusted-text';
import { readTextStart } from '../../../shared/bounded-body';

/** The revisions this client negotiates, newest first. */
export const SPOKEN_REVISIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/** The revision the discovery probe asks with (the first one with `server/discover`). */
export const PROBE_REVISION = '2026-07-28';

/** At most this many of a server's revisions are named (it sends what it likes). */
const MAX_NAMED = 4;
/** How much of a probe's answer is read. */
const PROBE_BYTES = 16_384;

/** The revisions a JSON-RPC error object names as supported, or null. */
export function supportedInError(error: unknown): string[] | null {
  if (typeof error !== 'object' || error === null) return null;
  const data = (error as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return null;
  return revisionList((data as { supported?: unknown }).supported);
}

/** A server-sent list of revision strings (bounded, one-line), or null when it is not one. */
function revisionList(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const revisions = value.filter((item): item is string => typeof item === 'string' && item !== '');
  if (revisions.length === 0) return null;
  return revisions.slice(0, MAX_NAMED).map((item) => oneLine(item, 40));
}

/** True when none of the server's revisions is one this client speaks. */
export function speaksNone(revisions: readonly string[]): boolean {
  return !revisions.some((revision) => SPOKEN_REVISIONS.includes(revision));
}

/** The error for a server whose revisions this client does not speak. */
export function unsupportedRevision(server: string, revisions: readonly string[]): McpError {
  const spoken = [...SPOKEN_REVISIONS].sort();
  const named = revisions.join(', ');
  return new McpError(
    'protocol',
    `${server} speaks protocol ${named}, which this version of Aivory does not support (it speaks MCP ${spoken[0]} to ${spoken[spoken.length - 1]}); update Aivory, or use an endpoint of the server that speaks an earlier revision`,
  );
}

/**
 * The version refusal in a JSON-RPC answer body (HTTP 400 to our request), or null: the
 * revisions it names, when this client speaks none of them.
 */
export function refusalInBody(text: string): string[] | null {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null) return null;
  const revisions = supportedInError((message as { error?: unknown }).error);
  return revisions !== null && speaksNone(revisions) ? revisions : null;
}

/**
 * Asks the server which revisions it speaks with a 2026-07-28 `server/discover` request. Returns
 * them, or null when the answer is not a discovery result or error naming them (an older server,
 * a network failure, a timeout).
 */
export async function probeRevisions(
  fetch: FetchLike,
  url: URL,
  client: { name: string; version: string },
  signal: AbortSignal,
): Promise<string[] | null> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': PROBE_REVISION,
        'io.modelcontextprotocol/clientInfo': client,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': PROBE_REVISION,
        'mcp-method': 'server/discover',
      },
      body,
      signal,
    });
    // An event stream may stay open: its first data line is the answer.
    const start = await readTextStart(response.body, PROBE_BYTES, (text) =>
      /^data:.*\n/m.test(text),
    );
    const text = start.slice(0, PROBE_BYTES);
    // JSON, or the first `data:` line of an event stream.
    const json = /^\s*[{[]/.test(text) ? text : (/^data:\s*(.*)$/m.exec(text)?.[1] ?? '');
    const message = JSON.parse(json) as { result?: unknown; error?: unknown };
    const result = message.result as { supportedVersions?: unknown } | undefined;
    return revisionList(result?.supportedVersions) ?? supportedInError(message.error);
  } catch {
    return null;
  }
}
