/** The LLM port: a provider-neutral streamed chat completion. The OpenAI adapter implements it. */

/**
 * A provider-neutral chat message, as sent to an LLM. A user message may carry images for a model
 * that takes them (vision input): the adapter sends them as image parts beside `content`.
 */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: ChatImage[] }
  | { role: 'assistant'; content: string; toolCalls?: ChatToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** An image sent to a vision model; `mime` is sniffed from the bytes (png, jpeg, gif or webp). */
export interface ChatImage {
  mime: string;
  data: Uint8Array;
}

/** A native tool call as the provider reported it; `argumentsJson` is the raw JSON text. */
export interface ChatToolCall {
  id: string;
  name: string;
  argumentsJson: string;
}

/** A function definition offered to a provider in native mode. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface LlmRequest {
  model: string;
  messages: ChatMessage[];
  /** Native-mode function definitions; absent in prompt mode and in final-answer rounds. */
  tools?: ToolSpec[];
  /** Stop sequences; prompt mode sends exactly `</tool_call>`. */
  stop?: string[];
  /** Sampling: `temperature`, `top_p`, `max_tokens`; each absent one is not sent. */
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
}

/** One streamed piece of a provider response. Reasoning is never mixed into `text`. */
export type LlmChunk =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call-delta'; index: number; id?: string; name?: string; argumentsDelta?: string }
  | { type: 'finish'; reason: string | null }
  /** Tokens the provider counted for this request, when it reports them (after `finish`). */
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  /**
   * The request failed before its answer started (a 429, a 503, a lost connection) and is sent
   * again after `waitMs` (what the server asked, or a short backoff); `status` is the HTTP
   * status, null for a network failure. Aborting the signal ends the wait.
   */
  | { type: 'retry-wait'; waitMs: number; status: number | null };

export interface LlmClient {
  /** Streams one completion. Aborting `signal` ends the HTTP request and the iteration. */
  stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmChunk>;
}
