/** The CLI's text trace of progress: a dim "… message, n/total" line at most once a second per call. */
import { describe, expect, it } from 'vitest';
import {
  PROGRESS_LINE_INTERVAL_MS,
  progressThrottle,
  traceLine,
} from '../../../src/main/cli/trace-format';
import type { TurnEvent } from '../../../src/shared/turn-events';

const report = (toolCallId: string, progress: number): TurnEvent => ({
  type: 'tool-progress',
  turnId: 't',
  toolCallId,
  progress,
  total: 10,
  message: 'Indexing   files',
});

describe('CLI progress trace', () => {
  it('prints "message, n/total" and lets one line a second through per call', () => {
    expect(traceLine(report('a', 3))).toBe('  … Indexing files, 3/10');
    expect(traceLine({ type: 'tool-progress', turnId: 't', toolCallId: 'a', progress: 7 })).toBe(
      '  … 7',
    );
    let now = 0;
    const print = progressThrottle(() => now);
    expect(print(report('a', 1))).toBe(true);
    now += 300;
    expect(print(report('a', 2))).toBe(false);
    expect(print(report('b', 1))).toBe(true);
    now += PROGRESS_LINE_INTERVAL_MS;
    expect(print(report('b', 2))).toBe(true);
    expect(print({ type: 'text-delta', turnId: 't', text: 'x' })).toBe(true);
  });
});

describe('CLI model-wait trace', () => {
  const wait = (waitMs: number, status: number | null): TurnEvent => ({
    type: 'model-wait',
    turnId: 't',
    waitMs,
    status,
  });

  it('says a wait the user notices, and how to stop it', () => {
    expect(traceLine(wait(45_000, 429))).toBe(
      '  … the model server answered HTTP 429; trying again in 45 s (Ctrl-C stops)',
    );
    expect(traceLine(wait(2_000, null))).toBe(
      '  … the model server could not be reached; trying again in 2 s (Ctrl-C stops)',
    );
  });

  it('keeps a short backoff quiet: a dead server fails in one line', () => {
    expect(traceLine(wait(500, null))).toBeNull();
    expect(traceLine(wait(1_999, 503))).toBeNull();
  });
});
