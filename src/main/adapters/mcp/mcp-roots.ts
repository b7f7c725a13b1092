/**
 * MCP roots, the client side: the folders the user shares with a server. Given a `roots` source
 * (`McpConnectOptions.roots`), the client announces `roots: { listChanged: true }`, answers each
 * `roots/list` from it (every path as a `file://` URL) and can tell a live server the list changed
 * (`notifications/roots/list_changed`); without one nothing is announced and a server cannot ask.
 */
import { pathToFileURL } from 'node:url';
import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import type { McpRoot } from '../../../shared/mcp-roots';
import type { McpConnectOptions } from '../../core/ports';

/** One root as the protocol carries it. */
export interface ProtocolRoot {
  uri: string;
  name?: string;
}

/** The clients that announced roots (and answer roots/list). */
const announcing = new WeakSet<Client>();

/** The client's capabilities: `roots` (with list_changed) only when folders can be shared. */
export function rootsCapability(options: Pick<McpConnectOptions, 'roots'>): ClientCapabilities {
  return options.roots === undefined ? {} : { roots: { listChanged: true } };
}

/**
 * Answers `roots/list` from `roots` (asked again at every request); nothing without it. Resolves
 * `answered` once the first request has been answered (null when roots are not announced), so
 * that the connector can wait briefly for a server that asks right after the handshake.
 */
export function answerRoots(
  client: Client,
  roots: McpConnectOptions['roots'],
): { answered: Promise<void> } | null {
  if (roots === undefined) return null;
  announcing.add(client);
  let firstAnswer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (firstAnswer = resolve));
  client.setRequestHandler('roots/list', async () => {
    const listed = { roots: (await roots()).map(protocolRoot) };
    // Once the SDK has sent this answer (it does so as the handler settles), not before: the
    // caller's first request must follow it.
    setImmediate(firstAnswer);
    return listed;
  });
  return { answered };
}

/**
 * Sends `notifications/roots/list_changed`; false (nothing sent) when the client did not announce
 * roots. A failure to send goes through `failure` (the session's McpError for it).
 */
export async function sendRootsChanged(
  client: Client,
  failure: (error: unknown) => Error,
): Promise<boolean> {
  if (!announcing.has(client)) return false;
  try {
    await client.sendRootsListChanged();
  } catch (error) {
    throw failure(error);
  }
  return true;
}

/** A stored root as the protocol carries it. */
export function protocolRoot(root: McpRoot): ProtocolRoot {
  return root.name === undefined
    ? { uri: rootUri(root.path) }
    : { uri: rootUri(root.path), name: root.name };
}

/**
 * An absolute path as a `file://` URL (percent-encoded; `C:\Users\me` → `file:///C:/Users/me`,
 * `\\server\share` → `file://server/share`). A path shaped like a Windows one is read as one on
 * any system: a stored POSIX path always starts with `/`.
 */
export function rootUri(path: string): string {
  const windows = /^[A-Za-z]:[\\/]/.test(path) || /^\\\\[^\\]/.test(path);
  return pathToFileURL(path, { windows }).href;
}
