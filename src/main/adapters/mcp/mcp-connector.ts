/**
 * The MCP port's adapter: `createMcpConnector()` returns an McpConnector over the MCP SDK's client
 * (`@modelcontextprotocol/client`). Connecting builds the chosen transport (never falling back to
 * another), runs the handshake under one deadline that also covers spawning a child or opening an
 * SSE stream, and reports any failure as one McpError with a specific kind. Streamable HTTP
 * negotiates the protocol revision (2026-07-28 through `server/discover`, else the 2025
 * `initialize`); stdio and legacy SSE use the 2025 handshake.
 *
 * Only this folder imports the SDK (an ESLint fence enforces it). Address policy (private
 * addresses, loopback for the host the user typed) is the service layer's job, before connect.
 */
import { Client } from '@modelcontextprotocol/client';
import { McpError } from '../../core/ports';
import type {
  McpConnectOptions,
  McpConnector,
  McpEndpoint,
  McpFailureKind,
  McpSession,
} from '../../core/ports';
import { scopedAbort } from './mcp-abort';
import { classifyFailure, EXITED_DURING_HANDSHAKE, isParseError, seconds } from './mcp-errors';
import { oneLine } from '../../../shared/untrusted-text';
import { readTextStart } from '../../../shared/bounded-body';
import { createMcpFetch, serviceHeaders } from './mcp-fetch';
import { resolveLimits } from './mcp-limits';
import type { McpConnectorOptions, McpLimits } from './mcp-limits';
import { elicitationCapability, offerElicitation } from './mcp-elicitation';
import { McpLink } from './mcp-link';
import { forwardServerLog, SET_LEVEL_TIMEOUT_MS, setServerLogLevel } from './mcp-logging';
import { interactiveSignIn } from './mcp-oauth';
import { answerRoots, rootsCapability } from './mcp-roots';
import { offerSampling, samplingCapability } from './mcp-sampling';
import { McpClientSession } from './mcp-session';
import { buildTransport, parseServiceUrl } from './mcp-transports';

/** The connector's options (caps, client name, child environment). */
export type { McpConnectorOptions } from './mcp-limits';

/** Longest legacy-SSE probe after a failed Streamable HTTP handshake (within the deadline). */
const PROBE_TIMEOUT_MS = 3000;
/** How long a child that exited during the handshake may take to finish its stderr. */
const STDERR_END_WAIT_MS = 1000;
/**
 * How long a new connection with shared folders waits for the server's first `roots/list`
 * (answered at once when it comes; a server that never asks costs this much per connection).
 */
const ROOTS_WAIT_MS = 500;
/** How much of its last stderr line the error shows. */
const LAST_STDERR_CHARS = 300;
/** Longest URI a `notifications/resources/updated` may name (longer ones are ignored). */
const MAX_UPDATED_URI_CHARS = 2000;
/** How much of the probed event stream is read looking for the endpoint event. */
const PROBE_BYTES = 4096;

/** Failures after which a Streamable HTTP URL is probed for a legacy SSE server. */
const PROBED_KINDS: ReadonlySet<McpFailureKind> = new Set(['not-found', 'not-mcp', 'other']);

/** Creates the connector; see McpConnectorOptions for the caps and their defaults. */
export function createMcpConnector(options: McpConnectorOptions = {}): McpConnector {
  const limits = resolveLimits(options);
  return {
    connect: (endpoint, connectOptions) => connect(endpoint, connectOptions, limits),
    signIn: async (endpoint, challenge, user, signal) => {
      if (endpoint.transport === 'stdio' || endpoint.oauth === undefined)
        throw new McpError('other', `${describeEndpoint(endpoint)} has no sign-in`);
      await interactiveSignIn(
        endpoint.oauth,
        parseServiceUrl(endpoint.url),
        challenge,
        user,
        signal,
      );
    },
  };
}

/** How messages name the server: the URL's origin, or `command "x"`. */
export function describeEndpoint(endpoint: McpEndpoint): string {
  if (endpoint.transport === 'stdio') return `command "${oneLine(endpoint.command, 120)}"`;
  return parseServiceUrl(endpoint.url).origin;
}

