/**
 * The Python sandbox benchmark (issue 3): warm `/exec` through the real HTTP sidecar vs a raw
 * `docker exec`, a new conversation's first result with vs without the warm pool, and archive +
 * restore of a 50 MiB workspace vs tar/gzip on the host, and (issue 14) the time a 6 GiB memory
 * bomb in a 2 GiB session takes to come back as a MemoryError, against a trivial `/exec` (variables
 * must survive every bomb). Every ratio is against a baseline taken
 * in the same run. Needs dockerd and the runner image; without them it throws a message saying
 * how to get them. Every container it creates is removed before it returns or throws (the
 * host-wide image keepalive only when there was none before).
 */
import { DockerRuntime } from '../sandbox/src/docker-runtime';
import type { BenchResult } from './bench-result';
import { measureArchiveRestore } from './sandbox-archive';
import { measureWarmExec } from './sandbox-exec';
import { measureMemoryBomb } from './sandbox-memory';
import { measureSessionStart } from './sandbox-session-start';
import type { BenchSidecar } from './sandbox-support';
import {
  DOCKER_SOCKET,
  keepaliveRestorer,
  requireDockerAndImage,
  startBenchSidecar,
  waitForWarmPool,
} from './sandbox-support';

export interface SandboxBenchOptions {
  /** Measured warm `/exec` calls (default 250). */
  execIterations?: number;
  /** Measured `docker exec` runs for the exec baseline (default 50). */
  dockerExecIterations?: number;
  /** New conversations per side for the session-start metric (default 10). */
  sessionIterations?: number;
  /** Archive + restore rounds (default 5). */
  archiveIterations?: number;
  /** Memory bombs measured (default 10). */
  memoryBombIterations?: number;
}

export async function runSandboxBench(options: SandboxBenchOptions = {}): Promise<BenchResult> {
  await requireDockerAndImage(new DockerRuntime(DOCKER_SOCKET));
  const restoreKeepalive = await keepaliveRestorer();
  try {
    return await measureAll(options);
  } finally {
    await restoreKeepalive();
  }
}

async function measureAll(options: SandboxBenchOptions): Promise<BenchResult> {
  const problems: string[] = [];
  const sidecarResult = await withSidecars(problems, async (warm, cold) => {
    // Start measuring only once the warm pool the sidecar started with is ready.
    await waitForWarmPool(warm.prefix, new Set());
    const exec = await measureWarmExec(warm, {
      iterations: options.execIterations,
      dockerIterations: options.dockerExecIterations,
    });
    const start = await measureSessionStart(warm, cold, {
      iterations: options.sessionIterations,
    });
    const memory = await measureMemoryBomb(warm, { iterations: options.memoryBombIterations });
    // A container still being created for the pool would outlive close() (see support's close).
    await waitForWarmPool(warm.prefix, new Set());
    return {
      metrics: [exec.metric, start.metric, memory.metric],
      notes: [...exec.notes, ...start.notes, ...memory.notes],
    };
  });
  const archive = await measureArchiveRestore({ iterations: options.archiveIterations });
  return {
    metrics: [...sidecarResult.metrics, ...archive.metrics],
    // Both sidecars log the same environment warnings (e.g. an old runc): report each once.
    notes: [...new Set([...sidecarResult.notes, ...archive.notes, ...problems])],
  };
}

/**
 * Starts a sidecar with a warm pool of one and one without a pool, runs `work`, and closes both
 * whatever happens (close() archives, removes the containers and sweeps the name prefix).
 */
async function withSidecars<T>(
  problems: string[],
  work: (warm: BenchSidecar, cold: BenchSidecar) => Promise<T>,
): Promise<T> {
  const warm = await startBenchSidecar({ SANDBOX_WARM_POOL: '1' }, problems);
  try {
    const cold = await startBenchSidecar({ SANDBOX_WARM_POOL: '0' }, problems);
    try {
      return await work(warm, cold);
    } finally {
      await cold.close();
    }
  } finally {
    await warm.close();
  }
}
