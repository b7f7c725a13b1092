import { createServer } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { listModels, OpenAiLlmClient } from '../../src/main/adapters/openai/openai-llm-client';
import { toOpenAiMessages } from '../../src/main/adapters/openai/openai-messages';
import type { OpenAiLlmClientOptions } from '../../src/main/adapters/openai/openai-llm-client';
import type { ChatMessage, LlmChunk, LlmRequest } from '../../src/main/core/ports';
import { AivoryError, isAbortError } from '../../src/shared/errors';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type {
  Script,
  ScriptedLlmServer,
  ScriptedLlmServerOptions,
} from '../support/scripted-llm-server';

const servers: ScriptedLlmServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(
  script: Script,
  options?: ScriptedLlmServerOptions,
): Promise<ScriptedLlmServer> {
  const server = await startScriptedLlmServer(script, options);
  servers.push(server);
  return server;
}

function clientFor(
  server: ScriptedLlmServer,
  options: Partial<OpenAiLlmClientOptions> = {},
): OpenAiLlmClient {
  return new OpenAiLlmClient({ baseUrl: server.baseUrl, apiKey: null, ...options });
}

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return { model: 'scripted-model', messages: [{ role: 'user', content: 'Hi' }], ...overrides };
}

async function collect(
  client: OpenAiLlmClient,
  llmRequest: LlmRequest,
  signal: AbortSignal = new AbortController().signal,
): Promise<LlmChunk[]> {
  const chunks: LlmChunk[] = [];
  for await (const chunk of client.stream(llmRequest, signal)) chunks.push(chunk);
  return chunks;
}

function joined(chunks: LlmChunk[], type: 'text' | 'reasoning'): string {
  return chunks.map((chunk) => (chunk.type === type ? chunk.text : '')).join('');
}