async function connect(
  endpoint: McpEndpoint,
  options: McpConnectOptions,
  limits: McpLimits,
): Promise<McpSession> {
  const server = describeEndpoint(endpoint);
  if (options.signal.aborted)
    throw new McpError('canceled', `connecting to ${server} was canceled`);
  const timeoutMs = Math.max(1, options.timeoutMs);
  const deadlineAt = Date.now() + timeoutMs;
  // Streamable HTTP asks the server's revision first (the SDK's `server/discover`), so a server
  // of 2026-07-28 is spoken to at that revision from the first request, and falls back to the 2025
  // `initialize` on a server that does not know it. stdio and legacy SSE shake hands as in 2025
  // (the SDK's probe of a stdio server would start a second child).
  const mode = endpoint.transport === 'streamable-http' ? 'auto' : 'legacy';
  const first = await attempt(endpoint, options, limits, { mode, deadlineAt, timeoutMs });
  if (first.session !== null) return first.session;
  const failure = classifyConnectFailure(first);
  if (endpoint.transport !== 'streamable-http') throw await spawnFailure(failure, first);
  // A server that answered with an event stream of garbage is not a legacy SSE server.
  if (!PROBED_KINDS.has(failure.kind) || isParseError(first.error)) throw failure;
  const legacy = await probeWithin({ signal: options.signal, deadlineAt }, (signal) =>
    servesLegacySse(endpoint, limits, signal),
  );
  if (legacy !== true) throw failure;
  throw new McpError(
    'wrong-transport',
    `${server} serves a legacy HTTP+SSE event stream at this URL, not Streamable HTTP; choose the SSE transport`,
  );
}

/** How one connection attempt ended: a session, or the raw failure and what it knew. */
type Attempt =
  | { session: McpSession }
  | {
      session: null;
      error: unknown;
      link: McpLink;
      endpoint: McpEndpoint;
      limits: McpLimits;
      lastStderr: () => string;
      stderrEnded: Promise<void> | undefined;
    };

type Failed = Extract<Attempt, { session: null }>;

/**
 * One connection attempt at `mode` (the SDK's version negotiation: `'legacy'` is the 2025
 * `initialize` handshake, byte for byte; `'auto'` asks with `server/discover` first), within the
 * connection's deadline. Canceling and the deadline throw at once; other failures come back raw.
 */
async function attempt(
  endpoint: McpEndpoint,
  options: McpConnectOptions,
  limits: McpLimits,
  run: { mode: 'legacy' | 'auto'; deadlineAt: number; timeoutMs: number },
): Promise<Attempt> {
  const server = describeEndpoint(endpoint);
  const client = new Client(
    { name: limits.clientName, version: limits.clientVersion },
    {
      capabilities: {
        ...rootsCapability(options),
        ...elicitationCapability({ elicitation: options.onElicit !== undefined }),
        ...samplingCapability({ sampling: options.onSample !== undefined }),
      },
      versionNegotiation: { mode: run.mode },
    },
  );
  const shutdown = () => void client.close().catch(() => undefined);
  const link = new McpLink(endpoint.transport, server, shutdown);
  let lastStderr = '';
  const onStderr = (line: string) => {
    if (line.trim() !== '') lastStderr = line;
    options.onStderr?.(line);
  };
  const built = buildTransport(endpoint, {
    limits,
    events: link,
    onStderr,
    // While connecting (the probe included); afterwards the client's onerror reports them.
    onTransportError: (error) => {
      if (!link.isOpen) link.onTransportError(error);
    },
    isModern: () => client.getProtocolEra() === 'modern',
  });
  link.attach(built.transport);
  client.onerror = (error) => link.onTransportError(error);
  client.onclose = () => link.onTransportClosed();
  client.setNotificationHandler('notifications/tools/list_changed', () => link.emitToolsChanged());
  client.setNotificationHandler('notifications/prompts/list_changed', () =>
    link.emitLibraryChanged(),
  );
  client.setNotificationHandler('notifications/resources/list_changed', () =>
    link.emitLibraryChanged(),
  );
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    const uri = updatedUri(notification);
    if (uri !== null) link.emitResourceUpdated(uri);
  });
  if (options.onLog !== undefined) forwardServerLog(client, options.onLog);
  const rootsAsked = answerRoots(client, options.roots);
  if (options.onElicit !== undefined) offerElicitation(client, options.onElicit);
  if (options.onSample !== undefined) offerSampling(client, options.onSample);

  const timeoutMs = Math.max(1, run.deadlineAt - Date.now());
  const scope = scopedAbort(options.signal);
  let overTime = false;
  const timer = setTimeout(() => {
    overTime = true;
    scope.controller.abort();
  }, timeoutMs);
  const signal = scope.controller.signal;
  try {
    await Promise.race([
      quiet(client.connect(built.transport, { signal, timeout: timeoutMs })),
      quiet(stopped(signal, link)),
    ]);
  } catch (error) {
    shutdown();
    if (options.signal.aborted)
      throw new McpError('canceled', `connecting to ${server} was canceled`);
    if (overTime) throw handshakeTimeout(server, run.timeoutMs);
    return {
      session: null,
      error,
      link,
      endpoint,
      limits,
      lastStderr: () => lastStderr,
      stderrEnded: built.stderrEnded,
    };
  } finally {
    clearTimeout(timer);
    scope.dispose();
    link.onConnectProblem = null;
  }
  link.markOpen();
  // A server that asks for the shared folders right after the handshake (server-filesystem)
  // would otherwise take the first call before it has them: wait for its question, briefly,
  // and only when there are folders to give.
  if (rootsAsked !== null && options.roots !== undefined && (await options.roots()).length > 0) {
    await settledWithin(rootsAsked.answered, ROOTS_WAIT_MS);
  }
  if (options.logLevel !== undefined)
    await setServerLogLevel(client, options.logLevel, Math.min(timeoutMs, SET_LEVEL_TIMEOUT_MS));
  return {
    session: new McpClientSession({
      client,
      link,
      limits,
      kind: endpoint.transport,
      terminateSession: built.terminateSession,
    }),
  };
}

