/**
 * Who sent a request, as the transport saw it. The handler layer trusts no transport: each fills
 * in a descriptor (Electron: the sender frame's URL; WebSocket: the upgrade's Origin and whether
 * its token matched) and the dispatcher refuses every request whose descriptor fails the policy.
 */

/** The transport's account of one request's sender. */
export interface SenderDescriptor {
  transport: 'electron' | 'websocket';
  /** Origin of the sending page (`app://aivory`, `http://127.0.0.1:5217`); null when unknown. */
  origin: string | null;
  /** False for sub-frames, webviews and detached windows (Electron); true for a socket. */
  mainFrame: boolean;
  /** The WebSocket's token matched (always true for Electron, whose channel needs none). */
  authenticated: boolean;
}

/** Which senders the host accepts. */
export interface SenderPolicy {
  /** Exact origins (scheme://host[:port]) allowed to call the API. */
  allowedOrigins: readonly string[];
}

/** Null when the sender may call the API, otherwise why not (for the log, not the renderer). */
export function senderRefusal(sender: SenderDescriptor, policy: SenderPolicy): string | null {
  if (!sender.authenticated) return 'not authenticated';
  if (!sender.mainFrame) return 'not the main frame';
  if (sender.origin === null) return 'no origin';
  if (!policy.allowedOrigins.includes(sender.origin)) return `foreign origin ${sender.origin}`;
  return null;
}

/**
 * The origin of a URL as the sender policy compares it (`scheme://host[:port]`, lower case, the
 * default port dropped). Custom schemes such as `app://aivory/index.html` give `app://aivory`
 * (WHATWG URL reports their origin as "null", which would make every custom scheme look alike).
 */
export function originOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.host === '') return null;
  return `${parsed.protocol}//${parsed.host}`.toLowerCase();
}
