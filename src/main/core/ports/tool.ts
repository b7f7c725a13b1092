/**
 * The tool port: what a built-in or MCP tool is to the orchestrator, the context it runs in and
 * how it asks the user for approval.
 */
import type { ArtifactReference } from '../../../shared/turn-events';
import type { Logger } from './system';

/** What a tool returns. `isError` results reach the model as `<tool_error>` with this text. */
export interface ToolOutput {
  content: string;
  isError?: boolean;
  artifacts?: ArtifactReference[];
}

/** What a tool asks the user before a call that needs approval (MCP tools). */
export interface ApprovalRequest {
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
}

/** once: this call; conversation: this tool for the rest of the conversation; always: saved. */
export type ApprovalAnswer = 'once' | 'conversation' | 'always' | 'deny';

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
  execute(args: unknown, context: ToolContext): Promise<ToolOutput>;
}
