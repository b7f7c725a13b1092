/**
 * The LLM port over the `openai` SDK, for any OpenAI-compatible chat-completions endpoint:
 * OpenAI, DeepSeek, OpenRouter, Ollama (/v1), LM Studio, llama.cpp's server, vLLM.
 *
 * It always streams, maps provider-neutral messages and tools to the wire format, turns stream
 * deltas into `LlmChunk`s (reasoning never mixed into text, whichever way the server reports it),
 * and turns every failure into an `AivoryError` whose one-line message is safe to show: it names
 * the server and never contains the API key.
 */
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from 'openai';
import type { ClientOptions } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { AivoryError, isAbortError } from '../../../shared/errors';
import { ThinkTagSplitter } from '../../core/orchestrator/think-tag-splitter';
import type {
  ChatMessage,
  LlmChunk,
  LlmClient,
  LlmRequest,
  Logger,
  ToolSpec,
} from '../../core/ports';

/**
 * Longest wait for a response to start, and then for each next chunk. Generous on purpose: a
 * local model on a CPU can spend minutes reading a long prompt before its first token.
 */
export const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** One retry covers a dropped connection or a 5xx blip without making a dead server slow to report. */
export const DEFAULT_MAX_RETRIES = 1;

/** Server error texts are cut to this length so a stack trace or HTML page cannot flood the UI. */
const SERVER_MESSAGE_LIMIT = 300;

/** Sent when no key is configured: local servers ignore it, and the SDK requires some value. */
const PLACEHOLDER_API_KEY = 'not-needed';

export interface OpenAiLlmClientOptions {
  /** The endpoint root, usually ending in `/v1` (e.g. `http://127.0.0.1:11434/v1`). */
  baseUrl: string;
  /** Null for local servers that need no key. */
  apiKey: string | null;
  /** See `DEFAULT_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** Retries of a failed connection or a retryable status (408, 409, 429, 5xx); default 1. */
  maxRetries?: number;
  fetch?: typeof fetch;
  /** Receives the SDK's warnings and errors; without it the SDK stays silent. */
  logger?: Logger;
}

export class OpenAiLlmClient implements LlmClient {
  private readonly client: OpenAI;
  private readonly errorContext: ProviderErrorContext;
  private readonly timeoutMs: number;

