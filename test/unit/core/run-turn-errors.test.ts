import { describe, expect, it } from 'vitest';
import {
  PUBLIC_ERROR_CANCELED,
  PUBLIC_ERROR_FAILED,
  PUBLIC_ERROR_TIMEOUT,
} from '../../../src/main/core/orchestrator/protocol-text';
import { hangingTool, throwingTool } from '../../support/fake-tools';
import {
  eventsOfType,
  promptCall,
  requestMessages,
  runScriptedTurn,
} from '../../support/turn-harness';

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
    expect(JSON.stringify(run.requests)).not.toContain('hunter2');
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
      // Cancel once the call is really running (not after a guessed delay).
      onEvent: (event) => {
        if (event.type === 'tool-call-end') void slow.whenStarted().then(() => controller.abort());
      },
    });
    expect(slow.sawAbort()).toBe(true);
    expect(eventsOfType(run.events, 'tool-result')[0]).toMatchObject({
      output: PUBLIC_ERROR_CANCELED,
    });
    expect(run.requests).toHaveLength(1);
    expect(run.end.stopReason).toBe('canceled');
  });

  it('aborting mid-stream ends the model stream and keeps the text so far', async () => {
    const controller = new AbortController();
    let textDeltas = 0;
    // The stream hangs after three pieces of text: only the abort can end this turn.
    const run = await runScriptedTurn(
      [{ content: 'The first part of a long answer', chunkSize: 5, hangAfterChunks: 4 }],
      {
        toolMode: 'native',
        tools: [],
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === 'text-delta' && ++textDeltas === 3) controller.abort();
        },
      },
    );
    await run.llm.whenAborted(1);
    expect(run.llm.abortedStreams()).toBe(1);
    expect(run.requests).toHaveLength(1);
    expect(run.end).toMatchObject({
      type: 'turn-end',
      stopReason: 'canceled',
      answer: 'The first part',
    });
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
