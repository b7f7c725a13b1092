/**
 * Small helpers shared by the benchmarks: medians, a monotonic clock, and a seeded random
 * source so every run feeds the code under test exactly the same input.
 */
import type { BenchMetric, Goal } from './bench-result';
import { performance } from 'node:perf_hooks';

/** The median of `values` (the mean of the middle two for an even count). Throws when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  if (sorted.length % 2 === 1) return upper;
  return ((sorted[middle - 1] ?? 0) + upper) / 2;
}

/** Milliseconds that `work` took, measured with the monotonic high-resolution clock. */
export async function timeAsync(work: () => Promise<void>): Promise<number> {
  const startedAt = performance.now();
  await work();
  return performance.now() - startedAt;
}

/** Milliseconds that `work` took; its return value is handed to `sink` so it cannot be elided. */
export function timeSync<T>(work: () => T, sink: (value: T) => void): number {
  const startedAt = performance.now();
  const value = work();
  const elapsed = performance.now() - startedAt;
  sink(value);
  return elapsed;
}

/**
 * A metric from `work` timed against `baselineWork` in alternation (so noise hits both alike),
 * medians of `runs.measured` runs after `runs.warmups` unmeasured ones of each; `keep` receives
 * every result so nothing is optimised away; `goal` judges the median and the ratio.
 */
export function measureAgainstBaseline(spec: {
  name: string;
  label: string;
  work: () => number;
  baselineLabel: string;
  baselineWork: () => number;
  keep: (value: number) => void;
  runs: { warmups: number; measured: number };
  goal: (value: number, ratio: number) => Goal;
}): BenchMetric {
  const { work, baselineWork, keep } = spec;
  for (let warmup = 0; warmup < spec.runs.warmups; warmup += 1) {
    keep(work());
    keep(baselineWork());
  }
  const times: number[] = [];
  const baselineTimes: number[] = [];
  for (let run = 0; run < spec.runs.measured; run += 1) {
    times.push(timeSync(work, keep));
    baselineTimes.push(timeSync(baselineWork, keep));
  }
  const value = median(times);
  const baseline = median(baselineTimes);
  const ratio = baseline === 0 ? Number.NaN : value / baseline;
  return {
    name: spec.name,
    measured: { label: spec.label, value, unit: 'ms' },
    baseline: { label: spec.baselineLabel, value: baseline, unit: 'ms' },
    ratio,
    goal: spec.goal(value, ratio),
  };
}

/**
 * A deterministic pseudo-random source (mulberry32). Benchmarks use it instead of Math.random
 * so two runs measure identical inputs and differ only by machine noise.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An integer in [minimum, maximum], both included. */
export function randomInteger(random: () => number, minimum: number, maximum: number): number {
  return minimum + Math.floor(random() * (maximum - minimum + 1));
}