  /** @throws AivoryError `config` when `baseUrl` is not an http(s) URL. */
  constructor(options: OpenAiLlmClientOptions) {
    this.client = createSdkClient(options);
    this.errorContext = { baseUrl: displayUrl(options.baseUrl), apiKey: options.apiKey };
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * Streams one completion. Every successful stream ends with exactly one `finish` chunk (its
   * reason is null if the server never sent one). Aborting `signal` ends the HTTP request and
   * makes the iteration throw an error for which `isAbortError()` is true; a stream that sends
   * nothing for `timeoutMs` is ended with a `connection` error.
   */
  async *stream(request: LlmRequest, signal: AbortSignal): AsyncGenerator<LlmChunk> {
    if (signal.aborted) throw canceledError(signal.reason);
    const context: ProviderErrorContext = { ...this.errorContext, model: request.model };
    // One controller for both reasons to end the request: the caller's cancel and the idle timer.
    const controller = new AbortController();
    const forwardAbort = (): void => controller.abort(signal.reason);
    signal.addEventListener('abort', forwardAbort, { once: true });
    let idleTimedOut = false;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const failure = (error: unknown): Error => {
      if (signal.aborted) return canceledError(signal.reason);
      if (idleTimedOut) return idleTimeoutError(context, this.timeoutMs);
      return toProviderError(error, context);
    };
    try {
      let stream: AsyncIterable<ChatCompletionChunk>;
      try {
        // Until the response starts, the SDK's own timeout (the same length) applies.
        stream = await this.client.chat.completions.create(toStreamParams(request), {
          signal: controller.signal,
        });
      } catch (error) {
        throw failure(error);
      }
      idleTimer = setTimeout(() => {
        idleTimedOut = true;
        controller.abort();
      }, this.timeoutMs);
      const splitter = new ThinkTagSplitter();
      let finished = false;
      try {
        for await (const chunk of stream) {
          idleTimer.refresh();
          if (finished) continue;
          // A usage-only chunk has no choices (some servers leave the field out entirely).
          const choice = chunk.choices?.[0];
          if (choice === undefined) continue;
          for (const output of chunksOfChoice(choice, splitter)) {
            if (output.type === 'finish') finished = true;
            yield output;
          }
        }
      } catch (error) {
        throw failure(error);
      }
      // The SDK ends the iteration quietly when its request is aborted; report why it stopped.
      if (signal.aborted || idleTimedOut) throw failure(null);
      if (!finished) {
        yield* flushSplitter(splitter);
        yield { type: 'finish', reason: null };
      }
    } finally {
      clearTimeout(idleTimer);
      signal.removeEventListener('abort', forwardAbort);
    }
  }
}

/**
 * Lists the model ids an endpoint serves (`GET /models`), for setup screens and `aivory doctor`.
 * Fails with the same `AivoryError`s as `stream`.
 */
export async function listModels(
  options: OpenAiLlmClientOptions & { signal?: AbortSignal },
): Promise<string[]> {
  const client = createSdkClient(options);
  const context: ProviderErrorContext = {
    baseUrl: displayUrl(options.baseUrl),
    apiKey: options.apiKey,
  };
  try {
    const ids: string[] = [];
    const requestOptions = options.signal ? { signal: options.signal } : {};
    for await (const model of client.models.list(requestOptions)) ids.push(model.id);
    return ids;
  } catch (error) {
    if (options.signal?.aborted) throw canceledError(options.signal.reason);
    throw toProviderError(error, context);
  }
}

/** Maps provider-neutral messages to the chat-completions wire format. */
export function toOpenAiMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
      case 'assistant': {
        const toolCalls = message.toolCalls ?? [];
        if (toolCalls.length === 0) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          // A call without text is sent as null content, the shape servers themselves produce.
          content: message.content === '' ? null : message.content,
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.argumentsJson },
          })),
        };
      }
    }
  });
}

/** Maps tool definitions to `tools` entries; their description and schema pass through verbatim. */
export function toOpenAiTools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

/** The request body. `tools` and `stop` are omitted when empty: some servers reject `[]`. */
export function toStreamParams(request: LlmRequest): ChatCompletionCreateParamsStreaming {
  const tools = toOpenAiTools(request.tools ?? []);
  const stop = request.stop ?? [];
  return {
    model: request.model,
    messages: toOpenAiMessages(request.messages),
    stream: true,
    ...(tools.length > 0 ? { tools } : {}),
    ...(stop.length > 0 ? { stop } : {}),
  };
}

/** What error messages may say about the request: never the key, which is only for redaction. */
export interface ProviderErrorContext {
  baseUrl: string;
  apiKey: string | null;
  model?: string;
}

/**
 * Turns an SDK or network failure into an `AivoryError` with a one-line message fit for the UI.
 * Abort errors are returned unchanged so callers can still recognise a cancel.
 */
