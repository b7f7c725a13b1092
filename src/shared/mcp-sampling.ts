/**
 * MCP sampling as plain data (`sampling/createMessage`, MCP 2025-11-25): a server asks the
 * client's model for a completion. The adapter builds `McpSamplingRequest` from the server's
 * untrusted request (text only, control and format characters gone, bounded); the user approves
 * each request (`McpSamplingPrompt`, shown by the CLI and the renderer as plain text) unless the
 * service is always allowed; the answer goes back to the server only. No I/O; shared by the main
 * process and the renderer.
 */

/** One message of the server's conversation; images and audio are described ("[image]"). */
export interface McpSamplingMessage {
  role: 'user' | 'assistant';
  /** Untrusted text. */
  text: string;
}

export interface McpSamplingRequest {
  /** The server's system prompt ('' when none). Untrusted text. */
  systemPrompt: string;
  messages: McpSamplingMessage[];
  /** The server's limit, clamped to `MAX_SAMPLING_TOKENS`. */
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
}

/** What goes back: the model's text, or a refusal (sent as an error to the server). */
export type McpSamplingAnswer =
  | { action: 'accept'; text: string; model: string; stopReason: 'endTurn' | 'maxTokens' | string }
  | { action: 'decline'; reason: string };

/** Most tokens a server may ask for in one completion. */
export const MAX_SAMPLING_TOKENS = 4096;

/** What the user is asked to approve: who asks, what it sends, which model answers. */
export interface McpSamplingPrompt extends McpSamplingRequest {
  /** The service's name (the user's own name for a third-party server). */
  service: string;
  /** The model that would answer (the conversation's, or the default model). */
  model: string;
}

/** The user's choice: this request only, this and every later one of the service, or no. */
export type McpSamplingDecision = 'once' | 'always' | 'deny';
export const MCP_SAMPLING_DECISIONS = ['once', 'always', 'deny'] as const;
