/**
 * The "open a big conversation" figures as a BenchResult: the first screen, the longest
 * main-thread task and the longest static request to serve while a 20,000-message conversation
 * opens, each against the same for a 20-message one (issue 21, item 7: first screen ≤ 300 ms, no
 * main-thread task or server request blocked over 50 ms).
 */
import type { BenchMetric, BenchResult } from '../bench-result';
import type { ServerReadRun } from './server-reads';

export const FIRST_SCREEN_GOAL_MS = 300;
export const BLOCKED_GOAL_MS = 50;

/** One measured open. */
export interface OpenRun {
  firstScreenMs: number;
  longestTaskMs: number;
  longestStaticMs: number;
  staticRequests: number;
}

/** Per conversation: the median first screen, the longest task and static request of all runs. */
export interface OpenSummary {
  firstScreenMs: number;
  longestTaskMs: number;
  longestStaticMs: number;
}

export interface OpenMeasurements {
  long: OpenSummary;
  short: OpenSummary;
  longMessages: number;
  shortMessages: number;
  runs: number;
  seedSeconds: number;
  /**
   * The machine's 1-minute load average after the runs: on the shared 2-core build machine every
   * figure here moves with it (a 20-message turn start 15–90 ms).
   */
  loadAverage: number;
  staticRequests: number;
  /** The longest static request while serve reads each conversation (bench/ui/server-reads.ts). */
  serverReads: ServerReadRun[];
}

function ratio(value: number, baseline: number): number {
  return baseline > 0 ? value / baseline : Number.NaN;
}

function metric(
  statistic: string,
  label: string,
  value: number,
  baselineLabel: string,
  baseline: number,
  goalMs: number,
): BenchMetric {
  return {
    name: 'ui-open',
    statistic,
    measured: { label, value, unit: 'ms' },
    baseline: { label: baselineLabel, value: baseline, unit: 'ms' },
    ratio: ratio(value, baseline),
    goal: { description: `≤ ${goalMs} ms`, met: value <= goalMs, missLabel: 'FAIL' },
  };
}

/** The result printed by bench/index.ts. */
export function openBenchResult(measured: OpenMeasurements): BenchResult {
  const { long, short } = measured;
  const big = `${measured.longMessages.toLocaleString('en')} messages`;
  const small = `${measured.shortMessages} messages`;
  return {
    metrics: [
      metric(
        'median',
        `first screen, ${big}`,
        long.firstScreenMs,
        small,
        short.firstScreenMs,
        FIRST_SCREEN_GOAL_MS,
      ),
      metric(
        'longest',
        `main-thread task opening ${big}`,
        long.longestTaskMs,
        small,
        short.longestTaskMs,
        BLOCKED_GOAL_MS,
      ),
      metric(
        'longest',
        `static request to serve while ${big} load`,
        long.longestStaticMs,
        small,
        short.longestStaticMs,
        BLOCKED_GOAL_MS,
      ),
      ...measured.serverReads.map((run) =>
        metric(
          'longest',
          `static request to serve during ${run.action}, ${big}`,
          run.longMs,
          small,
          run.shortMs,
          BLOCKED_GOAL_MS,
        ),
      ),
    ],
    notes: [
      `first screen: median of ${measured.runs} clicks each (click → last message painted)`,
      'main-thread task: the longest PerformanceObserver longtask entry; when none took over ' +
        '50 ms, the longest delay of a 10 ms probe timer',
      `static request: GET /index.html one at a time, 10 ms apart, during each open ` +
        `(${measured.staticRequests} requests)`,
      'server reads: a turn start (its model unreachable: the path read newest first, then an ' +
        'error; serve loaded the turn modules when idle, before the first open), a ' +
        'Markdown export, the settings view and a search, 3 runs each, then a deletion of each ' +
        "conversation (once), over serve's WebSocket",
      `seeding took ${measured.seedSeconds.toFixed(1)} s`,
      `1-minute load average after the runs: ${measured.loadAverage.toFixed(1)}`,
    ],
  };
}