export function toProviderError(error: unknown, context: ProviderErrorContext): Error {
  if (error instanceof AivoryError) return error;
  // The SDK's abort error has the plain name "Error", so `isAbortError()` needs it rewrapped.
  if (error instanceof APIUserAbortError) return canceledError(error);
  if (isAbortError(error) && error instanceof Error) return error;
  const where = `the model server at ${context.baseUrl}`;
  const build = (code: 'connection' | 'auth' | 'provider', message: string): AivoryError =>
    new AivoryError(code, redact(message, context.apiKey), { cause: error });

  if (error instanceof APIConnectionTimeoutError) {
    return build('connection', `Timed out waiting for ${where} to respond.`);
  }
  if (error instanceof APIConnectionError) {
    return build('connection', `Cannot reach ${where}: ${describeNetworkFailure(error)}`);
  }
  if (error instanceof APIError) {
    const status = error.status;
    const detail = serverMessage(error);
    if (status === 401 || status === 403) {
      return build('auth', `The model server rejected the API key (HTTP ${status})`);
    }
    if (status === 404) {
      const subject = context.model === undefined ? 'the request' : `model "${context.model}"`;
      return build(
        'provider',
        `${capitalize(where)} returned HTTP 404 for ${subject} (${detail}); check the model name, ` +
          `and that the base URL is right (it usually ends in /v1).`,
      );
    }
    if (status === 429) {
      return build(
        'provider',
        `${capitalize(where)} is rate limiting requests (HTTP 429): ${detail}`,
      );
    }
    if (status === undefined) {
      return build('provider', `${capitalize(where)} reported an error mid-answer: ${detail}`);
    }
    return build('provider', `${capitalize(where)} returned HTTP ${status}: ${detail}`);
  }
  // Plain network errors while reading the body (undici's "terminated") or malformed chunks.
  if (error instanceof TypeError) {
    return build('connection', `Lost the connection to ${where}: ${describeNetworkFailure(error)}`);
  }
  const text = error instanceof Error ? error.message : String(error);
  return build('provider', `Unexpected failure talking to ${where}: ${oneLine(text)}`);
}

function createSdkClient(options: OpenAiLlmClientOptions): OpenAI {
  assertHttpUrl(options.baseUrl);
  const logger = options.logger;
  return new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey === null || options.apiKey === '' ? PLACEHOLDER_API_KEY : options.apiKey,
    // Explicit nulls: otherwise the SDK reads OPENAI_ORG_ID / OPENAI_PROJECT_ID from the
    // environment and sends them to whichever server this is.
    organization: null,
    project: null,
    webhookSecret: null,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    logLevel: logger ? 'warn' : 'off',
    ...(logger ? { logger: sdkLoggerFor(logger) } : {}),
  });
}

function sdkLoggerFor(logger: Logger): ClientOptions['logger'] {
  const fieldsOf = (rest: unknown[]): Record<string, unknown> | undefined =>
    rest.length > 0 ? { details: rest } : undefined;
  return {
    error: (message: string, ...rest: unknown[]) => logger.error(message, fieldsOf(rest)),
    warn: (message: string, ...rest: unknown[]) => logger.warn(message, fieldsOf(rest)),
    info: (message: string, ...rest: unknown[]) => logger.info(message, fieldsOf(rest)),
    debug: (message: string, ...rest: unknown[]) => logger.debug(message, fieldsOf(rest)),
  };
}

/** The `LlmChunk`s one streamed choice carries, in order: reasoning, text, tool calls, finish. */
function* chunksOfChoice(
  choice: ChatCompletionChunk.Choice,
  splitter: ThinkTagSplitter,
): Generator<LlmChunk> {
  // Typed as always present, but a few servers leave it out of the final chunk.
  const delta: ChatCompletionChunk.Choice.Delta | undefined = choice.delta;
  if (delta) {
    const reasoning = readReasoning(delta);
    if (reasoning !== '') yield { type: 'reasoning', text: reasoning };
    if (typeof delta.content === 'string' && delta.content !== '') {
      const split = splitter.push(delta.content);
      if (split.reasoning !== '') yield { type: 'reasoning', text: split.reasoning };
      if (split.text !== '') yield { type: 'text', text: split.text };
    }
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      yield { type: 'text', text: delta.refusal };
    }
    for (const [position, call] of (delta.tool_calls ?? []).entries()) {
      const output: LlmChunk = {
        type: 'tool-call-delta',
        // Some servers omit the index when they send one call per delta.
        index: typeof call.index === 'number' ? call.index : position,
      };
      if (typeof call.id === 'string' && call.id !== '') output.id = call.id;
      const name = call.function?.name;
      if (typeof name === 'string' && name !== '') output.name = name;
      const argumentsDelta = call.function?.arguments;
      if (typeof argumentsDelta === 'string' && argumentsDelta !== '') {
        output.argumentsDelta = argumentsDelta;
      }
      yield output;
    }
  }
  if (choice.finish_reason) {
    yield* flushSplitter(splitter);
    yield { type: 'finish', reason: choice.finish_reason };
  }
}

