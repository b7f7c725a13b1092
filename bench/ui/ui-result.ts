/**
 * The UI bench's figures as a BenchResult: the open time of the 2,000-message conversation against
 * the 20-message one (goal: under 500 ms), and the longest main-thread task while streaming into
 * it against a short stream into the small one (goal: no task over 50 ms).
 */
import type { BenchResult } from '../bench-result';
import type { MainThreadStats } from './page-probes';
import { SERVE_START_GOAL } from './serve-start';

/** The goals. */
export const OPEN_GOAL_MS = 500;
export const LONG_TASK_GOAL_MS = 50;

/** One streamed answer: what was asked, how long it took, what the main thread did. */
export interface StreamRun {
  tokens: number;
  messagesBefore: number;
  seconds: number;
  stats: MainThreadStats;
}

/** Everything the bench measured. */
export interface UiMeasurements {
  openLong: number;
  openShort: number;
  openRuns: number;
  stream: StreamRun;
  baselineStream: StreamRun;
  /** `aivory serve` start → composer usable, against a bare static server (medians, ms). */
  serveStart: { serve: number; bare: number; runs: number };
}

/**
 * The longest main-thread task: the longest long-task entry when there is one (exact), otherwise
 * the longest probe-timer delay (every task was under 50 ms; this sizes the longest of them).
 */
export function longestTask(stats: MainThreadStats): number {
  return stats.longTasks > 0 ? stats.longestTaskMs : stats.longestTimerDelayMs;
}

function ratio(value: number, baseline: number): number {
  return baseline > 0 ? value / baseline : Number.NaN;
}

function describeStream(name: string, run: StreamRun): string {
  const rate = run.tokens / run.seconds;
  return (
    `${name}: ${run.tokens} tokens into ${run.messagesBefore} messages in ${run.seconds.toFixed(1)} s ` +
    `(${rate.toFixed(0)} tokens/s); ${run.stats.longTasks} long tasks over 50 ms (total ` +
    `${run.stats.longTaskTotalMs.toFixed(0)} ms), longest timer delay ` +
    `${run.stats.longestTimerDelayMs.toFixed(0)} ms, longest frame gap ` +
    `${run.stats.longestFrameGapMs.toFixed(0)} ms`
  );
}

/** The result printed by bench/index.ts. */
export function uiBenchResult(measured: UiMeasurements): BenchResult {
  const { stream, baselineStream } = measured;
  const streamTask = longestTask(stream.stats);
  const baselineTask = longestTask(baselineStream.stats);
  const { serveStart } = measured;
  return {
    metrics: [
      {
        name: 'ui',
        measured: {
          label: 'aivory serve start → composer usable',
          value: serveStart.serve,
          unit: 'ms',
        },
        baseline: {
          label: 'bare Node static server → its page',
          value: serveStart.bare,
          unit: 'ms',
        },
        ratio: ratio(serveStart.serve, serveStart.bare),
        goal: {
          description: `≤ ${SERVE_START_GOAL}×`,
          met: serveStart.serve <= SERVE_START_GOAL * serveStart.bare,
          missLabel: 'ABOVE GOAL',
        },
      },
      {
        name: 'ui',
        measured: {
          label: 'open 2,000-message conversation',
          value: measured.openLong,
          unit: 'ms',
        },
        baseline: { label: 'open 20-message conversation', value: measured.openShort, unit: 'ms' },
        ratio: ratio(measured.openLong, measured.openShort),
        goal: {
          description: `open < ${OPEN_GOAL_MS} ms`,
          met: measured.openLong < OPEN_GOAL_MS,
          missLabel: 'FAIL',
        },
      },
      {
        name: 'ui',
        statistic: 'longest',
        measured: {
          label: `main-thread task streaming ${stream.tokens} tokens into it`,
          value: streamTask,
          unit: 'ms',
        },
        baseline: {
          label: `${baselineStream.tokens} tokens into the 20-message one`,
          value: baselineTask,
          unit: 'ms',
        },
        ratio: ratio(streamTask, baselineTask),
        goal: {
          description: `no task > ${LONG_TASK_GOAL_MS} ms`,
          met: stream.stats.longTasks === 0,
          missLabel: 'FAIL',
        },
      },
    ],
    notes: [
      `open: median of ${measured.openRuns} clicks each (click → last message painted)`,
      'longest task: the longest PerformanceObserver longtask entry; when no task took over 50 ms, ' +
        'the longest delay of a 10 ms probe timer (how long the main thread was busy)',
      describeStream('stream', stream),
      describeStream('baseline stream', baselineStream),
    ],
  };
}
