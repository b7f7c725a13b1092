/**
 * Protocol revisions: which ones Aivory's MCP client speaks (those of the SDK it is built on,
 * `@modelcontextprotocol/client`: the 2025-era ones through `initialize`, and 2026-07-28 through
 * `server/discover`), and how a server that speaks only others is recognised and named. Without
 * this, a server of an unknown revision read as "not an MCP server".
 *
 * A server says which revisions it speaks with the "unsupported protocol version" error (JSON-RPC
 * -32022, `data.supported`), answering the 2025 handshake or the SDK's `server/discover`.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';
import { McpError } from '../../core/ports';
import { oneLine } from '../../../shared/untrusted-text';

/**
 * The revision of the `server/discover` era the SDK speaks (its own list of them is not exported;
 * `SUPPORTED_PROTOCOL_VERSIONS` holds the `initialize` era only).
 */
export const MODERN_REVISION = '2026-07-28';

/** The revisions this client negotiates, newest first. */
export const SPOKEN_REVISIONS: readonly string[] = [
  MODERN_REVISION,
  ...SUPPORTED_PROTOCOL_VERSIONS,
];

/** At most this many of a server's revisions are named (it sends what it likes). */
const MAX_NAMED = 4;

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
