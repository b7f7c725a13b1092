/**
 * The MCP port: how services reach a user's MCP server without importing the SDK. The adapter
 * (src/main/adapters/mcp/) implements McpConnector over @modelcontextprotocol/sdk; tests and
 * services depend on these types only. Plain data and one error class; no I/O here.
 */
import type { McpLogLevel, McpToolInfo } from '../../../shared/mcp';
import type { McpElicitationAnswer, McpElicitationRequest } from '../../../shared/mcp-elicitation';

export type { McpToolAnnotations, McpToolInfo, McpTransportKind } from '../../../shared/mcp';
export type { McpLogLevel } from '../../../shared/mcp';
export { MCP_LOG_LEVELS } from '../../../shared/mcp';
export type {
  McpElicitationAnswer,
  McpElicitationField,
  McpElicitationRequest,
  McpElicitationValue,
} from '../../../shared/mcp-elicitation';

/** Where and how to reach one service. */
export type McpEndpoint =
  | {
      transport: 'streamable-http' | 'sse';
      /** The URL the user typed; requests may reach exactly its origin, nothing else. */
      url: string;
      /** Sent on every request (already decrypted); never sent to another origin. */
      headers: Record<string, string>;
      /**
       * The checked addresses for a new connection to the URL's host, asked again for every
       * connection (the address rules run each time, so DNS rebinding cannot move a connection
       * elsewhere); absent, the system resolver decides (tests of the adapter alone).
       */
      resolveAddresses?: (
        hostname: string,
        signal: AbortSignal,
      ) => Promise<readonly { address: string; family: 4 | 6 }[]>;
    }
  | {
      transport: 'stdio';
      command: string;
      args: string[];
      /** Added to the user's environment for the child. */
      env: Record<string, string>;
      cwd?: string;
    };

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

export interface McpResourceInfo {
  uri: string;
  name: string;
  description: string;
  mimeType: string | null;
}

/** A live connection (initialized). */
export interface McpSession {
  readonly serverName: string;
  readonly serverVersion: string;
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
  /** Called on notifications/tools/list_changed. */
  onToolsChanged(listener: () => void): void;
  /** Called once when the connection ends unexpectedly. */
  onClose(listener: (reason: string) => void): void;
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
   * Answers the server's `elicitation/create` (a form to fill or a URL to open); the signal aborts
   * when the server cancels or the connection ends. Absent: the client does not offer elicitation.
   */
  onElicit?: (request: McpElicitationRequest, signal: AbortSignal) => Promise<McpElicitationAnswer>;
}

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
}
