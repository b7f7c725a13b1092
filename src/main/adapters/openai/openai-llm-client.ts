/**
 * The LLM port over the `openai` SDK, for any OpenAI-compatible chat-completions endpoint:
 * OpenAI, DeepSeek, OpenRouter, Ollama (/v1), LM Studio, llama.cpp's server, vLLM.
 *
 * It always streams, maps provider-neutral messages and tools to the wire format
 * (`openai-messages.ts`), turns stream deltas into `LlmChunk`s (`openai-stream.ts`: reasoning
 * never mixed into text, whichever way the server reports it), and turns every failure into an
 * `AivoryError` whose one-line message is safe to show (`openai-errors.ts`: it names the server
 * and never contains the API key). This file holds the SDK client, the request lifecycle (cancel,
 * idle timeout) and `listModels`.
 */
import OpenAI from 'openai';
import type { ClientOptions } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { AivoryError } from '../../../shared/errors';
import { ThinkTagSplitter } from '../../core/orchestrator/think-tag-splitter';
import type { LlmChunk, LlmClient, LlmRequest, Logger } from '../../core/ports';
import type { ProviderErrorContext } from './openai-errors';
import {
  assertHttpUrl,
  canceledError,
  cutOffError,
  displayUrl,
  idleTimeoutError,
  toProviderError,
} from './openai-errors';
import { toStreamParams } from './openai-messages';
import type { RetryWait } from './request-retry';
import { nextWait, pause, retrying } from './request-retry';
import type { ModelListing } from './model-listing';
import {
  boundedFetch,
  MAX_LISTED_MODELS,
  MAX_LISTING_BYTES,
  parseModelListing,
} from './model-listing';
import { modelFetch } from './model-fetch';
import { chunksOfChoice, flushSplitter } from './openai-stream';
import type { StreamEndWatch } from './stream-end-watch';
import { streamEndWatchingFetch } from './stream-end-watch';

/**
 * Longest wait for a response to start, and then for each next chunk. Generous on purpose: a
 * local model on a CPU can spend minutes reading a long prompt before its first token.
 */
export const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/**
 * One retry covers a dropped connection or a 5xx blip without making a dead server slow to
 * report. The adapter retries itself (`request-retry.ts`): the SDK's own retry cannot be stopped.
 */
export const DEFAULT_MAX_RETRIES = 1;

/** Sent when no key is configured: local servers ignore it, and the SDK requires some value. */
const PLACEHOLDER_API_KEY = 'not-needed';

export interface OpenAiLlmClientOptions {
  /** The endpoint root, usually ending in `/v1` (e.g. `http://127.0.0.1:11434/v1`). */
  baseUrl: string;
  /** Null for local servers that need no key. */
  apiKey: string | null;
  /** See `DEFAULT_TIMEOUT_MS`. */
  timeoutMs?: number;
  /**
   * Retries of a failed connection or a retryable status (408, 409, 429, 5xx) before the
   * response starts; default 1. A server asking to wait more than a minute is not retried.
   */
  maxRetries?: number;
  fetch?: typeof fetch;
  /** Receives the SDK's warnings and errors; without it the SDK stays silent. */
  logger?: Logger;
}

export class OpenAiLlmClient implements LlmClient {
  private readonly options: OpenAiLlmClientOptions;
  private readonly errorContext: ProviderErrorContext;
  private readonly timeoutMs: number;

