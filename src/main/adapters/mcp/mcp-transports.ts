/**
 * Builds the SDK transport for an endpoint. Each transport is chosen explicitly by the user's
 * setting: there is no fallback from Streamable HTTP to legacy SSE, so the real error shows.
 */
import { statSync } from 'node:fs';
import type { Stream } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpError } from '../../core/ports';
import type { McpEndpoint } from '../../core/ports';
import { checkHttpUrl } from '../../../shared/http-url';
import { isLoaderVariable, loaderRefusal } from '../../../shared/loader-env';
import { oneLine } from '../../../shared/untrusted-text';
import { createMcpFetch, serviceHeaders } from './mcp-fetch';
import type { McpFetchEvents } from './mcp-fetch';
import type { McpLimits } from './mcp-limits';
import { McpOAuth } from './mcp-oauth';

/** Longest stderr line passed on; a child printing without newlines cannot grow a buffer. */
export const MAX_STDERR_LINE = 8192;

/** The SDK transport plus what the session needs to know about it. */
export interface BuiltTransport {
  transport: Transport;
  /** How messages name the server: its origin, or `command "x"`. */
  server: string;
  /** Streamable HTTP only: ends the server-side session (DELETE) on close. */
  terminateSession?: () => Promise<void>;
  /** stdio only: settles once the child's stderr has ended (every line passed on). */
  stderrEnded?: Promise<void>;
}

/** What building a transport needs from the connection. */
export interface TransportDeps {
  limits: McpLimits;
  events: McpFetchEvents;
  onStderr?: (line: string) => void;
  /**
   * Streamable HTTP: every error the transport reports, also while the SDK's revision probe
   * (`server/discover`) holds the transport, before the client's own `onerror` is attached.
   */
  onTransportError?: (error: Error) => void;
  /**
   * Streamable HTTP: true once the connection speaks 2026-07-28. A result without `resultType`
   * is then taken as complete, as that revision tells clients to assume (the SDK 2.4.0 refuses
   * it instead: "servers implementing protocol revision 2026-07-28 MUST include it").
   */
  isModern?: () => boolean;
}

/**
 * The SDK's Streamable HTTP transport, with its errors also reported to `watch`: the SDK's revision
 * probe takes the transport's `onerror` for itself and ignores a garbled answer, which would leave
 * the handshake waiting for its deadline; watched, the connector ends it at once. On a 2026-07-28
 * connection a result without `resultType` reaches the client as complete (`isModern`).
 */
class WatchedHttpTransport extends StreamableHTTPClientTransport {
  constructor(
    url: URL,
    options: ConstructorParameters<typeof StreamableHTTPClientTransport>[1],
    watch: (error: Error) => void,
    isModern: () => boolean,
  ) {
    super(url, options);
    // Whoever sets a handler (the probe, then the client, each chaining the previous one) gets
    // it wrapped, so `watch` hears every error (sometimes twice, which it does not mind).
    let onError: (error: Error) => void = watch;
    Object.defineProperty(this, 'onerror', {
      configurable: true,
      enumerable: true,
      get: () => onError,
      set: (next: ((error: Error) => void) | undefined) => {
        onError =
          next === undefined
            ? watch
            : (error: Error) => {
                watch(error);
                next(error);
              };
      },
    });
    // The transport passes each message with its extra information (how many arguments it
    // gives varies by SDK release): all go through, the message itself marked complete if need be.
    type Handler = (message: unknown, ...rest: unknown[]) => void;
    let onMessage: Handler | undefined;
    Object.defineProperty(this, 'onmessage', {
      configurable: true,
      enumerable: true,
      get: () => onMessage,
      set: (next: Handler | undefined) => {
        onMessage =
          next === undefined
            ? undefined
            : (message, ...rest) =>
                next(isModern() ? completeByDefault(message) : message, ...rest);
      },
    });
  }
}

/** A JSON-RPC result object without `resultType`, marked `complete`; anything else as it is. */
export function completeByDefault<T>(message: T): T {
  if (typeof message !== 'object' || message === null || !('result' in message)) return message;
  const result = (message as { result: unknown }).result;
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return message;
  if ('resultType' in result) return message;
  return { ...message, result: { ...result, resultType: 'complete' } };
}

/** Parses and checks the service URL: http(s) only, no credentials in it. */
export function parseServiceUrl(raw: string): URL {
  const verdict = checkHttpUrl(raw);
  if (!verdict.ok && verdict.problem === 'invalid') {
    throw new McpError('other', `"${oneLine(raw, 100)}" is not a valid URL`);
  }
  if (!verdict.ok && verdict.problem === 'scheme') {
    throw new McpError(
      'other',
      `${verdict.url.protocol} URLs are not supported; use http:// or https://`,
    );
  }
  if (!verdict.ok) {
    throw new McpError(
      'other',
      'the URL must not contain a user name or password; put credentials in a request header',
    );
  }
  return verdict.url;
}

/** The transport for `endpoint`; throws McpError for a bad URL, header or working directory. */
export function buildTransport(endpoint: McpEndpoint, deps: TransportDeps): BuiltTransport {
  if (endpoint.transport === 'stdio') return buildStdio(endpoint, deps);
  const url = parseServiceUrl(endpoint.url);
  const fetch = createMcpFetch({
    transport: endpoint.transport,
    url,
    headers: serviceHeaders(endpoint.headers),
    ...(endpoint.hiddenParts ? { hiddenParts: endpoint.hiddenParts } : {}),
    maxMessageBytes: deps.limits.maxMessageBytes,
    events: deps.events,
    ...(endpoint.resolveAddresses ? { resolveAddresses: endpoint.resolveAddresses } : {}),
    ...(endpoint.oauth ? { oauth: new McpOAuth(endpoint.oauth, url) } : {}),
  });
  if (endpoint.transport === 'sse') {
    return { transport: new SSEClientTransport(url, { fetch }), server: url.origin };
  }
  const transport = new WatchedHttpTransport(
    url,
    { fetch },
    (error) => deps.onTransportError?.(error),
    () => deps.isModern?.() === true,
  );
  return {
    transport,
    server: url.origin,
    terminateSession: () => transport.terminateSession(),
  };
}