/** Reassembles tool calls from their deltas, as the orchestrator does. */
function reassembleToolCalls(
  chunks: LlmChunk[],
): { id: string; name: string; arguments: string }[] {
  const calls: { id: string; name: string; arguments: string }[] = [];
  for (const chunk of chunks) {
    if (chunk.type !== 'tool-call-delta') continue;
    const call = (calls[chunk.index] ??= { id: '', name: '', arguments: '' });
    if (chunk.id) call.id = chunk.id;
    if (chunk.name) call.name += chunk.name;
    if (chunk.argumentsDelta) call.arguments += chunk.argumentsDelta;
  }
  return calls;
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

describe('OpenAiLlmClient streaming', () => {
  it('streams text in several chunks and ends with one finish chunk', async () => {
    const content = 'Hello, world! This answer arrives in small pieces.';
    const server = await serve([{ content, chunkSize: 5 }]);
    const chunks = await collect(clientFor(server), request());

    expect(joined(chunks, 'text')).toBe(content);
    expect(chunks.filter((chunk) => chunk.type === 'text').length).toBeGreaterThan(5);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(chunks.filter((chunk) => chunk.type === 'finish')).toHaveLength(1);
    const body = server.requests[0]?.body;
    expect(body?.stream).toBe(true);
    expect(body?.model).toBe('scripted-model');
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('stop');
    // Token counts are asked for and reported just before the finish chunk.
    expect(body?.stream_options).toEqual({ include_usage: true });
    expect(chunks.at(-2)).toEqual({
      type: 'usage',
      inputTokens: expect.any(Number),
      outputTokens: Math.ceil(content.length / 4),
    });
  });

  it('ignores usage a server reports with impossible counts', async () => {
    const server = await serve([
      { content: 'Hi', usage: { prompt_tokens: -1, completion_tokens: 2 } },
    ]);
    const chunks = await collect(clientFor(server), request());
    expect(chunks.some((chunk) => chunk.type === 'usage')).toBe(false);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('maps reasoning_content deltas to reasoning chunks before the text', async () => {
    const server = await serve([{ reasoning: 'The user greets me.', content: 'Hello!' }]);
    const chunks = await collect(clientFor(server), request());

    expect(joined(chunks, 'reasoning')).toBe('The user greets me.');
    expect(joined(chunks, 'text')).toBe('Hello!');
    const lastReasoning = chunks.findLastIndex((chunk) => chunk.type === 'reasoning');
    const firstText = chunks.findIndex((chunk) => chunk.type === 'text');
    expect(lastReasoning).toBeLessThan(firstText);
  });

  it('maps the `reasoning` delta field (OpenRouter, vLLM) to reasoning chunks', async () => {
    const server = await serve([
      { reasoning: 'Think about it.', reasoningField: 'reasoning', content: 'Done.' },
    ]);
    const chunks = await collect(clientFor(server), request());
    expect(joined(chunks, 'reasoning')).toBe('Think about it.');
    expect(joined(chunks, 'text')).toBe('Done.');
  });

  it('turns a leading <think> block in the content into reasoning', async () => {
    const server = await serve([
      {
        content: '<think>The user wants a greeting.</think>\n\nHi there <think> stays',
        chunkSize: 3,
      },
    ]);
    const chunks = await collect(clientFor(server), request());
    expect(joined(chunks, 'reasoning')).toBe('The user wants a greeting.');
    expect(joined(chunks, 'text')).toBe('Hi there <think> stays');
  });

  it('emits native tool-call deltas that reassemble into the scripted calls', async () => {
    const pythonArguments = JSON.stringify({ code: 'import math\nprint(math.pi * 2)' });
    const server = await serve([
      {
        content: 'Let me compute that.',
        toolCalls: [
          { id: 'call_py', name: 'python', arguments: pythonArguments, argumentChunks: 5 },
          { name: 'web_search', arguments: '{"query":"pi"}' },
        ],
      },
    ]);
    const chunks = await collect(clientFor(server), request());

    expect(joined(chunks, 'text')).toBe('Let me compute that.');
    expect(reassembleToolCalls(chunks)).toEqual([
      { id: 'call_py', name: 'python', arguments: pythonArguments },
      { id: 'call_0_1', name: 'web_search', arguments: '{"query":"pi"}' },
    ]);
    const pythonArgumentDeltas = chunks.filter(
      (chunk) => chunk.type === 'tool-call-delta' && chunk.index === 0 && chunk.argumentsDelta,
    );
    expect(pythonArgumentDeltas).toHaveLength(5);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('forwards stop sequences, and the server honours them', async () => {
    const server = await serve([
      { content: 'Calling it now <tool_call>{"name":"python"}</tool_call> and more text' },
    ]);
    const chunks = await collect(clientFor(server), request({ stop: ['</tool_call>'] }));

    expect(server.requests[0]?.body.stop).toEqual(['</tool_call>']);
    expect(joined(chunks, 'text')).toBe('Calling it now <tool_call>{"name":"python"}');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('sends tools as function definitions, and omits an empty tool list', async () => {
    const server = await serve([{ content: 'a' }, { content: 'b' }]);
    const client = clientFor(server);
    const schema = { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] };
    await collect(
      client,
      request({ tools: [{ name: 'python', description: 'Runs Python.', inputSchema: schema }] }),
    );
    await collect(client, request({ tools: [], stop: [] }));

    expect(server.requests[0]?.body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'python', description: 'Runs Python.', parameters: schema },
      },
    ]);
    expect(server.requests[1]?.body).not.toHaveProperty('tools');
    expect(server.requests[1]?.body).not.toHaveProperty('stop');
  });

  it('maps every message role onto the wire format', async () => {
    const server = await serve([{ content: 'ok' }]);
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'What is 2+2?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'python', argumentsJson: '{"code":"print(2+2)"}' }],
      },
      { role: 'tool', toolCallId: 'call_1', content: '4' },
      { role: 'assistant', content: 'It is 4.', toolCalls: [] },
      { role: 'user', content: 'Thanks' },
    ];
    await collect(clientFor(server), request({ messages }));

    expect(server.requests[0]?.body.messages).toEqual([
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'What is 2+2?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'python', arguments: '{"code":"print(2+2)"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '4' },
      { role: 'assistant', content: 'It is 4.' },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(
      toOpenAiMessages([
        {
          role: 'assistant',
          content: 'Let me check.',
          toolCalls: [{ id: 'c', name: 'n', argumentsJson: '{}' }],
        },
      ])[0],
    ).toMatchObject({ content: 'Let me check.' });
  });

  it('sends a placeholder key to servers that need none', async () => {
    const server = await serve([{ content: 'ok' }]);
    await collect(clientFor(server, { apiKey: null }), request());
    expect(server.requests[0]?.headers.authorization).toBe('Bearer not-needed');
  });

  it('retries once on a 5xx by default', async () => {
    const server = await serve([{ status: 503, errorMessage: 'warming up' }, { content: 'ready' }]);
    const chunks = await collect(clientFor(server), request());
    expect(joined(chunks, 'text')).toBe('ready');
    expect(server.requests).toHaveLength(2);
  });
});

describe('OpenAiLlmClient errors', () => {
  it('reports a rejected key as an auth error that does not contain the key', async () => {
    const server = await serve([{ content: 'never' }], { apiKey: 'sk-the-right-key' });
    const secret = 'sk-wrong-secret-0123456789';
    const error = await failureOf(collect(clientFor(server, { apiKey: secret }), request()));

    expect(error).toBeInstanceOf(AivoryError);
    expect(error).toMatchObject({ code: 'auth' });
    const message = error instanceof Error ? error.message : '';
    expect(message).toBe('The model server rejected the API key (HTTP 401)');
    expect(message).not.toContain(secret);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${secret}`);
  });

  it('keeps the words around a 1-character key whole (issue 37)', async () => {
    const server = await serve([
      { status: 400, errorMessage: 'the prompt totalling 9 l exceeds the limit' },
    ]);
    const error = await failureOf(collect(clientFor(server, { apiKey: 'l' }), request()));
    expect(error instanceof Error ? error.message : '').toContain(
      'HTTP 400: the prompt totalling 9 [redacted] exceeds the limit',
    );
  });

  it('says in words that one stream event was not JSON; the text before it came (issue 37)', async () => {
    const server = await serve([{ content: 'Hello there, friend.', malformedAfterChunks: 3 }]);
    const chunks: LlmChunk[] = [];
    const error = await failureOf(
      (async () => {
        for await (const chunk of clientFor(server).stream(
          request(),
          new AbortController().signal,
        )) {
          chunks.push(chunk);
        }
      })(),
    );
    expect(joined(chunks, 'text')).toBe('Hello there, f');
    expect(error).toMatchObject({ code: 'provider' });
    expect(error instanceof Error ? error.message : '').toBe(
      `The model server at ${server.baseUrl} sent a part of its answer that is not valid JSON, so the answer stops there; what arrived is kept. Retry, and if it happens again check the server's log.`,
    );
  });

  it('reports a refused connection as a connection error naming the server', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const client = new OpenAiLlmClient({ baseUrl, apiKey: 'sk-secret-key-xyz', maxRetries: 0 });
    const error = await failureOf(collect(client, request()));

    expect(error).toBeInstanceOf(AivoryError);
    expect(error).toMatchObject({ code: 'connection' });
    const message = error instanceof Error ? error.message : '';
    expect(message).toContain(`Cannot reach the model server at ${baseUrl}`);
    expect(message).toContain('ECONNREFUSED');
    expect(message).not.toContain('sk-secret-key-xyz');
  });

  it('maps a 500 to a provider error carrying the server message', async () => {
    const server = await serve([{ status: 500, errorMessage: 'CUDA out of memory' }]);
    const error = await failureOf(collect(clientFor(server, { maxRetries: 0 }), request()));
    expect(error).toBeInstanceOf(AivoryError);
    expect(error).toMatchObject({ code: 'provider' });
    expect(error instanceof Error ? error.message : '').toMatch(/HTTP 500: CUDA out of memory$/);
    expect(server.requests).toHaveLength(1);
  });

  it('truncates a long server error message', async () => {
    const server = await serve([{ status: 400, errorMessage: `bad ${'x'.repeat(5_000)}` }]);
    const error = await failureOf(collect(clientFor(server), request()));
    const message = error instanceof Error ? error.message : '';
    expect(message).toContain('HTTP 400: bad xxx');
    expect(message.length).toBeLessThan(450);
  });

  it('explains a 404 with the model name and the /v1 hint', async () => {
    const server = await serve([{ status: 404, errorMessage: 'model not found' }]);
    const error = await failureOf(collect(clientFor(server), request({ model: 'llama-9000' })));
    expect(error).toMatchObject({ code: 'provider' });
    const message = error instanceof Error ? error.message : '';
    expect(message).toContain('"llama-9000"');
    expect(message).toContain('/v1');
  });

  it('reports rate limiting', async () => {
    const server = await serve([{ status: 429, errorMessage: 'slow down' }]);
    const error = await failureOf(collect(clientFor(server, { maxRetries: 0 }), request()));
    expect(error).toMatchObject({ code: 'provider' });
    expect(error instanceof Error ? error.message : '').toContain(
      'rate limiting requests (HTTP 429)',
    );
  });

  it('gives up at once when the server asks to wait an hour, saying so (issue 37)', async () => {
    const server = await serve([
      { status: 429, errorMessage: 'slow down', headers: { 'retry-after': '3600' } },
      { content: 'never' },
    ]);
    const started = Date.now();
    const error = await failureOf(collect(clientFor(server), request()));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toMatchObject({ code: 'provider' });
    expect(error instanceof Error ? error.message : '').toBe(
      `The model server at ${server.baseUrl} answered HTTP 429 Too Many Requests and asks to ` +
        'wait 60 min before the next request; retry later.',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('reads a Retry-After date and a retry-after-ms value', async () => {
    const inTwoHours = new Date(Date.now() + 2 * 3_600_000 + 30_000).toUTCString();
    const dated = await serve([{ status: 503, headers: { 'retry-after': inTwoHours } }]);
    const error = await failureOf(collect(clientFor(dated), request()));
    expect(error instanceof Error ? error.message : '').toContain(
      'answered HTTP 503 Service Unavailable and asks to wait 3 h before the next request',
    );
    const quick = await serve([
      { status: 429, headers: { 'retry-after-ms': '20', 'retry-after': '3600' } },
      { content: 'ready' },
    ]);
    expect(joined(await collect(clientFor(quick), request()), 'text')).toBe('ready');
    expect(quick.requests).toHaveLength(2);
  });

  it('waits what the server asks within the cap, says so, and stops waiting on abort', async () => {
    const server = await serve([
      { status: 429, errorMessage: 'slow down', headers: { 'retry-after': '45' } },
      { content: 'never' },
    ]);
    const controller = new AbortController();
    const chunks: LlmChunk[] = [];
    const started = Date.now();
    const error = await failureOf(
      (async () => {
        for await (const chunk of clientFor(server).stream(request(), controller.signal)) {
          chunks.push(chunk);
          if (chunk.type === 'retry-wait') controller.abort();
        }
      })(),
    );
    expect(isAbortError(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(chunks).toEqual([{ type: 'retry-wait', waitMs: 45_000, status: 429 }]);
    expect(server.requests).toHaveLength(1);
  });

  it('ends a stream that stops sending data after timeoutMs', async () => {
    // The server hangs for good: only the idle timer can end this stream, and the message says so.
    const server = await serve([{ content: 'partial answer here', hangAfterChunks: 2 }]);
    const error = await failureOf(collect(clientFor(server, { timeoutMs: 300 }), request()));
    expect(error).toMatchObject({ code: 'connection' });
    expect(error instanceof Error ? error.message : '').toContain('stopped sending data');
    await server.whenAborted(1);
    expect(server.abortedRequests()).toBe(1);
  });

  it("the app's idle timer ends a silent answer, not the HTTP library's shorter one (issue 37)", async () => {
    // Node's fetch stops reading a body that is silent for 300 s (its global dispatcher), before
    // the app's 10 min; here the same with 200 ms against the app's 1.5 s.
    const globalDispatcher = Symbol.for('undici.globalDispatcher.1');
    const holder = globalThis as unknown as Record<symbol, unknown>;
    const previous = holder[globalDispatcher];
    holder[globalDispatcher] = new Agent({ bodyTimeout: 200, headersTimeout: 200 });
    try {
      const server = await serve([{ content: 'partial answer here', hangAfterChunks: 2 }]);
      const error = await failureOf(collect(clientFor(server, { timeoutMs: 1_500 }), request()));
      expect(error).toMatchObject({ code: 'connection' });
      expect(error instanceof Error ? error.message : '').toBe(
        `The model server at ${server.baseUrl} stopped sending data for 2 s.`,
      );
    } finally {
      holder[globalDispatcher] = previous;
    }
  });

  it('a stream that closes with no finish reason and no [DONE] fails as cut off, after what came', async () => {
    // The first chunk carries only the role; three more carry "The answer is forty-t" (chunks of 7).
    const server = await serve([
      { content: 'The answer is forty-two, and here is why.', closeAfterChunks: 4 },
    ]);
    const chunks: LlmChunk[] = [];
    const error = await failureOf(
      (async () => {
        for await (const chunk of clientFor(server).stream(request(), new AbortController().signal))
          chunks.push(chunk);
      })(),
    );
    expect(joined(chunks, 'text')).toBe('The answer is forty-t');
    expect(chunks.some((chunk) => chunk.type === 'finish')).toBe(false);
    expect(error).toBeInstanceOf(AivoryError);
    expect(error).toMatchObject({ code: 'connection' });
    expect(error instanceof Error ? error.message : '').toBe(
      `The model's answer was cut off: the model server at ${server.baseUrl} closed the connection before it finished. What arrived is kept; retry for the whole answer.`,
    );
  });

  it('a stream that ends with [DONE] but no finish reason is complete', async () => {
    const server = await serve([{ content: 'All of it.', finishReason: '' }]);
    const chunks = await collect(clientFor(server), request());
    expect(joined(chunks, 'text')).toBe('All of it.');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: null });
  });

  it('says a bare 429 or 500 (no body) in words', async () => {
    const cases: [number, string][] = [
      [429, 'answered 429 Too Many Requests with no explanation; wait a moment and retry.'],
      [
        500,
        "answered 500 Internal Server Error with no explanation; retry, and if it keeps failing check the server's log.",
      ],
      [418, "answered 418 I'm a Teapot with no explanation."],
    ];
    for (const [status, words] of cases) {
      const server = await serve(() => ({ status, bareStatus: true }));
      const error = await failureOf(collect(clientFor(server, { maxRetries: 0 }), request()));
      expect(error).toMatchObject({ code: 'provider' });
      const message = error instanceof Error ? error.message : '';
      expect(message).toBe(`The model server at ${server.baseUrl} ${words}`);
      expect(message).not.toContain('status code');
    }
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => new OpenAiLlmClient({ baseUrl: 'localhost:11434', apiKey: null })).toThrow(
      expect.objectContaining({ code: 'config' }),
    );
  });
});

describe('OpenAiLlmClient cancellation', () => {
  it('aborting mid-stream throws an abort error and disconnects from the server', async () => {
    // The server hangs after its third chunk: only the abort can end this stream.
    const server = await serve([
      { content: 'The answer is long and never ends.', hangAfterChunks: 3 },
    ]);
    const controller = new AbortController();
    const received: LlmChunk[] = [];
    const error = await failureOf(
      (async () => {
        for await (const chunk of clientFor(server).stream(request(), controller.signal)) {
          received.push(chunk);
          // After the last piece the server sends, abort once the loop has gone back to waiting
          // on the hung server (setImmediate runs after the pending promise jobs), not between
          // chunks.
          if (joined(received, 'text') === 'The answer is ') setImmediate(() => controller.abort());
        }
      })(),
    );

    expect(isAbortError(error)).toBe(true);
    expect(controller.signal.aborted).toBe(true);
    // Three chunks: the role chunk, then two 7-character pieces of text.
    expect(joined(received, 'text')).toBe('The answer is ');
    await server.whenAborted(1);
    expect(server.abortedRequests()).toBe(1);
  });

  it('an already aborted signal throws without sending a request', async () => {
    const server = await serve([{ content: 'never' }]);
    const controller = new AbortController();
    controller.abort();
    const error = await failureOf(collect(clientFor(server), request(), controller.signal));
    expect(isAbortError(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('breaking out of the iteration ends the HTTP request', async () => {
    const server = await serve([
      { content: 'Some text that hangs after a while', hangAfterChunks: 3 },
    ]);
    for await (const chunk of clientFor(server).stream(request(), new AbortController().signal)) {
      if (chunk.type === 'text') break;
    }
    await server.whenAborted(1);
    expect(server.abortedRequests()).toBe(1);
  });
});

describe('listModels', () => {
  it('lists the ids the server serves', async () => {
    const server = await serve([], { models: ['qwen3:8b', 'llama3.2:3b'] });
    await expect(listModels({ baseUrl: server.baseUrl, apiKey: null })).resolves.toEqual([
      'qwen3:8b',
      'llama3.2:3b',
    ]);
    expect(server.requests[0]?.path).toBe('/v1/models');
  });

  it('maps a rejected key to an auth error', async () => {
    const server = await serve([], { apiKey: 'sk-good' });
    await expect(listModels({ baseUrl: server.baseUrl, apiKey: 'sk-bad' })).rejects.toMatchObject({
      code: 'auth',
    });
  });
});

describe('scripted LLM server', () => {
  it('cuts non-streamed content at the first stop sequence', async () => {
    const server = await serve([{ content: 'alpha STOP beta END gamma', finishReason: 'length' }]);
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [], stop: ['END', 'STOP'] }),
    });
    const completion: unknown = await response.json();
    expect(response.status).toBe(200);
    expect(completion).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant', content: 'alpha ' }, finish_reason: 'stop' }],
    });
  });

  it('answers 500 with an explicit error once the script is exhausted', async () => {
    const server = await serve([{ content: 'only one' }]);
    const post = () =>
      fetch(`${server.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [] }),
      });
    expect((await post()).status).toBe(200);
    const second = await post();
    expect(second.status).toBe(500);
    expect(await second.json()).toMatchObject({
      error: { code: 'script_exhausted', message: expect.stringContaining('script exhausted') },
    });
  });

  it('sends a usage chunk and [DONE] when include_usage is set', async () => {
    const server = await serve([{ content: 'four' }]);
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'm',
        messages: [],
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    const events = (await response.text()).split('\n\n').filter((event) => event !== '');
    expect(events.at(-1)).toBe('data: [DONE]');
    const usageChunk: unknown = JSON.parse(events.at(-2)?.slice('data: '.length) ?? 'null');
    expect(usageChunk).toMatchObject({
      object: 'chat.completion.chunk',
      choices: [],
      usage: { completion_tokens: 1 },
    });
  });
});
