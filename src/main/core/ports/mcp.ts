/**
 * The MCP port: how services reach a user's MCP server without importing the SDK. The adapter
 * (src/main/adapters/mcp/) implements McpConnector over @modelcontextprotocol/client; tests and
 * services depend on these types only. Plain data and one error class; no I/O here.
 */
import type { McpLogLevel, McpToolInfo } from '../../../shared/mcp';
import type { McpRoot } from '../../../shared/mcp-roots';
import type { McpElicitationAnswer, McpElicitationRequest } from '../../../shared/mcp-elicitation';
import type { McpSamplingAnswer, McpSamplingRequest } from '../../../shared/mcp-sampling';

export type { McpToolAnnotations, McpToolInfo, McpTransportKind } from '../../../shared/mcp';
export type { McpLogLevel } from '../../../shared/mcp';
export { MCP_LOG_LEVELS } from '../../../shared/mcp';
export type {
  McpElicitationAnswer,
  McpElicitationField,
  McpElicitationRequest,
  McpElicitationValue,
} from '../../../shared/mcp-elicitation';
export type {
  McpSamplingAnswer,
  McpSamplingDecision,
  McpSamplingMessage,
  McpSamplingPrompt,
  McpSamplingRequest,
} from '../../../shared/mcp-sampling';

/** Where and how to reach one service. */
export type McpEndpoint =
  | {
      transport: 'streamable-http' | 'sse';
      /** The URL the user typed; requests may reach exactly its origin, nothing else. */
      url: string;
      /** Sent on every request (already decrypted); never sent to another origin. */
      headers: Record<string, string>;
      /**
       * Secrets the URL holds (a key in its path or query, kept in the secret store): messages
       * name them `••••`.
       */
      hiddenParts?: readonly string[];
      /**
       * The checked addresses for a new connection to the URL's host, asked again for every
       * connection (the address rules run each time, so DNS rebinding cannot move a connection
       * elsewhere); absent, the system resolver decides (tests of the adapter alone).
       */
      resolveAddresses?: (
        hostname: string,
        signal: AbortSignal,
      ) => Promise<readonly { address: string; family: 4 | 6 }[]>;
      /**
       * OAuth 2.1 for a server that answers 401 with a Bearer challenge (MCP authorization);
       * absent, a 401 is reported as is (the user's own headers decide).
       */
      oauth?: McpOAuthEndpoint;
    }
  | {
      transport: 'stdio';
      command: string;
      args: string[];
      /** Added to the user's environment for the child. */
      env: Record<string, string>;
      /**
       * The loader variables of `env` (NODE_OPTIONS, LD_PRELOAD…: `shared/loader-env.ts`) the
       * user allowed for this service; the launcher refuses to start with any other.
       */
      allowedLoaderEnv?: readonly string[];
      cwd?: string;
    };

/** The saved OAuth state of one service (kept in the SecretStore by the service layer). */
export interface McpOAuthState {
  /** The token response, as the authorization server sent it, plus when it arrived. */
  tokens?: Record<string, unknown> & { access_token: string; obtained_at?: number };
  /** The client registration (dynamic, CIMD or pre-registered, stamped with its issuer). */
  client?: Record<string, unknown> & { client_id: string };
  /** Where discovery found the authorization server (cached between connections). */
  discovery?: Record<string, unknown>;
  /** The last loopback redirect URL (its port is tried again, so a registration stays valid). */
  redirectUrl?: string;
  /**
   * The resource named another authorization server (`to`) than the one the service is bound to
   * (`from`), and nothing was sent there: the user's approval is awaited (the card and
   * `aivory mcp list` show it). Cleared by the approval, or when the resource names `from` again.
   */
  moved?: { from: string; to: string };
}

