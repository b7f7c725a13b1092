/**
 * The turn's progress channel: reports of the running call become `tool-progress` events between
 * its `tool-call-end` and `tool-result`, cleaned and rate-limited; nothing leaks outside a call.
 */
import { describe, expect, it } from 'vitest';
import type { Tool, ToolContext } from '../../../src/main/core/ports';
import {
  cleanProgressMessage,
  PROGRESS_MAX_MESSAGE_CHARS,
  PROGRESS_MIN_INTERVAL_MS,
  TurnProgress,
} from '../../../src/main/services/turn-progress';
import type { TurnEvent } from '../../../src/shared/turn-events';

const base = { turnId: 't', name: 'svc__slow' };

function harness() {
  let now = 1_000;
  const clock = { now: () => now };
  const timers: { run: () => void; ms: number; canceled: boolean }[] = [];
  const progress = new TurnProgress('t', clock, (run, ms) => {
    const timer = { run, ms, canceled: false };
    timers.push(timer);
    return () => {
      timer.canceled = true;
    };
  });
  const reports: ((report: Parameters<NonNullable<ToolContext['onProgress']>>[0]) => void)[] = [];
  let finish: () => void = () => undefined;
  const slow: Tool = Object.freeze({
    name: 'svc__slow',
    description: 'slow',
    inputSchema: { type: 'object' },
    timeoutMs: 1000,
    execute: (_args: unknown, context: ToolContext) => {
      if (context.onProgress) reports.push(context.onProgress);
      return new Promise<{ content: string }>((resolve) => {
        finish = () => resolve({ content: 'done' });
      });
    },
  });
  const tool = progress.wrap(slow);
  return {
    progress,
    tool,
    report: (value: number, extra: { total?: number; message?: string } = {}) =>
      reports[0]?.({ progress: value, ...extra }),
    advance: (ms: number) => {
      now += ms;
    },
    timers,
    finish: () => finish(),
  };
}

async function* oneCall(h: ReturnType<typeof harness>): AsyncGenerator<TurnEvent, void> {
  yield { type: 'tool-call-end', ...base, toolCallId: 'c1', arguments: {} };
  const output = await h.tool.execute(
    {},
    { conversationId: null, signal: new AbortController().signal, logger: console as never },
  );
  yield {
    type: 'tool-result',
    ...base,
    toolCallId: 'c1',
    status: 'ok',
    output: output.content,
    durationMs: 1,
    artifacts: [],
  };
  yield { type: 'tool-call-end', ...base, toolCallId: 'c2', arguments: {} };
}

describe('TurnProgress', () => {
  it('merges cleaned, rate-limited progress of the running call between its end and its result', async () => {
    const h = harness();
    const events: TurnEvent[] = [];
    const reader = (async () => {
      for await (const event of h.progress.merge(oneCall(h))) {
        events.push(event);
        if (event.type !== 'tool-progress') continue;
        // The next report only after this one was read: the stream stays live while the call runs.
        if (event.progress === 1) {
          h.report(1.5); // too soon: dropped
          h.advance(PROGRESS_MIN_INTERVAL_MS);
          h.report(2, { total: 3, message: 'step\u0007 two\n\u202e' + 'x'.repeat(500) });
        } else if (event.progress === 2) {
          h.report(3, { total: 3 }); // completes: passes although soon
        } else {
          h.finish();
        }
      }
    })();
    await new Promise((resolve) => setImmediate(resolve));
    h.report(1, { total: Number.NaN });
    await reader;
    expect(events.map((event) => event.type)).toEqual([
      'tool-call-end',
      'tool-progress',
      'tool-progress',
      'tool-progress',
      'tool-result',
      'tool-call-end',
    ]);
    const reports = events.filter((event) => event.type === 'tool-progress');
    expect(reports[0]).toEqual({
      type: 'tool-progress',
      turnId: 't',
      toolCallId: 'c1',
      progress: 1,
    });
    const second = reports[1];
    expect(second?.type === 'tool-progress' && second.total).toBe(3);
    const message = second?.type === 'tool-progress' ? (second.message ?? '') : '';
    expect(message.startsWith('step two x')).toBe(true);
    expect([...message].length).toBe(PROGRESS_MAX_MESSAGE_CHARS);
    expect([...message].some((char) => char.charCodeAt(0) < 0x20 || char === '\u202e')).toBe(false);
    expect(reports[2]).toMatchObject({ progress: 3, total: 3 });
  });

  it('holds the newest report that came too soon and sends it when the interval ends', async () => {
    const h = harness();
    const events: TurnEvent[] = [];
    const reader = (async () => {
      for await (const event of h.progress.merge(oneCall(h))) {
        events.push(event);
        if (event.type !== 'tool-progress') continue;
        if (event.progress === 1) {
          h.advance(100);
          h.report(2, { total: 5 }); // too soon: held
          h.report(3, { total: 5 }); // the newer one replaces it
          expect(h.timers).toHaveLength(1);
          expect(h.timers[0]?.ms).toBe(PROGRESS_MIN_INTERVAL_MS - 100);
          h.advance(PROGRESS_MIN_INTERVAL_MS);
          h.timers[0]?.run();
        } else if (event.progress === 3) {
          h.report(4, { total: 5 }); // soon again: held, then the call ends
          h.finish();
        }
      }
    })();
    await new Promise((resolve) => setImmediate(resolve));
    h.report(1, { total: 5 });
    await reader;
    const reports = events.flatMap((event) =>
      event.type === 'tool-progress' ? [event.progress] : [],
    );
    expect(reports).toEqual([1, 3]);
    // The report held when the call ended is dropped with its timer.
    expect(h.timers.at(-1)?.canceled).toBe(true);
    h.timers.at(-1)?.run();
    expect(events.filter((event) => event.type === 'tool-progress')).toHaveLength(2);
  });

  it('drops reports when no call runs, and non-finite progress', async () => {
    const h = harness();
    h.progress.report({ progress: 1 });
    async function* turn(): AsyncGenerator<TurnEvent, void> {
      yield { type: 'tool-call-end', ...base, toolCallId: 'c1', arguments: {} };
      h.progress.report({ progress: Number.POSITIVE_INFINITY });
      yield {
        type: 'tool-result',
        ...base,
        toolCallId: 'c1',
        status: 'ok',
        output: '',
        durationMs: 1,
        artifacts: [],
      };
      h.progress.report({ progress: 2 });
    }
    const types: string[] = [];
    for await (const event of h.progress.merge(turn())) types.push(event.type);
    expect(types).toEqual(['tool-call-end', 'tool-result']);
    expect(cleanProgressMessage(' \u0000 ')).toBeUndefined();
    expect(cleanProgressMessage(42)).toBeUndefined();
  });

  it('closing the merged stream closes the turn', async () => {
    const h = harness();
    let closed = false;
    async function* turn(): AsyncGenerator<TurnEvent, void> {
      try {
        yield { type: 'tool-call-end', ...base, toolCallId: 'c1', arguments: {} };
        yield { type: 'tool-call-end', ...base, toolCallId: 'c2', arguments: {} };
      } finally {
        closed = true;
      }
    }
    for await (const event of h.progress.merge(turn())) {
      expect(event.type).toBe('tool-call-end');
      break;
    }
    expect(closed).toBe(true);
  });
});
