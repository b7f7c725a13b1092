/**
 * The adapter's sampling against the real server-everything (stdio) and the real OpenAI client
 * on the scripted LLM server: without `onSample` the client offers no sampling (the server lists
 * no `trigger-sampling-request`); with it, the request arrives as plain data (system prompt,
 * text, clamped max tokens), the model's answer (no tools in its request) comes back inside the
 * tool's result; a denial reaches the server as an error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import { normaliseSampling } from '../../src/main/adapters/mcp/mcp-sampling';
import { OpenAiLlmClient } from '../../src/main/adapters/openai/openai-llm-client';
import type {
  McpCallOptions,
  McpConnectOptions,
  McpSamplingPrompt,
  McpSession,
} from '../../src/main/core/ports';
import { createSampler } from '../../src/main/services/turn-sampling';
import { EVERYTHING_SCRIPT } from '../support/mcp-everything-server';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';

const never = new AbortController().signal;
const CALL: McpCallOptions = {
  signal: never,
  timeoutMs: 20_000,
  maxTotalTimeoutMs: 60_000,
  maxOutputChars: 20_000,
};

describe('MCP adapter: sampling with server-everything', () => {
  let session: McpSession | undefined;
  let llm: ScriptedLlmServer | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await llm?.close();
    llm = undefined;
  });

  async function open(onSample?: McpConnectOptions['onSample']): Promise<McpSession> {
    session = await createMcpConnector().connect(
      {
        transport: 'stdio',
        command: process.execPath,
        args: [EVERYTHING_SCRIPT, 'stdio'],
        env: {},
      },
      { signal: never, timeoutMs: 20_000, ...(onSample ? { onSample } : {}) },
    );
    return session;
  }

  it('offers no sampling without onSample', async () => {
    const names = (await (await open()).listTools(never)).map((tool) => tool.name);
    expect(names).toContain('echo');
    expect(names).not.toContain('trigger-sampling-request');
  }, 120_000);

  it('asks, then the model answers without tools; the answer reaches the server', async () => {
    llm = await startScriptedLlmServer([{ content: 'Scripted completion for the server.' }]);
    const asked: McpSamplingPrompt[] = [];
    const sample = createSampler({
      llm: new OpenAiLlmClient({ baseUrl: llm.baseUrl, apiKey: null }),
      model: 'scripted-model',
      ask: (prompt) => {
        asked.push(prompt);
        return Promise.resolve('once');
      },
      alwaysAllow: undefined,
    });
    const live = await open((request, signal) =>
      sample({ ...request, serviceId: 'svc', service: 'everything' }, signal),
    );
    const result = await live.callTool(
      'trigger-sampling-request',
      { prompt: 'Say\u202e hi', maxTokens: 100_000 },
      CALL,
    );
    expect(result.isError).toBe(false);
    expect(result.text).toContain('Scripted completion for the server.');
    expect(result.text).toContain('"model": "scripted-model"');
    expect(asked).toEqual([
      {
        service: 'everything',
        model: 'scripted-model',
        systemPrompt: 'You are a helpful test server.',
        messages: [{ role: 'user', text: 'Resource trigger-sampling-request context: Say  hi' }],
        maxTokens: 4096,
        temperature: 0.7,
      },
    ]);
    const body = llm.requests.at(-1)?.body ?? {};
    expect(body.tools).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a helpful test server.' },
      { role: 'user', content: 'Resource trigger-sampling-request context: Say  hi' },
    ]);
  }, 120_000);

  it('a denial reaches the server as an error; the model is not asked', async () => {
    llm = await startScriptedLlmServer([{ content: 'never' }]);
    const sample = createSampler({
      llm: new OpenAiLlmClient({ baseUrl: llm.baseUrl, apiKey: null }),
      model: 'scripted-model',
      ask: () => Promise.resolve('deny'),
      alwaysAllow: undefined,
    });
    const live = await open((request, signal) =>
      sample({ ...request, serviceId: 'svc', service: 'everything' }, signal),
    );
    const result = await live.callTool('trigger-sampling-request', { prompt: 'hi' }, CALL);
    expect(result.isError).toBe(true);
    expect(result.text).toContain('User rejected sampling request');
    expect(llm.requests).toHaveLength(0);
  }, 120_000);

  it('"always" remembers the service: the next request does not ask', async () => {
    llm = await startScriptedLlmServer([{ content: 'one' }, { content: 'two' }]);
    const allowed = new Set<string>();
    let asks = 0;
    const sample = createSampler({
      llm: new OpenAiLlmClient({ baseUrl: llm.baseUrl, apiKey: null }),
      model: 'scripted-model',
      ask: () => {
        asks += 1;
        return Promise.resolve('always');
      },
      alwaysAllow: { has: (id) => allowed.has(id), add: (id) => allowed.add(id) },
    });
    const live = await open((request, signal) =>
      sample({ ...request, serviceId: 'svc', service: 'everything' }, signal),
    );
    expect((await live.callTool('trigger-sampling-request', { prompt: 'a' }, CALL)).text).toContain(
      'one',
    );
    expect((await live.callTool('trigger-sampling-request', { prompt: 'b' }, CALL)).text).toContain(
      'two',
    );
    expect(asks).toBe(1);
    expect([...allowed]).toEqual(['svc']);
  }, 120_000);
});

describe('normaliseSampling', () => {
  it('describes images and audio, bounds the messages, refuses tool use', () => {
    const request = normaliseSampling({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', data: 'x', mimeType: 'image/png' },
          ],
        },
        { role: 'assistant', content: { type: 'audio', data: 'x', mimeType: 'audio/wav' } },
      ],
      maxTokens: 0,
      temperature: 9,
      stopSequences: ['END', 3],
      includeContext: 'allServers',
    });
    expect(request).toEqual({
      systemPrompt: '',
      messages: [
        { role: 'user', text: 'look\n[image]' },
        { role: 'assistant', text: '[audio]' },
      ],
      maxTokens: 1,
      stopSequences: ['END'],
    });
    const many = Array.from({ length: 51 }, () => ({
      role: 'user',
      content: { type: 'text', text: 'x' },
    }));
    expect(() => normaliseSampling({ messages: many, maxTokens: 10 })).toThrow(/at most 50/);
    const big = [{ role: 'user', content: { type: 'text', text: 'x'.repeat(100_001) } }];
    expect(() => normaliseSampling({ messages: big, maxTokens: 10 })).toThrow(/characters/);
    const tool = [
      { role: 'assistant', content: { type: 'tool_use', id: '1', name: 'n', input: {} } },
    ];
    expect(() => normaliseSampling({ messages: tool, maxTokens: 10 })).toThrow(/tool use/);
  });
});