/** The URI of a `notifications/resources/updated`, or null when it names none usable. */
function updatedUri(notification: unknown): string | null {
  const params = (notification as { params?: { uri?: unknown } } | null)?.params;
  const uri = params?.uri;
  if (typeof uri !== 'string' || uri === '' || uri.length > MAX_UPDATED_URI_CHARS) return null;
  const clean = oneLine(uri, MAX_UPDATED_URI_CHARS);
  return clean === uri ? uri : null;
}

function handshakeTimeout(server: string, timeoutMs: number): McpError {
  return new McpError(
    'timeout',
    `${server} did not complete the MCP handshake within ${seconds(timeoutMs)} s`,
  );
}

/** The failed attempt as one McpError. */
function classifyConnectFailure(failed: Failed): McpError {
  return classifyFailure(
    failed.error,
    {
      phase: 'connect',
      server: failed.link.server,
      what: 'the MCP handshake',
      transport: failed.endpoint.transport,
      timeoutMs: failed.limits.requestTimeoutMs,
    },
    failed.link.nonce,
    failed.link.lastHttpFailure,
  );
}

/** A stdio child that exited during the handshake: its last words say why. */
async function spawnFailure(failure: McpError, failed: Failed): Promise<McpError> {
  if (!failure.message.endsWith(EXITED_DURING_HANDSHAKE) || failed.stderrEnded === undefined)
    return failure;
  // Every line is in once stderr has ended.
  await settledWithin(failed.stderrEnded, STDERR_END_WAIT_MS);
  const lastStderr = failed.lastStderr();
  return new McpError(
    'spawn',
    lastStderr === ''
      ? `${failure.message}; it wrote no error output`
      : `${failure.message}; its last error output: "${oneLine(lastStderr, LAST_STDERR_CHARS)}"`,
  );
}

/** Waits for `promise` at most `ms`, never rejecting. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

/** Rejects when the deadline or the caller's signal fires, or the link sees a fatal problem. */
function stopped(signal: AbortSignal, link: McpLink): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    link.onConnectProblem = reject;
  });
}

/** Marks a raced promise as handled (the loser's rejection must not go unhandled). */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

type HttpEndpoint = Exclude<McpEndpoint, { transport: 'stdio' }>;

/** Runs a probe within PROBE_TIMEOUT_MS and the connect deadline; false when no time is left. */
async function probeWithin<T>(
  probe: { signal: AbortSignal; deadlineAt: number },
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T | false> {
  const probeMs = Math.min(PROBE_TIMEOUT_MS, probe.deadlineAt - Date.now());
  if (probeMs <= 0) return false;
  return run(AbortSignal.any([probe.signal, AbortSignal.timeout(probeMs)]));
}

/** The guarded fetch for the legacy SSE probe: the service's headers and rules, no events. */
function probeFetch(endpoint: HttpEndpoint, limits: McpLimits): ReturnType<typeof createMcpFetch> {
  return createMcpFetch({
    transport: 'streamable-http',
    url: parseServiceUrl(endpoint.url),
    headers: serviceHeaders(endpoint.headers),
    maxMessageBytes: limits.maxMessageBytes,
    ...(endpoint.resolveAddresses ? { resolveAddresses: endpoint.resolveAddresses } : {}),
    events: {
      onResponseBroken: () => undefined,
      onResponseEnded: () => undefined,
      onSessionExpired: () => undefined,
      onFailure: () => undefined,
    },
  });
}

/** True when a GET to the URL opens an event stream announcing an endpoint: legacy HTTP+SSE. */
async function servesLegacySse(
  endpoint: HttpEndpoint,
  limits: McpLimits,
  signal: AbortSignal,
): Promise<boolean> {
  try {
    const url = parseServiceUrl(endpoint.url);
    const response = await probeFetch(endpoint, limits)(url, {
      method: 'GET',
      headers: { accept: 'text/event-stream' },
      signal,
    });
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (!response.ok || type !== 'text/event-stream' || response.body === null) {
      await response.body?.cancel().catch(() => undefined);
      return false;
    }
    // The start of the stream (at most PROBE_BYTES), looking for `event: endpoint`.
    const announcesEndpoint = (text: string): boolean => /^event:\s*endpoint\s*$/m.test(text);
    return announcesEndpoint(await readTextStart(response.body, PROBE_BYTES, announcesEndpoint));
  } catch {
    return false;
  }
}
