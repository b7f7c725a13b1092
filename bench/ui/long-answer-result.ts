/**
 * The long-answer bench's figures as a BenchResult: for each ~2,000,000-character answer, the
 * longest main-thread task while it streamed and when its conversation was reopened, against the
 * same for a normal 20,000-character answer in the same run (goal: no task over 100 ms; the
 * issue measured 544 ms streaming and a 2.5 s freeze reopening a 10 MB answer).
 */
import type { BenchMetric, BenchResult } from '../bench-result';
import type { LongAnswerKind } from '../../test/support/long-answer';
import type { MainThreadStats } from './page-probes';
import { longestTask } from './ui-result';

/** The goal for a long answer: no main-thread task longer than this. */
export const LONG_ANSWER_TASK_GOAL_MS = 100;

/** One answer: streamed, then (for all but none) its conversation opened from another. */
export interface LongAnswerRun {
  kind: LongAnswerKind;
  chars: number;
  seconds: number;
  stream: MainThreadStats;
  reopen: { openMs: number; stats: MainThreadStats } | null;
}

function metric(
  label: string,
  value: number,
  baselineLabel: string,
  baseline: number,
): BenchMetric {
  return {
    name: 'ui-long',
    statistic: 'longest',
    measured: { label, value, unit: 'ms' },
    baseline: { label: baselineLabel, value: baseline, unit: 'ms' },
    ratio: baseline > 0 ? value / baseline : Number.NaN,
    goal: {
      description: `no task > ${LONG_ANSWER_TASK_GOAL_MS} ms`,
      met: value <= LONG_ANSWER_TASK_GOAL_MS,
      missLabel: 'FAIL',
    },
  };
}

function describe(run: LongAnswerRun): string {
  const { stream, reopen } = run;
  const opened =
    reopen === null
      ? ''
      : `; reopened in ${reopen.openMs.toFixed(0)} ms, ${reopen.stats.longTasks} long tasks ` +
        `(total ${reopen.stats.longTaskTotalMs.toFixed(0)} ms)`;
  return (
    `${run.kind} ${run.chars.toLocaleString('en-US')} chars streamed in ${run.seconds.toFixed(1)} s: ` +
    `${stream.longTasks} long tasks (total ${stream.longTaskTotalMs.toFixed(0)} ms), longest ` +
    `frame gap ${stream.longestFrameGapMs.toFixed(0)} ms${opened}`
  );
}

/** The result printed by bench/index.ts. */
export function longAnswerResult(runs: readonly LongAnswerRun[]): BenchResult {
  const [baseline, ...long] = runs;
  if (baseline === undefined) throw new Error('no baseline run');
  const size = (run: LongAnswerRun): string => `${(run.chars / 1_000_000).toFixed(1)} MB`;
  const baseLabel = (what: string): string =>
    `${what} ${baseline.chars.toLocaleString('en-US')}-char answer`;
  const metrics: BenchMetric[] = [];
  for (const run of long) {
    metrics.push(
      metric(
        `main-thread task streaming ${size(run)} ${run.kind}`,
        longestTask(run.stream),
        baseLabel('streaming a'),
        longestTask(baseline.stream),
      ),
    );
    if (run.reopen !== null && baseline.reopen !== null) {
      metrics.push(
        metric(
          `main-thread task reopening it`,
          longestTask(run.reopen.stats),
          baseLabel('reopening a'),
          longestTask(baseline.reopen.stats),
        ),
      );
    }
  }
  return {
    metrics,
    notes: [
      'longest task: the longest PerformanceObserver longtask entry; when no task took over 50 ms, ' +
        'the longest delay of a 10 ms probe timer (how long the main thread was busy)',
      ...runs.map(describe),
    ],
  };
}
