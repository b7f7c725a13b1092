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
