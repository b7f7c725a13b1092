import { describe, expect, it } from 'vitest';
import {
  PUBLIC_ERROR_CANCELED,
  PUBLIC_ERROR_FAILED,
  PUBLIC_ERROR_TIMEOUT,
} from '../../../src/main/core/orchestrator/protocol-text';
import { hangingTool, throwingTool } from '../../support/fake-tools';
import { startScriptedLlmServer } from '../../support/scripted-llm-server';
import {
  eventsOfType,
  promptCall,
  requestMessages,
  runScriptedTurn,
} from '../../support/turn-harness';
import { OpenAiLlmClient } from '../../../src/main/adapters/openai/openai-llm-client';
import { resolveTurnLimits } from '../../../src/main/core/orchestrator/budgets';
import { runTurn } from '../../../src/main/core/orchestrator/run-turn';
import type { TurnEvent } from '../../../src/shared/turn-events';

const SECRET = 'db password is hunter2 at /home/me/.secret';

describe('tool failures become public errors', () => {
  it('a thrown error reaches the model and the UI only as the public text; the log has the detail', async () => {
    const failing = throwingTool('lookup', SECRET);
    const run = await runScriptedTurn(
      [promptCall('lookup', {}), { content: 'Sorry, it failed.' }],
      {
        toolMode: 'prompt',
        tools: [failing],
      },
    );
    const result = eventsOfType(run.events, 'tool-result')[0];
    expect(result).toMatchObject({ status: 'error', output: PUBLIC_ERROR_FAILED });
    expect(requestMessages(run.requests[1]).at(-1)?.content).toBe(
      `<tool_error name="lookup">\n${PUBLIC_ERROR_FAILED}\n</tool_error>\nContinue from here.`,
    );
    expect(JSON.stringify(run.events)).not.toContain('hunter2');
    expect(JSON.stringify(run.requests.map((request) => request.body))).not.toContain('hunter2');
    expect(JSON.stringify(run.logger.entries)).toContain('hunter2');
    expect(run.end.stopReason).toBe('completed');
  });

  it('a tool past its timeout is aborted and reported with the timeout text', async () => {
    const slow = hangingTool('lookup', 100);
    const run = await runScriptedTurn(
      [promptCall('lookup', {}), { content: 'Timed out, sorry.' }],
      {
        toolMode: 'prompt',
        tools: [slow],
      },
    );
    expect(eventsOfType(run.events, 'tool-result')[0]).toMatchObject({
      status: 'error',
      output: PUBLIC_ERROR_TIMEOUT,
    });
    expect(slow.sawAbort()).toBe(true);
    expect(run.end.stopReason).toBe('completed');
  });
});

describe('cancel', () => {
  it('aborting during a tool call cancels the tool and ends the turn as canceled', async () => {
    const slow = hangingTool('lookup', 60_000);
    const controller = new AbortController();
    const run = await runScriptedTurn([promptCall('lookup', {}), { content: 'never' }], {
      toolMode: 'prompt',
      tools: [slow],
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'tool-call-end') setTimeout(() => controller.abort(), 20);
      },
    });
    expect(slow.sawAbort()).toBe(true);
    expect(eventsOfType(run.events, 'tool-result')[0]).toMatchObject({
      output: PUBLIC_ERROR_CANCELED,
    });
    expect(run.requests).toHaveLength(1);
    expect(run.end.stopReason).toBe('canceled');
  });

  it('aborting mid-stream closes the HTTP request and keeps the text so far', async () => {
    const server = await startScriptedLlmServer([
      { content: 'The first part of a long answer', chunkSize: 5, hangAfterChunks: 4 },
    ]);
    const controller = new AbortController();
    const events: TurnEvent[] = [];
    const started = Date.now();
    try {
      for await (const event of runTurn(
        {
          llm: new OpenAiLlmClient({ baseUrl: server.baseUrl, apiKey: null, maxRetries: 0 }),
          clock: { now: () => Date.now() },
          ids: { next: (prefix) => `${prefix}_1` },
          logger: { debug() {}, info() {}, warn() {}, error() {} },
        },
        {
          turnId: 't',
          conversationId: 'c',
          model: 'scripted-model',
          toolMode: 'native',
          messages: [{ role: 'user', content: 'hi' }],
          tools: [],
          limits: resolveTurnLimits('normal'),
        },
        controller.signal,
      )) {
        events.push(event);
        if (
          event.type === 'text-delta' &&
          events.filter((item) => item.type === 'text-delta').length === 3
        )
          controller.abort();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.abortedRequests()).toBe(1);
    } finally {
      await server.close();
    }
    const end = events.at(-1);
    expect(end).toMatchObject({
      type: 'turn-end',
      stopReason: 'canceled',
      answer: 'The first part',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a provider error ends the turn with a public error and no stack', async () => {
    const run = await runScriptedTurn(
      [{ status: 401, errorMessage: 'Incorrect API key provided: sk-abc…' }],
      {
        toolMode: 'native',
        tools: [],
      },
    );
    expect(run.end.stopReason).toBe('error');
    expect(run.end.error?.code).toBe('auth');
    expect(run.end.error?.message).not.toMatch(/\n\s+at /);
  });
});
