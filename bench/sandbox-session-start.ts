/**
 * Sandbox metric 2: how long a new conversation waits for its first result, `POST /sessions`
 * then `POST /exec print(6*7)`, with the warm container pool (SANDBOX_WARM_POOL=1) against the
 * same requests on a sidecar without one (SANDBOX_WARM_POOL=0: container create + start +
 * worker start on the request path).
 */
import type { BenchMetric } from './bench-result';
import type { BenchSidecar } from './sandbox-support';
import { expectFortyTwo, expectStatus, waitForWarmPool } from './sandbox-support';
import { median, timeAsync } from './statistics';

/** Measured new conversations per side; a cold one costs ~1 s, so ten keep the bench short. */
export const SESSION_START_ITERATIONS = 10;

/** The goal for the first result of a new conversation with a warm pool. */
export const SESSION_START_GOAL_MS = 300;

export interface SessionStartMeasurement {
  metric: BenchMetric;
  notes: string[];
}

/**
 * Alternates one new conversation on `warm` and one on `cold`. Before every measurement the
 * warm sidecar's pool is full again, so neither side runs while a refill competes for the CPU
 * (and the warm side never finds the pool empty). Each session is deleted afterwards.
 */
export async function measureSessionStart(
  warm: BenchSidecar,
  cold: BenchSidecar,
  options: { iterations?: number } = {},
): Promise<SessionStartMeasurement> {
  const iterations = Math.max(1, options.iterations ?? SESSION_START_ITERATIONS);
  const warmTimes: number[] = [];
  const coldTimes: number[] = [];
  for (let iteration = 0; iteration < iterations; iteration += 1) {
    await waitForWarmPool(warm.prefix, new Set());
    warmTimes.push(await firstResultTime(warm));
    await waitForWarmPool(warm.prefix, new Set());
    coldTimes.push(await firstResultTime(cold));
  }

  const ours = median(warmTimes);
  const raw = median(coldTimes);
  const ratio = ours / raw;
  const notes = [
    `sandbox session start: warm pool ${(raw / ours).toFixed(1)}× faster than a cold start; ` +
      `warm ${formatRange(warmTimes)}, cold ${formatRange(coldTimes)}`,
  ];
  const missed = warmTimes.filter((time) => time > raw / 2).length;
  if (missed > 0) {
    notes.push(
      `sandbox session start: ${missed} warm iteration(s) took more than half a cold start ` +
        '(the pool was probably not refilled yet): the warm median is pessimistic',
    );
  }
  return {
    metric: {
      name: 'sandbox session start',
      measured: { label: 'POST /sessions → first /exec, warm pool', value: ours, unit: 'ms' },
      baseline: { label: 'same without a pool (cold container)', value: raw, unit: 'ms' },
      ratio,
      goal: {
        description: `median ≤ ${SESSION_START_GOAL_MS} ms`,
        met: ours <= SESSION_START_GOAL_MS,
        missLabel: 'ABOVE GOAL',
      },
    },
    notes,
  };
}

/** Times a new conversation up to its first `/exec` result, then deletes the session (untimed). */
async function firstResultTime(sidecar: BenchSidecar): Promise<number> {
  let sessionId = '';
  const elapsed = await timeAsync(async () => {
    const created = expectStatus(
      await sidecar.call('POST', '/sessions', {}),
      201,
      'POST /sessions',
    );
    if (created.json.restored !== false) {
      throw new Error(`a new conversation was restored: ${JSON.stringify(created.json)}`);
    }
    sessionId = String(created.json.session_id);
    expectFortyTwo(
      await sidecar.call('POST', '/exec', { session_id: sessionId, code: 'print(6*7)' }),
      'first POST /exec',
    );
  });
  expectStatus(await sidecar.call('DELETE', `/sessions/${sessionId}`), 204, 'DELETE /sessions');
  return elapsed;
}

function formatRange(times: readonly number[]): string {
  const sorted = [...times].sort((left, right) => left - right);
  const low = sorted[0] ?? Number.NaN;
  const high = sorted[sorted.length - 1] ?? Number.NaN;
  return `${low.toFixed(0)}–${high.toFixed(0)} ms`;
}
