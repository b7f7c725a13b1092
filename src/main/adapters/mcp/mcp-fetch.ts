/**
 * The fetch the HTTP transports use. It reaches exactly the origin of the service URL (an SSE
 * server announcing a message endpoint elsewhere is refused), refuses every redirect (so the
 * service's headers never travel), adds the service's headers to every request, turns statuses
 * and network failures into specific McpErrors, and bounds every response body.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { Agent, fetch as undiciFetch } from 'undici';
import { McpError, McpUndelivered } from '../../core/ports';
import { pinnedLookup } from '../fetch/http-exchange';
import { guardBody } from './mcp-body-guard';
import { ADDRESS_BLOCKED, networkFailure } from './mcp-errors';
import { refusalInBody, unsupportedRevision } from './mcp-revision';
import { checkHttpUrl } from '../../../shared/http-url';
import { redactSecrets } from '../../policy/redact';
import { oneLine } from '../../../shared/untrusted-text';

/** What the fetch tells the connection about; see McpLink. */
export interface McpFetchEvents {
  /** The event-stream answer to request `id` broke before its end (socket closed, too large). */
  onResponseBroken(id: string | number, error: McpError): void;
  /** The event-stream answer to request `id` ended normally, and cannot be resumed. */
  onResponseEnded(id: string | number): void;
  /**
   * The server said it no longer knows the session a request carried (HTTP 404, or a 400 saying
   * so): the session is gone; request `id` (null for a GET or a notification) was not processed.
   */
  onSessionExpired(id: string | number | null, error: McpError): void;
  /** Every McpError the fetch throws (the legacy SSE transport keeps only their message). */
  onFailure(error: McpError): void;
}

/** What one connection's fetch may reach and send. */
export interface McpFetchConfig {
  transport: 'streamable-http' | 'sse';
  /** The service URL; only its origin may be reached. */
  url: URL;
  /** The service's own headers, sent on every request. */
  headers: Headers;
  maxMessageBytes: number;
  events: McpFetchEvents;
  /** Secrets of the URL (its path may hold a key): messages name them `••••`. */
  hiddenParts?: readonly string[];
  /**
   * The checked addresses for each new connection (the service's address rules, run again every
   * time); the connection goes to exactly those. Absent: the system resolver decides.
   */
  resolveAddresses?: (
    hostname: string,
    signal: AbortSignal,
  ) => Promise<readonly { address: string; family: 4 | 6 }[]>;
  /**
   * OAuth sign-in (mcp-oauth.ts): its Bearer token goes on every request the user's own headers
   * do not already authorize, and a 401 / 403 `insufficient_scope` is handed to it; when it signs
   * in, the request is sent once more.
   */
  oauth?: {
    authorization(): Promise<string | null>;
    challenge(response: Response, signal: AbortSignal): Promise<boolean>;
  };
}

/** How long the per-connection address check may take. */
const LOOKUP_TIMEOUT_MS = 15_000;

/**
 * An undici Agent whose every new connection asks `resolveAddresses` and connects to what it
 * answered (TLS still checks the hostname): a name that resolves to a public address when the
 * service is checked and to 127.0.0.1 a moment later cannot carry the service's headers inward.
 */
export function pinnedAgent(
  resolveAddresses: NonNullable<McpFetchConfig['resolveAddresses']>,
): Agent {
  return new Agent({
    keepAliveTimeout: 10_000,
    connect: {
      lookup: (hostname, options, callback) => {
        resolveAddresses(hostname, AbortSignal.timeout(LOOKUP_TIMEOUT_MS)).then(
          (addresses) => pinnedLookup(hostname, addresses)(hostname, options, callback),
          (error: unknown) => {
            const blocked: NodeJS.ErrnoException = new Error(
              error instanceof Error ? error.message : String(error),
            );
            blocked.code = ADDRESS_BLOCKED;
            callback(blocked, '', 0);
          },
        );
      },
    },
  });
}

/** Builds the headers once, naming a bad header without its (possibly secret) value. */
export function serviceHeaders(headers: Record<string, string>): Headers {
  const built = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    try {
      built.set(name, value);
    } catch {
      throw new McpError('other', `the request header "${oneLine(name, 60)}" is not valid`);
    }
  }
  return built;
}

