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
import { TITLE_INSTRUCTION } from '../../src/main/services/conversation-titles';
import type { LlmScript, PlannedCompletion, ScriptedResponse } from './llm-script';
import { chunkWait, exhaustedMessage, planCompletion, scriptedResponse } from './llm-script';

export type { ScriptedResponse, ScriptedToolCall } from './llm-script';

export interface RecordedRequest {
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  path: string;
}

export interface ScriptedLlmServer {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /**
   * Every request received, in order (chat completions, model listings, rejected ones), except
   * the app's conversation-title requests, which go to `titleRequests`.
   */
  requests: RecordedRequest[];
  /** The conversation-title requests (`conversation-titles.ts`), in order. */
  titleRequests: RecordedRequest[];
  /** Stops listening and destroys open sockets, so hung responses cannot keep the process alive. */
  close(): Promise<void>;
  /** number of requests whose client disconnected before the response ended */
  abortedRequests(): number;
  /** Resolves once at least `count` requests were abandoned by their client (see above). */
  whenAborted(count?: number): Promise<void>;
}

export interface ScriptedLlmServerOptions {
  /** If set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /**
   * What `GET /v1/models` lists; default `['scripted-model']`. An object entry is sent as given
   * (with `id`), e.g. OpenRouter's `architecture` / `supported_parameters` fields.
   */
  models?: (string | ({ id: unknown } & Record<string, unknown>))[];
  /**
   * How the app's conversation-title requests (recognised by their instruction) are answered,
   * apart from the main script so a test's turns keep their responses. Absent: an HTTP 400 (not
   * retried), so conversations keep their first-message titles.
   */
  titles?: Script;
}

export type Script = LlmScript<RecordedRequest>;

const DEFAULT_MODEL = 'scripted-model';

/** Starts a scripted server on a random loopback port. */
export async function startScriptedLlmServer(
  script: Script,
  options: ScriptedLlmServerOptions = {},
): Promise<ScriptedLlmServer> {
  const requests: RecordedRequest[] = [];
  const titleRequests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let completionCount = 0;
  let abortedCount = 0;
  const abortWaiters: { count: number; resolve: () => void }[] = [];
  let closing = false;

  const server = createServer((request, response) => {
    response.on('close', () => {
      if (response.writableEnded || closing) return;
      abortedCount += 1;
      for (const waiter of abortWaiters.filter((entry) => entry.count <= abortedCount)) {
        abortWaiters.splice(abortWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
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
    if (isTitleRequest(body)) {
      titleRequests.push(recorded);
      const scripted = options.titles
        ? scriptedResponse(options.titles, recorded, titleRequests.length - 1)
        : undefined;
      if (scripted === undefined) {
        // A 400, which the adapter does not retry: a run does not wait for a second refusal.
        sendError(
          response,
          400,
          'Scripted LLM server: no title scripted',
          'invalid_request_error',
          null,
        );
        return;
      }
      await streamCompletion(
        response,
        planWireCompletion(scripted, body ?? {}, titleRequests.length - 1),
        scripted,
        body ?? {},
      );
      return;
    }
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
        data: (options.models ?? [DEFAULT_MODEL]).map((entry) =>
          typeof entry === 'string'
            ? { id: entry, object: 'model', created: 0, owned_by: 'scripted' }
            : { object: 'model', created: 0, owned_by: 'scripted', ...entry },
        ),
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
      scripted = scriptedResponse(script, recorded, index);
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
      sendError(
        response,
        500,
        `Scripted LLM server: ${exhaustedMessage(script, index)}`,
        'server_error',
        'script_exhausted',
      );
      return;
    }
    if (scripted.status !== undefined && scripted.status !== 200 && scripted.bareStatus) {
      response.writeHead(scripted.status, scripted.headers);
      response.end();
      return;
    }
    if (scripted.status !== undefined && scripted.status !== 200) {
      for (const [name, value] of Object.entries(scripted.headers ?? {})) {
        response.setHeader(name, value);
      }
      sendError(
        response,
        scripted.status,
        scripted.errorMessage ?? `Scripted error (HTTP ${scripted.status})`,
        scripted.status >= 500 ? 'server_error' : 'invalid_request_error',
        null,
      );
      return;
    }

    const completion = planWireCompletion(scripted, body, index);
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
    titleRequests,
    abortedRequests: () => abortedCount,
    whenAborted: (count = 1) =>
      count <= abortedCount
        ? Promise.resolve()
        : new Promise<void>((resolve) => abortWaiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** A planned completion plus what only the wire format needs. */
interface WireCompletion extends PlannedCompletion {
  id: string;
  model: string;
  reasoningField: 'reasoning_content' | 'reasoning';
  promptCharacters: number;
  usage?: Record<string, number>;
}

function planWireCompletion(
  scripted: ScriptedResponse,
  body: Record<string, unknown>,
  index: number,
): WireCompletion {
  return {
    ...planCompletion(scripted, readStopSequences(body.stop), index),
    id: `chatcmpl-scripted-${index}`,
    model: typeof body.model === 'string' ? body.model : DEFAULT_MODEL,
    reasoningField: scripted.reasoningField ?? 'reasoning_content',
    promptCharacters: JSON.stringify(body.messages ?? []).length,
    ...(scripted.usage ? { usage: scripted.usage } : {}),
  };
}

async function streamCompletion(
  response: ServerResponse,
  completion: WireCompletion,
  scripted: ScriptedResponse,
  body: Record<string, unknown>,
): Promise<void> {
  const deltas: Record<string, unknown>[] = [{ role: 'assistant', content: '' }];
  for (const piece of completion.reasoningPieces) {
    deltas.push({ [completion.reasoningField]: piece });
  }
  for (const piece of completion.contentPieces) {
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
    for (const piece of call.pieces) {
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
    if (scripted.closeAfterChunks !== undefined && position >= scripted.closeAfterChunks) {
      response.end();
      return;
    }
    if (scripted.malformedAfterChunks === position) {
      response.write('data: {"id": "chatcmpl-1", "choices": [{"delta": {"content": "oops\n\n');
    }
    if (scripted.pauseAfterChunks?.count === position) await settled(scripted.pauseAfterChunks);
    const wait = chunkWait(scripted, position, startedAt, Date.now());
    if (wait > 0) await sleep(wait);
    if (response.destroyed) return;
    response.write(event);
  }
  if (scripted.hangAfterChunks !== undefined) return;
  response.end('data: [DONE]\n\n');
}

function wholeCompletion(completion: WireCompletion): Record<string, unknown> {
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
function usageOf(completion: WireCompletion): Record<string, number> {
  if (completion.usage) return completion.usage;
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

/** A conversation-title request: its system message is the app's title instruction. */
function isTitleRequest(body: Record<string, unknown> | null): boolean {
  const messages = body?.messages;
  if (!Array.isArray(messages)) return false;
  const first: unknown = messages[0];
  return isRecord(first) && first.role === 'system' && first.content === TITLE_INSTRUCTION;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Waits for a pause's `until` to settle (either way). */
async function settled(pause: { until: Promise<unknown> }): Promise<void> {
  await pause.until.then(
    () => undefined,
    () => undefined,
  );
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
