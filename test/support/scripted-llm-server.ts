/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions API from a script.
 *
 * Tests and benchmarks drive the real provider adapter (and through it the orchestrator) with
 * it, so what they exercise is the same SSE framing, chunking and error bodies a real
 * OpenAI-compatible server produces: text split into small deltas, tool-call arguments split
 * across chunks, stop sequences cutting the text, non-200 replies with OpenAI-style error JSON.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ScriptedToolCall {
  /** Defaults to `call_<request>_<position>`. */
  id?: string;
  name: string;
  arguments: string;
  /** split the arguments JSON into this many SSE chunks (default 3) */
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
  /** Delay between SSE chunks. */
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
  /**
   * Stop sending after N chunks and keep the connection open (for cancel/timeout tests). The
   * count includes the first chunk, which carries only `role: assistant`. A non-streaming
   * request with this set gets no response at all.
   */
  hangAfterChunks?: number;
}

export interface RecordedRequest {
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  path: string;
}

export interface ScriptedLlmServer {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** Every request received, in order (chat completions, model listings, rejected ones). */
  requests: RecordedRequest[];
  /** Stops listening and destroys open sockets, so hung responses cannot keep the process alive. */
  close(): Promise<void>;
  /** number of requests whose client disconnected before the response ended */
  abortedRequests(): number;
}

export interface ScriptedLlmServerOptions {
  /** If set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /** What `GET /v1/models` lists; default `['scripted-model']`. */
  models?: string[];
}

export type Script =
  ScriptedResponse[] | ((request: RecordedRequest, index: number) => ScriptedResponse);

const DEFAULT_CHUNK_SIZE = 7;
const DEFAULT_ARGUMENT_CHUNKS = 3;
const DEFAULT_MODEL = 'scripted-model';

/** Starts a scripted server on a random loopback port. */
export async function startScriptedLlmServer(
  script: Script,
  options: ScriptedLlmServerOptions = {},
): Promise<ScriptedLlmServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let completionCount = 0;
  let abortedCount = 0;
  let closing = false;

  const server = createServer((request, response) => {
    response.on('close', () => {
      if (!response.writableEnded && !closing) abortedCount += 1;
    });
    handle(request, response).catch(() => response.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const body = parseBody(rawBody);
    const recorded: RecordedRequest = { body: body ?? {}, headers: { ...request.headers }, path };
    requests.push(recorded);

    if (
      options.apiKey !== undefined &&
      request.headers.authorization !== `Bearer ${options.apiKey}`
    ) {
      sendError(
        response,
        401,
        'Incorrect API key provided.',
        'invalid_request_error',
        'invalid_api_key',
      );
      return;
    }
    if (request.method === 'GET' && path === '/v1/models') {
      sendJson(response, 200, {
        object: 'list',
        data: (options.models ?? [DEFAULT_MODEL]).map((id) => ({
          id,
          object: 'model',
          created: 0,
          owned_by: 'scripted',
        })),
      });
      return;
    }
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      sendError(
        response,
        404,
        `No route for ${request.method} ${path}`,
        'invalid_request_error',
        'not_found',
      );
      return;
    }
    if (body === null) {
      sendError(
        response,
        400,
        'The request body is not a JSON object.',
        'invalid_request_error',
        null,
      );
      return;
    }

    const index = completionCount;
    completionCount += 1;
    let scripted: ScriptedResponse | undefined;
    try {
      scripted = typeof script === 'function' ? script(recorded, index) : script[index];
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      sendError(
        response,
        500,
        `Scripted LLM server: the script threw: ${message}`,
        'server_error',
        null,
      );
      return;
    }
    if (scripted === undefined) {
      const length = Array.isArray(script) ? script.length : 0;
      sendError(
        response,
        500,
        `Scripted LLM server: script exhausted (request #${index + 1}, only ${length} responses scripted)`,
        'server_error',
        'script_exhausted',
      );
      return;
    }
    if (scripted.status !== undefined && scripted.status !== 200) {
      sendError(
        response,
        scripted.status,
        scripted.errorMessage ?? `Scripted error (HTTP ${scripted.status})`,
        scripted.status >= 500 ? 'server_error' : 'invalid_request_error',
        null,
      );
      return;
    }

    const completion = planCompletion(scripted, body, index);
    if (body.stream === true) {
      await streamCompletion(response, completion, scripted, body);
    } else if (scripted.hangAfterChunks === undefined) {
      sendJson(response, 200, wholeCompletion(completion));
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('The scripted LLM server is not listening on a TCP port.');
  }
  const port = address.port;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    abortedRequests: () => abortedCount,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** What one scripted completion says, after stop sequences are applied. */
interface PlannedCompletion {
  id: string;
  model: string;
  content: string;
  reasoning: string;
  reasoningField: 'reasoning_content' | 'reasoning';
  toolCalls: Required<Omit<ScriptedToolCall, 'argumentChunks'>>[];
  finishReason: string;
  promptCharacters: number;
}

function planCompletion(
  scripted: ScriptedResponse,
  body: Record<string, unknown>,
  index: number,
): PlannedCompletion {
  const { text, cut } = applyStopSequences(scripted.content ?? '', readStopSequences(body.stop));
  const toolCalls = (scripted.toolCalls ?? []).map((call, position) => ({
    id: call.id ?? `call_${index}_${position}`,
    name: call.name,
    arguments: call.arguments,
  }));
  const defaultFinish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  return {
    id: `chatcmpl-scripted-${index}`,
    model: typeof body.model === 'string' ? body.model : DEFAULT_MODEL,
    content: text,
    reasoning: scripted.reasoning ?? '',
    reasoningField: scripted.reasoningField ?? 'reasoning_content',
    toolCalls,
    finishReason: cut ? 'stop' : (scripted.finishReason ?? defaultFinish),
    promptCharacters: JSON.stringify(body.messages ?? []).length,
  };
}

async function streamCompletion(
  response: ServerResponse,
  completion: PlannedCompletion,
  scripted: ScriptedResponse,
  body: Record<string, unknown>,
): Promise<void> {
  const chunkSize = Math.max(1, scripted.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const deltas: Record<string, unknown>[] = [{ role: 'assistant', content: '' }];
  for (const piece of splitBySize(completion.reasoning, chunkSize)) {
    deltas.push({ [completion.reasoningField]: piece });
  }
  for (const piece of splitBySize(completion.content, chunkSize)) {
    deltas.push({ content: piece });
  }
  completion.toolCalls.forEach((call, position) => {
    deltas.push({
      tool_calls: [
        {
          index: position,
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: '' },
        },
      ],
    });
    const pieceCount = scripted.toolCalls?.[position]?.argumentChunks ?? DEFAULT_ARGUMENT_CHUNKS;
    for (const piece of splitIntoParts(call.arguments, pieceCount)) {
      deltas.push({ tool_calls: [{ index: position, function: { arguments: piece } }] });
    }
  });

  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    `data: ${JSON.stringify({
      id: completion.id,
      object: 'chat.completion.chunk',
      created,
      model: completion.model,
      choices,
      ...extra,
    })}\n\n`;
  const events = deltas.map((delta) =>
    chunk([{ index: 0, delta, logprobs: null, finish_reason: null }]),
  );
  events.push(
    chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: completion.finishReason }]),
  );
  if (wantsUsage(body.stream_options)) events.push(chunk([], { usage: usageOf(completion) }));

  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const startedAt = Date.now();
  for (const [position, event] of events.entries()) {
    if (scripted.hangAfterChunks !== undefined && position >= scripted.hangAfterChunks) return;
    if (scripted.chunksPerSecond) {
      const wait = startedAt + (position * 1000) / scripted.chunksPerSecond - Date.now();
      if (wait > 0) await sleep(wait);
    } else if (position > 0 && scripted.delayMs) await sleep(scripted.delayMs);
    if (response.destroyed) return;
    response.write(event);
  }
  if (scripted.hangAfterChunks !== undefined) return;
  response.end('data: [DONE]\n\n');
}

