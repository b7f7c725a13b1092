/**
 * The MCP adapter's options and their defaults. Every number here bounds what an untrusted
 * server can make the app hold in memory or wait for.
 */
import { MAX_TOOL_IMAGE_BYTES } from '../../core/orchestrator/tool-images';

/** Options of `createMcpConnector`; all optional. */
export interface McpConnectorOptions {
  /**
   * Most tools one service may list (default 1000). More is refused with a `too-large` error
   * rather than cut: a silently shortened list would hide tools from the user's review. No model
   * API takes that many tools in one request (OpenAI: 128), so a bigger server is unusable anyway.
   */
  maxTools?: number;
  /** Prompts or resources kept from one listing (default 1000); the rest is dropped. */
  maxListItems?: number;
  /** Largest JSON-RPC message accepted from a server, in bytes (default 32 MiB). */
  maxMessageBytes?: number;
  /** Deadline of list/get/read requests (default 60 s); tool calls use their own options. */
  requestTimeoutMs?: number;
  /** Cap on getPrompt / readResource text (default 100,000 characters). */
  maxTextChars?: number;
  /** Images kept from one tool result (default 4); further ones become a note. */
  maxImages?: number;
  /** Largest image kept, decoded (default 5 MiB); bigger ones become a note. */
  maxImageBytes?: number;
  /** Sent in `initialize` as clientInfo. */
  clientName?: string;
  clientVersion?: string;
  /**
   * The environment stdio children start from (default `process.env`, the user's login
   * environment in a terminal; the desktop shell may pass the login shell's one).
   */
  environment?: Record<string, string | undefined>;
}

/** The options with every default filled in. */
export interface McpLimits {
  maxTools: number;
  maxListItems: number;
  maxMessageBytes: number;
  requestTimeoutMs: number;
  maxTextChars: number;
  maxImages: number;
  maxImageBytes: number;
  clientName: string;
  clientVersion: string;
  environment: Record<string, string | undefined>;
}

const MIB = 1024 * 1024;

/** The defaults (see McpConnectorOptions for the reasons). */
export const DEFAULT_MCP_LIMITS: Omit<McpLimits, 'environment'> = {
  maxTools: 1000,
  maxListItems: 1000,
  maxMessageBytes: 32 * MIB,
  requestTimeoutMs: 60_000,
  maxTextChars: 100_000,
  maxImages: 4,
  // The largest image the turn sends on to the model: keeping a bigger one would be for nothing.
  maxImageBytes: MAX_TOOL_IMAGE_BYTES,
  clientName: 'aivory-personal',
  clientVersion: '0.1.0',
};

/** Fills in the defaults; non-positive numbers fall back to them. */
export function resolveLimits(options: McpConnectorOptions = {}): McpLimits {
  const positive = (value: number | undefined, fallback: number): number =>
    value !== undefined && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
  const defaults = DEFAULT_MCP_LIMITS;
  return {
    maxTools: positive(options.maxTools, defaults.maxTools),
    maxListItems: positive(options.maxListItems, defaults.maxListItems),
    maxMessageBytes: positive(options.maxMessageBytes, defaults.maxMessageBytes),
    requestTimeoutMs: positive(options.requestTimeoutMs, defaults.requestTimeoutMs),
    maxTextChars: positive(options.maxTextChars, defaults.maxTextChars),
    maxImages: positive(options.maxImages, defaults.maxImages),
    maxImageBytes: positive(options.maxImageBytes, defaults.maxImageBytes),
    clientName: options.clientName ?? defaults.clientName,
    clientVersion: options.clientVersion ?? defaults.clientVersion,
    environment: options.environment ?? process.env,
  };
}