  /** @throws AivoryError `config` when `baseUrl` is not an http(s) URL. */
  constructor(options: OpenAiLlmClientOptions) {
    assertHttpUrl(options.baseUrl);
    this.options = options;
    this.errorContext = { baseUrl: displayUrl(options.baseUrl), apiKey: options.apiKey };
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * Streams one completion. Every successful stream ends with exactly one `finish` chunk (its
   * reason is null if the server sent `data: [DONE]` but no finish reason), after the `usage`
   * chunk when the server reports token counts (`stream_options.include_usage` is asked for). A
   * stream that closes with neither a finish reason nor `[DONE]` was cut off: what came is
   * yielded, then a `connection` error says so (`cutOffError`). Aborting `signal` ends the HTTP
   * request and makes the iteration throw an error for which `isAbortError()` is true; a stream
   * that sends nothing for `timeoutMs` is ended with a `connection` error.
   */
  async *stream(request: LlmRequest, signal: AbortSignal): AsyncGenerator<LlmChunk> {
    if (signal.aborted) throw canceledError(signal.reason);
    const context: ProviderErrorContext = { ...this.errorContext, model: request.model };
    // One SDK client per request (cheap: no connection of its own), so its fetch can watch
    // this response for `[DONE]`.
    const end: StreamEndWatch = { sawDone: false };
    const client = createSdkClient({
      ...this.options,
      fetch: streamEndWatchingFetch(this.options.fetch ?? modelFetch, end),
    });
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
      let stream: AsyncIterable<ChatCompletionChunk> | null = null;
      // Until the response starts, the SDK's own timeout (the same length) applies to each
      // attempt; between attempts the wait is said (a `retry-wait` chunk) and ends with the signal.
      const retry = { maxRetries: this.options.maxRetries ?? DEFAULT_MAX_RETRIES, signal, context };
      const waitAfter = (error: unknown, retriesDone: number): RetryWait => {
        try {
          return nextWait(error, retriesDone, retry);
        } catch (final) {
          throw failure(final);
        }
      };
      for (let retriesDone = 0; stream === null; retriesDone += 1) {
        try {
          stream = await client.chat.completions.create(toStreamParams(request), {
            signal: controller.signal,
          });
        } catch (error) {
          const wait = waitAfter(error, retriesDone);
          yield { type: 'retry-wait', waitMs: Math.round(wait.waitMs), status: wait.status };
          await pause(wait, signal);
        }
      }
      idleTimer = setTimeout(() => {
        idleTimedOut = true;
        controller.abort();
      }, this.timeoutMs);
      const splitter = new ThinkTagSplitter();
      // Held back until the stream ends: the usage chunk comes after the finish reason.
      let finish: LlmChunk | null = null;
      try {
        for await (const chunk of stream) {
          idleTimer.refresh();
          const usage = usageOf(chunk.usage);
          if (usage !== null) yield usage;
          if (finish !== null) continue;
          // A usage-only chunk has no choices (some servers leave the field out entirely).
          const choice = chunk.choices?.[0];
          if (choice === undefined) continue;
          for (const output of chunksOfChoice(choice, splitter)) {
            if (output.type === 'finish') finish = output;
            else yield output;
          }
        }
      } catch (error) {
        throw failure(error);
      }
      // The SDK ends the iteration quietly when its request is aborted; report why it stopped.
      if (signal.aborted || idleTimedOut) throw failure(null);
      if (finish !== null) {
        yield finish;
      } else {
        yield* flushSplitter(splitter);
        if (!end.sawDone) throw cutOffError(context);
        yield { type: 'finish', reason: null };
      }
    } finally {
      clearTimeout(idleTimer);
      signal.removeEventListener('abort', forwardAbort);
    }
  }
}

/**
 * Lists the models an endpoint serves (`GET /models`), bounded and cleaned (`model-listing.ts`:
 * it is the server's word), with the capabilities its provider states; for setup screens, the
 * model editor and `aivory doctor`. Fails with the same `AivoryError`s as `stream`.
 */
export async function listModelDetails(
  options: OpenAiLlmClientOptions & { signal?: AbortSignal },
): Promise<ModelListing> {
  const client = createSdkClient({
    ...options,
    fetch: boundedFetch(MAX_LISTING_BYTES, options.fetch ?? fetch),
  });
  const context: ProviderErrorContext = {
    baseUrl: displayUrl(options.baseUrl),
    apiKey: options.apiKey,
  };
  const requestOptions = options.signal ? { signal: options.signal } : {};
  const list = async (): Promise<unknown[]> => {
    const entries: unknown[] = [];
    for await (const model of client.models.list(requestOptions)) {
      entries.push(model);
      if (entries.length > MAX_LISTED_MODELS * 4) break;
    }
    return entries;
  };
  try {
    return parseModelListing(
      await retrying(list, {
        maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
        signal: options.signal ?? new AbortController().signal,
        context,
      }),
    );
  } catch (error) {
    if (options.signal?.aborted) throw canceledError(options.signal.reason);
    if (error instanceof AivoryError) throw error;
    // The SDK wraps what its fetch threw (a list larger than the cap) as a connection error.
    if (error instanceof Error && error.cause instanceof AivoryError) throw error.cause;
    throw toProviderError(error, context);
  }
}

/** The ids of `listModelDetails`. */
export async function listModels(
  options: OpenAiLlmClientOptions & { signal?: AbortSignal },
): Promise<string[]> {
  return (await listModelDetails(options)).models.map((model) => model.id);
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
    // The adapter retries itself (`retrying`): the SDK's wait is as long as the server asks and
    // cannot be stopped.
    maxRetries: 0,
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

/** The usage a chunk reports, when its counts are sane (the server's word: bounded numbers). */
function usageOf(usage: unknown): Extract<LlmChunk, { type: 'usage' }> | null {
  if (typeof usage !== 'object' || usage === null) return null;
  const record = usage as Record<string, unknown>;
  const count = (value: unknown): number | null =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
  const inputTokens = count(record.prompt_tokens);
  const outputTokens = count(record.completion_tokens);
  if (inputTokens === null || outputTokens === null) return null;
  return { type: 'usage', inputTokens, outputTokens };
}