type StdioEndpoint = Extract<McpEndpoint, { transport: 'stdio' }>;

function buildStdio(endpoint: StdioEndpoint, deps: TransportDeps): BuiltTransport {
  const server = `command "${oneLine(endpoint.command, 120)}"`;
  if (endpoint.command.trim() === '') throw new McpError('spawn', 'no command was given');
  if (endpoint.cwd !== undefined && !isDirectory(endpoint.cwd)) {
    throw new McpError('spawn', `the working directory of ${server} does not exist`);
  }
  const transport = new StdioClientTransport({
    command: endpoint.command,
    args: endpoint.args,
    env: childEnvironment(deps.limits.environment, endpoint.env, endpoint.allowedLoaderEnv),
    cwd: endpoint.cwd,
    stderr: 'pipe',
    maxBufferSize: deps.limits.maxMessageBytes,
  });
  const stderrEnded = forwardLines(transport.stderr, deps.onStderr);
  return { transport, server, stderrEnded };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Variables a local server may inherit from the user's environment: where programs and the home
 * folder are, language and time zone, temp folders, proxies and extra CA certificates (a server
 * behind a company proxy), the display (browser-driving servers), and Windows' essentials. Nothing
 * else: the app's own secrets (AIVORY_API_KEY, SANDBOX_API_KEY, cloud credentials in the
 * environment…) never reach a child the user did not hand them to with `--env`.
 */
const INHERITED = new Set(
  [
    'PATH',
    'HOME',
    'USER',
    'LOGNAME',
    'SHELL',
    'TERM',
    'LANG',
    'LANGUAGE',
    'TZ',
    'TMPDIR',
    'TMP',
    'TEMP',
    'XDG_RUNTIME_DIR',
    'XDG_CONFIG_HOME',
    'XDG_DATA_HOME',
    'XDG_CACHE_HOME',
    'DISPLAY',
    'WAYLAND_DISPLAY',
    'XAUTHORITY',
    'HTTP_PROXY',
    'HTTPS_PROXY',
    'NO_PROXY',
    'ALL_PROXY',
    'NODE_EXTRA_CA_CERTS',
    'SSL_CERT_FILE',
    'SSL_CERT_DIR',
    'SYSTEMROOT',
    'SYSTEMDRIVE',
    'WINDIR',
    'COMSPEC',
    'PATHEXT',
    'APPDATA',
    'LOCALAPPDATA',
    'PROGRAMDATA',
    'PROGRAMFILES',
    'PROGRAMFILES(X86)',
    'USERPROFILE',
    'USERNAME',
    'HOMEDRIVE',
    'HOMEPATH',
    'PROCESSOR_ARCHITECTURE',
    'NUMBER_OF_PROCESSORS',
    'OS',
  ].map((name) => name.toUpperCase()),
);

/** True for a variable of the user's environment that a local server inherits. */
export function isInheritedVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return INHERITED.has(upper) || upper.startsWith('LC_');
}

/**
 * A minimal environment from the user's one (`isInheritedVariable`), plus the service's own
 * variables, which win. Shell functions exported into the environment (`() {…}`) are dropped.
 * A loader variable of the service's (`shared/loader-env.ts`: NODE_OPTIONS, LD_PRELOAD…) that
 * is not in `allowedLoaderEnv` stops the start (a `spawn` error naming it): the user allowed
 * the command line, not code slipped in beside it. None is ever inherited.
 */
export function childEnvironment(
  base: Record<string, string | undefined>,
  extra: Record<string, string>,
  allowedLoaderEnv: readonly string[] = [],
): Record<string, string> {
  const allowed = new Set(allowedLoaderEnv.map((name) => name.toUpperCase()));
  const refused = Object.keys(extra).find(
    (name) => isLoaderVariable(name) && !allowed.has(name.toUpperCase()),
  );
  if (refused !== undefined) throw new McpError('spawn', loaderRefusal(refused));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (
      value !== undefined &&
      isInheritedVariable(name) &&
      !isLoaderVariable(name) &&
      !value.startsWith('()')
    )
      env[name] = value;
  }
  return { ...env, ...extra };
}

/**
 * Passes each line of `stream` to `onLine` (without the line break; over-long lines are cut at
 * MAX_STDERR_LINE). The stream is always drained, so a chatty child never blocks on a full pipe.
 */
export function forwardLines(
  stream: Stream | null,
  onLine?: (line: string) => void,
): Promise<void> {
  if (stream === null) return Promise.resolve();
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const emit = (line: string) => {
    if (onLine === undefined) return;
    try {
      onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    } catch {
      // A failing log sink must not break the connection.
    }
  };
  let skipping = false;
  stream.on('data', (chunk: Buffer | string) => {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      if (!skipping) emit(pending.slice(0, newline));
      skipping = false;
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
    if (pending.length > MAX_STDERR_LINE) {
      if (!skipping) emit(`${pending.slice(0, MAX_STDERR_LINE)}…`);
      skipping = true;
      pending = '';
    }
  });
  return new Promise<void>((resolve) => {
    stream.on('end', () => {
      pending += decoder.end();
      if (pending !== '' && !skipping) emit(pending);
      pending = '';
      resolve();
    });
    stream.on('close', resolve);
    stream.on('error', () => resolve());
  });
}