/** How a service signs in with OAuth: what is saved, who the client is, how the user takes part. */
export interface McpOAuthEndpoint {
  load(): Promise<McpOAuthState>;
  save(state: McpOAuthState): Promise<void>;
  /** The service's name, for the messages that tell the user how to sign in. */
  serviceName?: string;
  /** The client_name given to dynamic registration. */
  clientName: string;
  /**
   * A pre-registered client the user entered (else CIMD or dynamic registration); with a private
   * key it authenticates by a signed JWT (private_key_jwt) instead of a secret.
   */
  client?: { id: string; secret?: string; privateKey?: string; keyAlgorithm?: string };
  /** `client_credentials` needs a pre-registered client and no user. */
  grant: 'authorization_code' | 'client_credentials';
  /**
   * The authorization server (issuer) the service's sign-in and its entered client are bound to:
   * nothing — no discovery of its metadata, registration, client secret, code or refresh token —
   * goes to another one the resource names without the user's approval (the sign-in fails with
   * McpSignInRequired carrying `movedFrom` / `movedTo`). Absent: bound at the first token obtained
   * (`bindIssuer`), or to the issuer a sign-in saved before this binding is stamped with.
   */
  issuer?: string;
  /** Saves the binding made at the first token obtained (see `issuer`). */
  bindIssuer(issuer: string): Promise<void>;
  /** An https URL serving this app's Client ID Metadata Document, when the user has one. */
  clientMetadataUrl?: string;
  /**
   * The checked addresses of an authorization server's host (discovery, registration and token
   * requests): the same rules as the service, run for every new connection.
   */
  resolveAddresses: (
    hostname: string,
    signal: AbortSignal,
  ) => Promise<readonly { address: string; family: 4 | 6 }[]>;
  /** Whether plain http:// may be used for this authorization server host (the service's local host). */
  allowsHttp: (hostname: string) => boolean;
  /**
   * Why a sign-in request or page may not use `url`'s origin, or null when it may. On the
   * service's own local host only the service's own origin is allowed (scheme, host and port),
   * so a server on one local port cannot make the app send requests to another local service.
   */
  refusedOrigin: (url: URL) => string | null;
}

/** What a server's refusal asked for: where its metadata is, and which scope. */
export interface McpAuthChallenge {
  resourceMetadataUrl?: string;
  scope?: string;
  /** A 403 `insufficient_scope`: signed in, but more permission is needed. */
  stepUp: boolean;
  /**
   * The authorization server the resource names now, when it is not the one the service is bound
   * to (`movedFrom`; the resource moved, SEP-2352): nothing was sent to it, and only the user's
   * approval (`McpServices.approveAuthServer`) lets a sign-in go there.
   */
  movedTo?: string;
  movedFrom?: string;
}

/** One interactive sign-in: a loopback redirect listener and the user's browser. */
export interface McpSignIn {
  /** Opens the listener (trying `preferredUrl`'s port first) and returns its redirect URL. */
  open(preferredUrl: string | undefined, signal: AbortSignal): Promise<string>;
  /**
   * Shows `authorizationUrl` to the user (browser, printed link) and waits for the redirect with
   * this `state`; resolves with the authorization code. `issuer` (RFC 9207): an `iss` in the
   * redirect must equal `issuer.expected`, and must be there when `issuer.required`. An error
   * redirect rejects with McpAuthorizationRefused.
   */
  authorize(
    authorizationUrl: URL,
    state: string,
    signal: AbortSignal,
    issuer?: { expected: string; required: boolean },
  ): Promise<string>;
  close(): void;
}

/** Why a connection or request failed, for a specific message in settings and the CLI. */
export type McpFailureKind =
  | 'dns'
  | 'refused'
  | 'tls'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'not-mcp'
  | 'wrong-transport'
  | 'redirect'
  | 'timeout'
  | 'disconnected'
  | 'protocol'
  /** Connected, and the server answered the request with a JSON-RPC error (its message shown). */
  | 'server-error'
  | 'too-large'
  | 'spawn'
  | 'canceled'
  | 'other';

/** Every failure the adapter reports: a kind and a one-line message fit for the user. */
export class McpError extends Error {
  constructor(
    readonly kind: McpFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'McpError';
  }
}

/**
 * A server needs the user to sign in (or to sign in again with more permission): what a chat
 * turn reports; a user's own action signs in (McpConnector.signIn) and tries once more.
 */
export class McpSignInRequired extends McpError {
  constructor(
    message: string,
    readonly challenge: McpAuthChallenge,
  ) {
    super('unauthorized', message);
    this.name = 'McpSignInRequired';
  }
}

/**
 * A request that never reached a live session on the server: the connection was already lost
 * before it was sent, the server refused the TCP connection, or it answered that it no longer
 * knows the session (HTTP 404, or a 400 that says so, as the SDK's example servers and
 * server-everything do). Nothing ran on the server, so the service layer may send the request
 * again, once, on a new connection (McpConnections.use), even a tools/call. A connection that
 * breaks while a request is running is not this: the tool may have run.
 */
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

/**
 * The authorization server refused the sign-in with an OAuth error (RFC 6749 §4.1.2.1 / §5.2):
 * `code` is its `error` (e.g. `invalid_client`, `access_denied`), the message says it with its
 * `error_description`, one line and bounded. `beforeRedirect`: it answered the authorization
 * request itself instead of redirecting back — an unknown client or redirect URI.
 */
