/**
 * What a benchmark reports: each metric is a measurement next to a baseline taken in the same
 * run, their ratio, and a goal. Absolute times are only context; these machines are too noisy
 * for thresholds on them, so nothing here fails a build.
 */

export interface Measurement {
  /** What was measured, e.g. "prompt-mode turn (10 calls)". */
  label: string;
  value: number;
  unit: 'ms' | 'MB/s';
}

export interface Goal {
  /** Human-readable, e.g. "≤ 1.10" or "≥ 50 MB/s". */
  description: string;
  met: boolean;
  /** The verdict printed when the goal is missed, e.g. "ABOVE GOAL". */
  missLabel: string;
}

export interface BenchMetric {
  /** Short name of the metric, printed first on its line. */
  name: string;
  /** How the measured value sums up its runs; printed before it (default "median"). */
  statistic?: string;
  measured: Measurement;
  baseline: Measurement;
  /** `measured.value / baseline.value` (NaN when the baseline is 0: printed as n/a). */
  ratio: number;
  goal: Goal;
}

export interface BenchResult {
  metrics: BenchMetric[];
  /** Warnings about the measurement itself (e.g. the baseline stopped being comparable). */
  notes: string[];
}