/** Returns the guarded fetch for one connection. */
export function createMcpFetch(config: McpFetchConfig): FetchLike {
  const origin = config.url.origin;
  const agent = config.resolveAddresses ? pinnedAgent(config.resolveAddresses) : null;
  return async (input, init) => {
    const target = sameOriginTarget(input, origin);
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers);
    // The transport's own headers (session id, protocol version, accept) win over the user's.
    for (const [name, value] of config.headers) if (!headers.has(name)) headers.set(name, value);
    const oauth = headers.has('authorization') ? undefined : config.oauth;
    let signedIn = false;
    const send = async (): Promise<Response> => {
      const bearer = oauth ? await oauth.authorization() : null;
      if (bearer !== null) headers.set('authorization', bearer);
      signedIn = bearer !== null;
      try {
        const request = { ...init, method, headers, redirect: 'manual' as const };
        return agent
          ? ((await undiciFetch(target, {
              ...(request as Parameters<typeof undiciFetch>[1]),
              dispatcher: agent,
            })) as unknown as Response)
          : await fetch(target, request);
      } catch (error) {
        const network = networkFailure(error, origin);
        if (network === null) throw error;
        // A refused connection carried nothing: the request may go again, once reconnected.
        const failure =
          network.kind === 'refused' ? new McpUndelivered(network.kind, network.message) : network;
        config.events.onFailure(failure);
        throw failure;
      }
    };
    let response = await send();
    if (oauth && (response.status === 401 || response.status === 403)) {
      let again: boolean;
      try {
        again = await oauth.challenge(response, init?.signal ?? new AbortController().signal);
      } catch (error) {
        await response.body?.cancel().catch(() => undefined);
        if (error instanceof McpError) config.events.onFailure(error);
        throw error;
      }
      if (again) {
        await response.body?.cancel().catch(() => undefined);
        response = await send();
      }
    }
    const gone = await sessionGone(response, headers, config);
    if (gone.error !== null) {
      config.events.onSessionExpired(requestId(method, init?.body), gone.error);
      config.events.onFailure(gone.error);
      throw gone.error;
    }
    response = gone.response;
    const refused = await revisionRefused(response, method, config);
    if (refused.error !== null) {
      config.events.onFailure(refused.error);
      throw refused.error;
    }
    response = refused.response;
    const failure = statusFailure(response, method, config, signedIn);
    if (failure !== null) {
      await response.body?.cancel().catch(() => undefined);
      config.events.onFailure(failure);
      throw failure;
    }
    return guardResponse(response, requestId(method, init?.body), config);
  };
}

function sameOriginTarget(input: string | URL, origin: string): URL {
  const verdict = checkHttpUrl(input);
  if (!verdict.ok && verdict.problem === 'invalid') {
    throw new McpError('protocol', `refused an invalid request URL for ${origin}`);
  }
  if (!verdict.ok || verdict.url.origin !== origin) {
    throw new McpError(
      'redirect',
      `refused a request to ${verdict.url.origin}: only ${origin}, the service's own address, may be reached`,
    );
  }
  return verdict.url;
}

function mediaType(response: Response): string {
  const type = response.headers.get('content-type') ?? '';
  return (type.split(';')[0] ?? '').trim().toLowerCase();
}

/** The service URL's origin and path, for messages: without its query, its secret parts hidden. */
function shownPath(config: McpFetchConfig): string {
  return redactSecrets(
    `${config.url.origin}${config.url.pathname}`,
    config.hiddenParts ?? [],
    '••••',
  );
}

/** A path without its query (which may carry tokens), for messages. */
function shownLocation(location: string, base: URL): string {
  try {
    const url = new URL(location, base);
    return oneLine(`${url.origin}${url.pathname}`, 120);
  } catch {
    return 'an invalid address';
  }
}

function statusFailure(
  response: Response,
  method: string,
  config: McpFetchConfig,
  signedIn: boolean,
): McpError | null {
  const { status } = response;
  const where = shownPath(config);
  if (status >= 300 && status < 400) {
    const location = response.headers.get('location');
    const to =
      location === null
        ? ''
        : ` to ${redactSecrets(shownLocation(location, config.url), config.hiddenParts ?? [], '••••')}`;
    return new McpError(
      'redirect',
      `${where} answered with a redirect (HTTP ${status}${to}); redirects are refused so the service's headers never reach another address — enter the final URL instead`,
    );
  }
  if (status === 401) {
    return new McpError(
      'unauthorized',
      signedIn
        ? `${where} refused the request as unauthenticated (HTTP 401) even after signing in; sign in again`
        : `${where} refused the request as unauthenticated (HTTP 401); check the service's headers (e.g. Authorization)`,
    );
  }
  if (status === 403) {
    if (signedIn && /insufficient_scope/.test(response.headers.get('www-authenticate') ?? ''))
      return new McpError(
        'forbidden',
        `${where} needs more permission than your sign-in grants (HTTP 403, insufficient_scope); sign in again`,
      );
    return new McpError('forbidden', `${where} denied access (HTTP 403); check the credentials`);
  }
  if (status === 404) return notFound(where);
  if (config.transport === 'streamable-http') return streamableStatus(response, method, where);
  return sseStatus(response, method, where);
}

/** How much of a 400 answer is read for the word "session" or a protocol version refusal. */
const SESSION_ERROR_BYTES = 4096;

/**
 * Whether the server no longer knows the session the request carried: HTTP 404 (the spec), or
 * a 400 whose body speaks of the session (the SDK's example servers and server-everything answer
 * an unknown session id with "400 Bad Request: No valid session ID provided"). A 400 about
 * something else comes back unchanged (its body read, at most 4 KiB, and put back).
 */