export class McpAuthorizationRefused extends McpError {
  constructor(
    readonly code: string,
    message: string,
    readonly beforeRedirect = false,
  ) {
    super('unauthorized', message);
    this.name = 'McpAuthorizationRefused';
  }
}

export interface McpImage {
  mime: string;
  data: Uint8Array;
}

/** A tool result converted for the model: text (capped, with a marker) plus any images. */
export interface McpCallResult {
  isError: boolean;
  text: string;
  images: McpImage[];
  /** True when `text` was cut to the cap. */
  truncated: boolean;
  /**
   * The result's `structuredContent` when it is a JSON object (unchecked: the service layer
   * checks it against the tool's output schema); absent otherwise.
   */
  structured?: Record<string, unknown>;
  /** Embedded binary resources (`resource` content with a `blob`), decoded; at most a few. */
  blobs?: McpResourceContents['blobs'];
}

export interface McpCallOptions {
  signal: AbortSignal;
  /** Deadline without progress; each progress notification restarts it… */
  timeoutMs: number;
  /** …but never past this total. */
  maxTotalTimeoutMs: number;
  /** Cap on the result text (characters). */
  maxOutputChars: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export interface McpPromptInfo {
  name: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
}

/** A resource template (RFC 6570 `uriTemplate`): the user fills it in to read a resource. */
export interface McpResourceTemplateInfo {
  uriTemplate: string;
  name: string;
  description: string;
  mimeType: string | null;
}

/** A resource's contents: its text (binary parts noted in it) and the binary parts themselves. */
export interface McpResourceContents {
  text: string;
  /** Binary parts (`blob`), decoded; at most a few, each bounded by the message cap. */
  blobs: { uri: string; mimeType: string | null; data: Uint8Array }[];
  /** Text parts, each whole (bounded by the message cap only), to attach them as files. */
  texts: { uri: string; mimeType: string | null; text: string }[];
}

export interface McpResourceInfo {
  uri: string;
  name: string;
  description: string;
  mimeType: string | null;
}

/** What the server said it offers (its capabilities at the handshake). */
export interface McpServerFeatures {
  tools: boolean;
  prompts: boolean;
  resources: boolean;
  /** `resources.subscribe`: `resources/subscribe` and `notifications/resources/updated`. */
  resourceSubscribe: boolean;
  /** `completions`: `completion/complete` for prompt and resource-template arguments. */
  completions: boolean;
}

/** What `completion/complete` is asked about: a prompt's argument or a resource template's. */
export type McpCompletionRef = { type: 'prompt'; name: string } | { type: 'resource'; uri: string };

/** The server's suggestions for one argument, cleaned and bounded (untrusted text). */
export interface McpCompletion {
  values: string[];
  /** The server has more than it sent (or than were kept). */
  hasMore: boolean;
  /** How many the server says there are in all, when it says. */
  total: number | null;
}

/** A live connection (initialized). */
export interface McpSession {
  readonly serverName: string;
  readonly serverVersion: string;
  /** What the server offers (read at the handshake). */
  readonly features: McpServerFeatures;
  /**
   * The server's suggestions for `argument` of a prompt or resource template, given the values of
   * the other arguments (`context`); none when it does not offer completions.
   */
  complete(
    ref: McpCompletionRef,
    argument: { name: string; value: string },
    context: Record<string, string>,
    signal: AbortSignal,
  ): Promise<McpCompletion>;
  /**
   * `resources/subscribe`: the server tells of each change (`onResourceUpdated`); false (nothing
   * sent) when it does not offer subscriptions on this connection.
   */
  subscribeResource(uri: string, signal: AbortSignal): Promise<boolean>;
  /** `resources/unsubscribe`; never fails (a closed connection has no subscription left). */
  unsubscribeResource(uri: string, signal: AbortSignal): Promise<void>;
  /** Called on notifications/resources/updated with the resource's URI (bounded). */
  onResourceUpdated(listener: (uri: string) => void): void;
  /** Every page of tools/list, refusing more than the connector's tool cap. */
  listTools(signal: AbortSignal): Promise<McpToolInfo[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<McpCallResult>;
  listPrompts(signal: AbortSignal): Promise<McpPromptInfo[]>;
  /** The prompt's messages flattened to text, for the composer. */
  getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<string>;
  listResources(signal: AbortSignal): Promise<McpResourceInfo[]>;
  /** A resource's text (binary contents described, not inlined), capped. */
  readResource(uri: string, signal: AbortSignal): Promise<string>;
  /** The same read, with its binary parts decoded (to save them as files). */
  readResourceContents(uri: string, signal: AbortSignal): Promise<McpResourceContents>;
  /** Every page of resources/templates/list (none when the server offers no resources). */
  listResourceTemplates(signal: AbortSignal): Promise<McpResourceTemplateInfo[]>;
  /** Called on notifications/tools/list_changed. */
  onToolsChanged(listener: () => void): void;
  /** Called on notifications/prompts/list_changed and resources/list_changed. */
  onLibraryChanged(listener: () => void): void;
  /** Called once when the connection ends unexpectedly. */
  onClose(listener: (reason: string) => void): void;
  /**
   * Sends `notifications/roots/list_changed`; false (nothing sent) when this session did not
   * announce roots (connected without `McpConnectOptions.roots`): reconnect to announce them.
   */
  rootsChanged(): Promise<boolean>;
  /**
   * Asks the server for log messages at `level` and above (`logging/setLevel`); false when it
   * offers no logging or did not agree. Never fails the connection.
   */
  setLogLevel(level: McpLogLevel): Promise<boolean>;
  close(): Promise<void>;
}

/** One `notifications/message` of a server, cleaned: one bounded line of text. */
export interface McpLogEntry {
  level: McpLogLevel;
  /** The server's logger name, when it gave one. */
  logger?: string;
  text: string;
}

export interface McpConnectOptions {
  signal: AbortSignal;
  /** Connect + initialize deadline. */
  timeoutMs: number;
  /** stdio: each stderr line of the child (for the per-service log). */
  onStderr?: (line: string) => void;
  /** The server's log messages (`notifications/message`), rate-limited (for the same log). */
  onLog?: (entry: McpLogEntry) => void;
  /**
   * Sent as `logging/setLevel` right after the handshake when the server offers logging; absent,
   * the server's own default stands.
   */
  logLevel?: McpLogLevel;
  /**
   * The folders shared with the server, asked at each `roots/list`: given, the client announces
   * `roots` (with `listChanged`); absent, it does not, and the server cannot ask.
   */
  roots?: () => Promise<readonly McpRoot[]>;
  /**
   * Answers the server's `elicitation/create` (a form to fill or a URL to open); the signal aborts
   * when the server cancels or the connection ends. Absent: the client does not offer elicitation.
   */
  onElicit?: (request: McpElicitationRequest, signal: AbortSignal) => Promise<McpElicitationAnswer>;
  /**
   * Answers the server's `sampling/createMessage` (a completion of the client's model, after the
   * user's approval); the signal aborts when the server cancels or the connection ends. Absent:
   * the client does not offer sampling.
   */
  onSample?: (request: McpSamplingRequest, signal: AbortSignal) => Promise<McpSamplingAnswer>;
}

/** A sampling request as the service layer hands it on: which service's server asks. */
export interface McpSampling extends McpSamplingRequest {
  /** The service's id (what "always allow" remembers). */
  serviceId: string;
  /** The service's name (the user's own name for a third-party server). */
  service: string;
}

/**
 * Whoever answers a service's sampling request during a call (the chat turn, `aivory mcp call`):
 * asks the user, then the model; resolves a decline when the signal aborts (the call ended).
 */
export type McpSampler = (request: McpSampling, signal: AbortSignal) => Promise<McpSamplingAnswer>;

/** An elicitation as the service layer hands it on: which service's server asks. */
export interface McpElicitation extends McpElicitationRequest {
  /** The service's name (the user's own name for a third-party server). */
  service: string;
}

/**
 * Whoever answers a service's elicitation during a call (the chat turn's UI, the CLI); resolves
 * `cancel` when the signal aborts (the call ended).
 */
export type McpElicitor = (
  request: McpElicitation,
  signal: AbortSignal,
) => Promise<McpElicitationAnswer>;

export interface McpConnector {
  /** Connects and initializes; throws McpError with a specific kind. */
  connect(endpoint: McpEndpoint, options: McpConnectOptions): Promise<McpSession>;
  /**
   * The user's OAuth sign-in with an HTTP service (after McpSignInRequired): discovery,
   * registration, the browser, the code for tokens, saved through `endpoint.oauth`. No
   * connection deadline runs meanwhile (the user takes their time; `signal` ends it).
   */
  signIn(
    endpoint: McpEndpoint,
    challenge: McpAuthChallenge,
    user: McpSignIn,
    signal: AbortSignal,
  ): Promise<void>;
}
