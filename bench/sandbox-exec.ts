/**
 * Sandbox metric 1: a warm `/exec` of `print(6*7)` through the real HTTP sidecar (fetch →
 * node:http → SessionManager → the session's long-lived Python worker) against a raw
 * `docker exec <same container> python3 -c 'print(6*7)'` from the docker CLI, which is what a
 * sandbox without a resident worker pays for every call.
 */
import type { BenchMetric } from './bench-result';
import type { BenchSidecar } from './sandbox-support';
import { dockerCli, expectFortyTwo, expectStatus, sessionContainerId } from './sandbox-support';
import { median, timeAsync } from './statistics';

/** Measured `/exec` calls: cheap (ms each), so many, for a stable median and p90. */
export const EXEC_ITERATIONS = 250;
/** Measured `docker exec` runs: ~100 ms each, so fewer; the median is still stable. */
export const DOCKER_EXEC_ITERATIONS = 50;
const EXEC_WARMUP = 20;
const DOCKER_EXEC_WARMUP = 3;

/** The goals: at least 20× faster than `docker exec`, and under 5 ms median. */
export const EXEC_SPEEDUP_GOAL = 20;
export const EXEC_MEDIAN_GOAL_MS = 5;

const CODE = 'print(6*7)';
const CONVERSATION = 'bench-warm-exec';

export interface ExecMeasurement {
  metric: BenchMetric;
  notes: string[];
}

/**
 * Opens one session on `sidecar`, warms both paths up, then alternates them in rounds (five
 * `/exec` calls, one `docker exec`) so drift on a noisy machine hits both sides alike. Deletes
 * the session afterwards.
 */
export async function measureWarmExec(
  sidecar: BenchSidecar,
  options: { iterations?: number; dockerIterations?: number } = {},
): Promise<ExecMeasurement> {
  const iterations = Math.max(1, options.iterations ?? EXEC_ITERATIONS);
  const dockerIterations = Math.max(1, options.dockerIterations ?? DOCKER_EXEC_ITERATIONS);
  const created = expectStatus(
    await sidecar.call('POST', '/sessions', { conversation_id: CONVERSATION }),
    201,
    'POST /sessions',
  );
  const sessionId = String(created.json.session_id);
  const containerId = await sessionContainerId(sidecar.archives, CONVERSATION);
  const runOurs = async (): Promise<void> => {
    expectFortyTwo(
      await sidecar.call('POST', '/exec', { session_id: sessionId, code: CODE }),
      'POST /exec',
    );
  };
  const runDocker = async (): Promise<void> => {
    const stdout = await dockerCli(['exec', containerId, 'python3', '-c', CODE]);
    if (stdout !== '42\n') throw new Error(`docker exec printed ${JSON.stringify(stdout)}`);
  };

  for (let warmup = 0; warmup < EXEC_WARMUP; warmup += 1) await runOurs();
  for (let warmup = 0; warmup < DOCKER_EXEC_WARMUP; warmup += 1) await runDocker();

  const ourTimes: number[] = [];
  const dockerTimes: number[] = [];
  const perRound = Math.max(1, Math.ceil(iterations / dockerIterations));
  while (ourTimes.length < iterations || dockerTimes.length < dockerIterations) {
    for (let call = 0; call < perRound && ourTimes.length < iterations; call += 1) {
      ourTimes.push(await timeAsync(runOurs));
    }
    if (dockerTimes.length < dockerIterations) dockerTimes.push(await timeAsync(runDocker));
  }

  // On failure the session is left for the sidecar's close(), which removes every container.
  expectStatus(await sidecar.call('DELETE', `/sessions/${sessionId}`), 204, 'DELETE /sessions');

  const ours = median(ourTimes);
  const raw = median(dockerTimes);
  const ratio = ours / raw;
  const speedup = raw / ours;
  return {
    metric: {
      name: 'sandbox exec',
      measured: { label: `warm /exec ${CODE} over HTTP`, value: ours, unit: 'ms' },
      baseline: { label: 'docker exec python3 -c, same container', value: raw, unit: 'ms' },
      ratio,
      goal: {
        description:
          `ratio ≤ ${(1 / EXEC_SPEEDUP_GOAL).toFixed(2)} (≥ ${EXEC_SPEEDUP_GOAL}× faster)` +
          ` and median < ${EXEC_MEDIAN_GOAL_MS} ms`,
        met: speedup >= EXEC_SPEEDUP_GOAL && ours < EXEC_MEDIAN_GOAL_MS,
        missLabel: ours < EXEC_MEDIAN_GOAL_MS ? 'BELOW SPEEDUP GOAL' : 'ABOVE GOAL',
      },
    },
    notes: [
      `sandbox exec: ${speedup.toFixed(1)}× faster than docker exec; /exec median ` +
        `${ours.toFixed(2)} ms, p90 ${percentile(ourTimes, 0.9).toFixed(2)} ms ` +
        `(${ourTimes.length} calls); docker exec p90 ${percentile(dockerTimes, 0.9).toFixed(0)} ms ` +
        `(${dockerTimes.length} runs)`,
    ],
  };
}

/** The value below which `fraction` of `values` lie (nearest rank). */
export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}
