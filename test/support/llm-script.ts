/**
 * What a scripted "model" answers, shared by the two ways tests play a script:
 * `scripted-llm-server.ts` (a real OpenAI-compatible HTTP server, for adapter and integration
 * tests) and `scripted-llm-client.ts` (an in-memory `LlmClient`, for core unit tests). Pure: no
 * I/O, so both produce the same text pieces, tool-call pieces and stop-sequence cuts.
 */

export interface ScriptedToolCall {
  /** Defaults to `call_<request>_<position>`. */
  id?: string;
  name: string;
  arguments: string;
  /** split the arguments JSON into this many chunks (default 3) */
  argumentChunks?: number;
}

export interface ScriptedResponse {
  /**
   * The full text the "model" writes; streamed in chunks of `chunkSize` chars (default 7). If the
   * request has `stop` sequences, the text is cut before the first occurrence of any of them, as
   * real servers do, and finish_reason becomes "stop".
   */
  content?: string;
  /** Streamed as `delta.reasoning_content` (or `reasoningField`) before the content. */
  reasoning?: string;
  /** Which delta field carries `reasoning`; default `reasoning_content` (DeepSeek, llama.cpp). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Native tool_calls deltas (index, id, type function, name in the first delta, arguments split). */
  toolCalls?: ScriptedToolCall[];
  /** Default 'tool_calls' if toolCalls else 'stop' (or 'stop' when cut by a stop sequence). */
  finishReason?: string;
  chunkSize?: number;
  /** Delay between chunks. */
  delayMs?: number;
  /**
   * Paces the chunks at this rate against the wall clock instead of `delayMs`: chunk N goes out
   * at start + N / rate, and chunks a late timer made overdue go out at once (a steady token
   * rate, e.g. 200 tokens/s with one token per chunk, whatever the timer granularity).
   */
  chunksPerSecond?: number;
  /** Non-200: reply with this status and an OpenAI-style error JSON body. */
  status?: number;
  errorMessage?: string;
  /** With `status`: send the status alone, with an empty body (a proxy's bare 429, a bare 500). */
  bareStatus?: true;
  /** With `status`: these response headers too (e.g. `retry-after`). HTTP server only. */
  headers?: Record<string, string>;
  /**
   * End the stream cleanly after N chunks (counted like `hangAfterChunks`) with neither a finish
   * reason nor `data: [DONE]`: an answer cut off by a proxy or a crashed server. HTTP server
   * only (the in-memory client has no wire to cut).
   */
  closeAfterChunks?: number;
  /**
   * After N chunks (counted like `hangAfterChunks`), send one `data:` line that is not JSON, then
   * the rest as scripted: a server or proxy that mangled one event. HTTP server only.
   */
  malformedAfterChunks?: number;
  /**
   * Stop sending after N chunks and keep the stream open until the caller goes away (for
   * cancel/timeout tests). The count includes the first chunk, which carries only
   * `role: assistant` (no text). A non-streaming HTTP request with this set gets no response.
   */
  hangAfterChunks?: number;
  /**
   * Send the first `count` chunks (counted like `hangAfterChunks`), then wait until `until`
   * settles before sending the rest: a turn kept streaming for exactly as long as a test needs.
   */
  pauseAfterChunks?: { count: number; until: Promise<unknown> };
  /** The usage object to report (when asked for) instead of the rough count. */
  usage?: Record<string, number>;
}

/** A list of responses (one per request, in order) or a function of the request and its index. */
export type LlmScript<Request> =
  ScriptedResponse[] | ((request: Request, index: number) => ScriptedResponse);

export const DEFAULT_CHUNK_SIZE = 7;
export const DEFAULT_ARGUMENT_CHUNKS = 3;

/** Picks the response for request number `index`; undefined when the script is exhausted. */
export function scriptedResponse<Request>(
  script: LlmScript<Request>,
  request: Request,
  index: number,
): ScriptedResponse | undefined {
  return typeof script === 'function' ? script(request, index) : script[index];
}

/** The message a script-exhausted failure carries. */
export function exhaustedMessage<Request>(script: LlmScript<Request>, index: number): string {
  const length = Array.isArray(script) ? script.length : 0;
  return `script exhausted (request #${index + 1}, only ${length} responses scripted)`;
}

/** What one scripted completion says, after stop sequences are applied. */
export interface PlannedCompletion {
  content: string;
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: string; pieces: string[] }[];
  finishReason: string;
  /** `content` and `reasoning` cut into `chunkSize` pieces. */
  contentPieces: string[];
  reasoningPieces: string[];
}

export function planCompletion(
  scripted: ScriptedResponse,
  stop: readonly string[],
  index: number,
): PlannedCompletion {
  const { text, cut } = applyStopSequences(scripted.content ?? '', stop);
  const chunkSize = Math.max(1, scripted.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const toolCalls = (scripted.toolCalls ?? []).map((call, position) => ({
    id: call.id ?? `call_${index}_${position}`,
    name: call.name,
    arguments: call.arguments,
    pieces: splitIntoParts(call.arguments, call.argumentChunks ?? DEFAULT_ARGUMENT_CHUNKS),
  }));
  const defaultFinish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const reasoning = scripted.reasoning ?? '';
  return {
    content: text,
    reasoning,
    toolCalls,
    finishReason: cut ? 'stop' : (scripted.finishReason ?? defaultFinish),
    contentPieces: splitBySize(text, chunkSize),
    reasoningPieces: splitBySize(reasoning, chunkSize),
  };
}

/** Cuts `text` before the earliest occurrence of any stop sequence, as real servers do. */
export function applyStopSequences(
  text: string,
  stops: readonly string[],
): { text: string; cut: boolean } {
  let cutAt = -1;
  for (const stop of stops) {
    if (stop === '') continue;
    const found = text.indexOf(stop);
    if (found >= 0 && (cutAt < 0 || found < cutAt)) cutAt = found;
  }
  return cutAt < 0 ? { text, cut: false } : { text: text.slice(0, cutAt), cut: true };
}

export function splitBySize(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(text.slice(start, start + size));
  return pieces;
}

/** Splits `text` into `count` nearly equal non-empty parts (fewer when the text is shorter). */
export function splitIntoParts(text: string, count: number): string[] {
  if (text === '') return [];
  const size = Math.ceil(text.length / Math.max(1, count));
  return splitBySize(text, size);
}

/**
 * How long to wait before chunk `position` (0 is the role-only first chunk): `delayMs` between
 * chunks, or the `chunksPerSecond` schedule measured from `startedAt`.
 */
export function chunkWait(
  scripted: ScriptedResponse,
  position: number,
  startedAt: number,
  now: number,
): number {
  if (scripted.chunksPerSecond) {
    return Math.max(0, startedAt + (position * 1000) / scripted.chunksPerSecond - now);
  }
  return position > 0 && scripted.delayMs ? scripted.delayMs : 0;
}