function wholeCompletion(completion: PlannedCompletion): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content:
      completion.content === '' && completion.toolCalls.length > 0 ? null : completion.content,
    refusal: null,
  };
  if (completion.reasoning !== '') message[completion.reasoningField] = completion.reasoning;
  if (completion.toolCalls.length > 0) {
    message.tool_calls = completion.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: completion.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: completion.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: completion.finishReason }],
    usage: usageOf(completion),
  };
}

/** Rough token counts (4 characters a token), enough for budget displays in tests. */
function usageOf(completion: PlannedCompletion): Record<string, number> {
  const generated =
    completion.content.length +
    completion.reasoning.length +
    completion.toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  const promptTokens = Math.ceil(completion.promptCharacters / 4);
  const completionTokens = Math.ceil(generated / 4);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

/** Cuts `text` before the earliest occurrence of any stop sequence, as real servers do. */
function applyStopSequences(text: string, stops: string[]): { text: string; cut: boolean } {
  let cutAt = -1;
  for (const stop of stops) {
    if (stop === '') continue;
    const found = text.indexOf(stop);
    if (found >= 0 && (cutAt < 0 || found < cutAt)) cutAt = found;
  }
  return cutAt < 0 ? { text, cut: false } : { text: text.slice(0, cutAt), cut: true };
}

function readStopSequences(stop: unknown): string[] {
  if (typeof stop === 'string') return [stop];
  if (Array.isArray(stop))
    return stop.filter((entry): entry is string => typeof entry === 'string');
  return [];
}

function wantsUsage(streamOptions: unknown): boolean {
  return (
    typeof streamOptions === 'object' &&
    streamOptions !== null &&
    'include_usage' in streamOptions &&
    streamOptions.include_usage === true
  );
}

function splitBySize(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(text.slice(start, start + size));
  return pieces;
}

/** Splits `text` into `count` nearly equal non-empty parts (fewer when the text is shorter). */
function splitIntoParts(text: string, count: number): string[] {
  if (text === '') return [];
  const size = Math.ceil(text.length / Math.max(1, count));
  return splitBySize(text, size);
}

function sendJson(response: ServerResponse, status: number, payload: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(payload));
}

function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null,
): void {
  sendJson(response, status, { error: { message, type, code, param: null } });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) {
    parts.push(Buffer.isBuffer(part) ? part : Buffer.from(String(part)));
  }
  return Buffer.concat(parts).toString('utf8');
}

function parseBody(rawBody: string): Record<string, unknown> | null {
  if (rawBody === '') return {};
  try {
    const parsed: unknown = JSON.parse(rawBody);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
