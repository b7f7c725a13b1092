/**
 * The tool port: what a built-in or MCP tool is to the orchestrator, the context it runs in and
 * how it asks the user for approval.
 */
import type {
  ArtifactReference,
  StructuredToolOutput,
  TaintReason,
} from '../../../shared/turn-events';
import type { ChatImage } from './llm';
import type { McpElicitor, McpSampler } from './mcp';
import type { Logger } from './system';

/** What a tool returns. `isError` results reach the model as `<tool_error>` with this text. */
export interface ToolOutput {
  content: string;
  isError?: boolean;
  artifacts?: ArtifactReference[];
  /**
   * For a tool with `untrustedOutput`: what this call actually read (web_fetch: the URLs it
   * requested), in place of `untrustedOutput.sources(args)`; `[]` when it read nothing untrusted
   * (refused before any request), so the call does not taint the turn.
   */
  untrustedSources?: string[];
  /**
   * Images the call returned (MCP image content), typed from their bytes (png, jpeg, gif, webp).
   * The orchestrator shows them to a vision model (`TurnInput.vision`), bounded, and only from a
   * tool with `untrustedOutput` whose call tainted the turn; otherwise `content` describes them.
   */
  images?: ChatImage[];
  /** A structured result (MCP `structuredContent`) for the trace card; the model reads `content`. */
  structured?: StructuredToolOutput;
}

/**
 * Whether untrusted content has entered the turn so far, and through which calls (see
 * docs/architecture/turn-taint.md). The orchestrator sets it for every call; a call made outside a
 * turn (`aivory tool`, `aivory mcp call`) has none, which means untainted.
 */
export interface TurnTaint {
  tainted: boolean;
  /** In order; one per URL for web_fetch. Empty while untainted. */
  reasons: readonly TaintReason[];
}

/** The untainted state a turn starts in. */
export const UNTAINTED: TurnTaint = Object.freeze({ tainted: false, reasons: Object.freeze([]) });

/**
 * What a tool asks the user before a call that needs approval: an MCP call (`kind` absent or
 * 'mcp'), or a web_fetch that would carry data to a new host after untrusted content
 * ('web-fetch': `service` is 'built-in', `tool` 'web_fetch', `arguments` `{ url }`).
 */
export interface ApprovalRequest {
  kind?: 'mcp' | 'web-fetch';
  /** The model-facing name, e.g. `files__write_file`. */
  toolName: string;
  service: string;
  tool: string;
  /** Exactly what will be sent. */
  arguments: Record<string, unknown>;
  conversationId: string | null;
  /** The server's own hints (untrusted, shown as such). */
  readOnlyHint: boolean;
  destructiveHint: boolean;
  /** Why the user is asked when the usual rule would not ask (a tainted turn), in one sentence. */
  reason?: string;
  /** What tainted the turn, when it is. */
  taint?: readonly TaintReason[];
}

/**
 * once: this call; conversation: this tool for the rest of the conversation; always: saved.
 * A web-fetch request takes every answer but 'deny' as "this fetch".
 */
export type ApprovalAnswer = 'once' | 'conversation' | 'always' | 'deny';

/**
 * How long a call waits for the user's approval before it counts as denied: the one figure for
 * MCP calls, a tainted turn's web fetches and the desktop's approval cards, so a tool's own
 * deadline (its limit plus this wait) always outlasts the card.
 */
export const USER_APPROVAL_WAIT_MS = 5 * 60_000;

/** Asks the user; resolves 'deny' when the signal aborts or nobody can answer. */
export type Approver = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;

/** The narrow context a tool runs in: its conversation, the turn's abort signal, its ports. */
export interface ToolContext {
  /** Null when a tool runs outside a conversation (`aivory tool`). */
  conversationId: string | null;
  signal: AbortSignal;
  logger: Logger;
  /** Present when a user can answer approval prompts (UI, interactive CLI, or a CLI policy). */
  approve?: Approver;
  /** The turn the call belongs to; absent outside a turn. */
  turnId?: string;
  /** Set by the orchestrator for every call in a turn; absent outside a turn (untainted). */
  taint?: TurnTaint;
  /**
   * Where a long-running tool reports progress (an MCP server's notifications), when someone
   * follows it: the chat service adds it to each call of a turn (a `tool-progress` event),
   * `aivory mcp call` prints it. Reporting must never fail the call.
   */
  onProgress?: (progress: ToolProgress) => void;
  /**
   * Who answers an MCP server's elicitation (a form or URL it asks the user about) while this
   * call runs: the turn's UI, the CLI. Absent: such requests are declined. Never the model.
   */
  elicit?: McpElicitor;
  /**
   * Who answers an MCP server's sampling request (a completion of the user's model, after the
   * user's approval) while this call runs. Absent: such requests are refused.
   */
  sample?: McpSampler;
}

/** One progress report of a running tool, as its server sent it (the follower cleans it). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * A tool whose results bring untrusted content into the turn (web pages, search results, MCP
 * output, program output): once such a call has run, successfully or not, the turn is tainted.
 * `sources` names what the call reads (web_fetch: its URLs), one reason each; absent or empty:
 * one reason without detail.
 */
export interface UntrustedOutput {
  sources?(args: Record<string, unknown>): string[];
}

/** A built-in or MCP tool. `description` and `inputSchema` are what the model sees, verbatim. */
export interface Tool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Longest a single call may run before it fails with the public timeout text. */
  timeoutMs: number;
  /**
   * Checks arguments before execution. Returns a message for the model when they are invalid,
   * so it can correct the call; null when they are fine.
   */
  validate?(args: unknown): string | null;
  /** Present on tools whose output taints the turn (see `UntrustedOutput`). */
  untrustedOutput?: UntrustedOutput;
  execute(args: unknown, context: ToolContext): Promise<ToolOutput>;
}