function* flushSplitter(splitter: ThinkTagSplitter): Generator<LlmChunk> {
  const rest = splitter.finish();
  if (rest.reasoning !== '') yield { type: 'reasoning', text: rest.reasoning };
  if (rest.text !== '') yield { type: 'text', text: rest.text };
}

/**
 * Reasoning deltas are not in the SDK's types: DeepSeek and llama.cpp send `reasoning_content`,
 * OpenRouter and newer vLLM/Ollama `reasoning`. Some send both with the same text, so the first
 * one present wins.
 */
function readReasoning(delta: object): string {
  if ('reasoning_content' in delta && typeof delta.reasoning_content === 'string') {
    if (delta.reasoning_content !== '') return delta.reasoning_content;
  }
  if ('reasoning' in delta && typeof delta.reasoning === 'string') return delta.reasoning;
  return '';
}

/** The server's own error text, on one line and bounded. */
function serverMessage(error: APIError): string {
  const text = oneLine(rawServerMessage(error));
  return text === '' ? 'no details' : text;
}

function rawServerMessage(error: APIError): string {
  const body: unknown = error.error;
  if (typeof body === 'string') return body;
  if (typeof body === 'object' && body !== null && 'message' in body) {
    return typeof body.message === 'string' ? body.message : JSON.stringify(body.message);
  }
  // The SDK prefixes the status ("500 status code (no body)"); keep only the server's part.
  return error.message.replace(/^\d{3}\s+/, '');
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server uses a self-signed TLS certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'the server uses a self-signed TLS certificate',
  CERT_HAS_EXPIRED: 'the server TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server TLS certificate does not match the host name',
};

/** Finds the most specific reason in an error's cause chain (undici nests the real one). */
function describeNetworkFailure(error: Error): string {
  let current: unknown = error;
  let deepestMessage = error.message;
  for (let depth = 0; depth < 6 && current instanceof Error; depth += 1) {
    if ('code' in current && typeof current.code === 'string') {
      const known = NETWORK_CODES[current.code];
      return known ? `${known} (${current.code})` : `${oneLine(current.message)} (${current.code})`;
    }
    if (current.message !== '') deepestMessage = current.message;
    current = current.cause;
  }
  return oneLine(deepestMessage);
}

/** Throws a `config` AivoryError unless `baseUrl` is http(s); `what` names the server. */
export function assertHttpUrl(
  baseUrl: string,
  what = 'model server',
  example = ' (for example http://127.0.0.1:11434/v1)',
): void {
  let protocol = '';
  try {
    protocol = new URL(baseUrl).protocol;
  } catch {
    // Reported below.
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new AivoryError(
      'config',
      `The ${what} address "${oneLine(baseUrl)}" is not an http(s) URL${example}.`,
    );
  }
}

/** The base URL as messages show it: without any user:password part. */
function displayUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return baseUrl;
  }
}

function idleTimeoutError(context: ProviderErrorContext, timeoutMs: number): AivoryError {
  return new AivoryError(
    'connection',
    `The model server at ${context.baseUrl} stopped sending data for ${Math.round(timeoutMs / 1000)} s.`,
  );
}

/** An error `isAbortError()` recognises, keeping the abort reason as its cause. */
function canceledError(reason: unknown): Error {
  const error = new Error('The model request was canceled.', { cause: reason });
  error.name = 'AbortError';
  return error;
}

function redact(text: string, apiKey: string | null): string {
  return apiKey ? text.split(apiKey).join('[redacted]') : text;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SERVER_MESSAGE_LIMIT ? `${flat.slice(0, SERVER_MESSAGE_LIMIT)}…` : flat;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