async function sessionGone(
  response: Response,
  headers: Headers,
  config: McpFetchConfig,
): Promise<{ error: McpUndelivered | null; response: Response }> {
  const { status } = response;
  if (config.transport !== 'streamable-http' || !headers.has('mcp-session-id'))
    return { error: null, response };
  if (status !== 404 && status !== 400) return { error: null, response };
  const text = status === 400 ? await boundedText(response, SESSION_ERROR_BYTES) : '';
  if (status === 404 || /\bsession\b/i.test(text)) {
    await response.body?.cancel().catch(() => undefined);
    const where = shownPath(config);
    const error = new McpUndelivered(
      'disconnected',
      `${where} no longer knows this MCP session (HTTP ${status}); reconnect`,
    );
    return { error, response };
  }
  return {
    error: null,
    response: new Response(text, {
      status,
      statusText: response.statusText,
      headers: response.headers,
    }),
  };
}

/**
 * A 400 answering a POST with the "unsupported protocol version" error naming only revisions this
 * client does not speak (a server of a newer revision refusing our handshake): that error, said
 * plainly. Any other 400 comes back unchanged (its body read, at most 4 KiB, and put back).
 */
async function revisionRefused(
  response: Response,
  method: string,
  config: McpFetchConfig,
): Promise<{ error: McpError | null; response: Response }> {
  if (config.transport !== 'streamable-http' || method !== 'POST' || response.status !== 400)
    return { error: null, response };
  const text = await boundedText(response, SESSION_ERROR_BYTES);
  const revisions = refusalInBody(text);
  if (revisions !== null) {
    return { error: unsupportedRevision(config.url.origin, revisions), response };
  }
  const { status, statusText, headers } = response;
  return { error: null, response: new Response(text, { status, statusText, headers }) };
}

/** The start of a body as text (at most `maxBytes`), the rest cancelled; '' when unreadable. */
async function boundedText(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const chunk = await reader.read();
      if (chunk.done) break;
      chunks.push(chunk.value);
      size += chunk.value.byteLength;
    }
  } catch {
    // Unreadable: no session words in it.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxBytes));
}

function notFound(where: string): McpError {
  return new McpError(
    'not-found',
    `nothing at ${where} (HTTP 404); check the URL path (usually /mcp, or /sse for legacy SSE servers)`,
  );
}

function streamableStatus(response: Response, method: string, where: string): McpError | null {
  if (method !== 'POST') return null;
  if (response.status === 405) {
    return new McpError(
      'wrong-transport',
      `${where} does not accept POST (HTTP 405), so it is not a Streamable HTTP endpoint; if it is a legacy HTTP+SSE server, choose the SSE transport`,
    );
  }
  const type = mediaType(response);
  if (
    response.status === 200 &&
    response.body !== null &&
    type !== 'application/json' &&
    type !== 'text/event-stream'
  ) {
    return new McpError(
      'not-mcp',
      `${where} answered with ${oneLine(type || 'no content type', 60)} instead of MCP JSON-RPC; is this the MCP endpoint?`,
    );
  }
  return null;
}

function sseStatus(response: Response, method: string, where: string): McpError | null {
  if (method !== 'GET') return null;
  if ([400, 405, 406].includes(response.status)) {
    return new McpError(
      'wrong-transport',
      `${where} did not open an SSE event stream (HTTP ${response.status}); if it is a Streamable HTTP server, choose the Streamable HTTP transport`,
    );
  }
  if (response.ok && mediaType(response) !== 'text/event-stream') {
    return new McpError(
      'not-mcp',
      `${where} answered with ${oneLine(mediaType(response) || 'no content type', 60)}, not an SSE event stream; is this the MCP server's SSE URL?`,
    );
  }
  return null;
}

/** The JSON-RPC id of a request the transport POSTs, or null (notification, response, GET). */
function requestId(method: string, body: unknown): string | number | null {
  if (method !== 'POST' || typeof body !== 'string') return null;
  try {
    const message: unknown = JSON.parse(body);
    if (typeof message !== 'object' || message === null || !('method' in message)) return null;
    const id = 'id' in message ? message.id : undefined;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function guardResponse(
  response: Response,
  id: string | number | null,
  config: McpFetchConfig,
): Response {
  if (response.body === null || NULL_BODY_STATUSES.has(response.status)) return response;
  const eventStream = mediaType(response) === 'text/event-stream';
  const answer = eventStream ? id : null;
  const body = guardBody(response.body, {
    origin: config.url.origin,
    maxBytes: config.maxMessageBytes,
    perEvent: eventStream,
    onBroken:
      answer === null ? undefined : (error) => config.events.onResponseBroken(answer, error),
    onEndedWithoutId: answer === null ? undefined : () => config.events.onResponseEnded(answer),
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
