/**
 * Formats benchmark results as one readable line per metric, e.g.
 * `orchestrator: prompt-mode turn (10 calls) median 41.2 ms vs raw SDK 11 requests 39.0 ms
 * → ratio 1.06 (goal ratio ≤ 1.10) PASS`.
 */
import type { BenchMetric, BenchResult, Measurement } from './bench-result';

/** One line per metric, then one indented line per note. */
export function formatResult(result: BenchResult): string[] {
  return [...result.metrics.map(formatMetric), ...result.notes.map((note) => `  note: ${note}`)];
}

export function formatMetric(metric: BenchMetric): string {
  const verdict = metric.goal.met ? 'PASS' : metric.goal.missLabel;
  const ratio = Number.isFinite(metric.ratio) ? metric.ratio.toFixed(2) : 'n/a';
  return (
    `${metric.name}: ${metric.measured.label} ${metric.statistic ?? 'median'} ` +
    `${formatValue(metric.measured)} vs ${metric.baseline.label} ${formatValue(metric.baseline)}` +
    ` → ratio ${ratio} (goal ${metric.goal.description}) ${verdict}`
  );
}

function formatValue(measurement: Measurement): string {
  const digits = measurement.value >= 100 ? 0 : 1;
  return `${measurement.value.toFixed(digits)} ${measurement.unit}`;
}
