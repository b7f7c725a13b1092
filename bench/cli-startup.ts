/**
 * `aivory` start-up: wall time from spawn to exit of `aivory --help`, `aivory tools` (a fresh
 * data directory, no sandbox) and `aivory tools` with the local sandbox on and the container engine
 * running (python_execute then needs the engine check) against `node -e 0`, interleaved so
 * machine noise hits them all alike. Goals: --help ≤ 3×, tools ≤ 5× (issue 10), tools with the
 * engine ≤ 3× (issue 24). Without a reachable engine the last case is left out with a note. The
 * build is made current first, so no run pays for a rebuild.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureBuild } from '../bin/ensure-build.js';
import { checkEngine, loadSandboxConfig } from '../sandbox/src/engine-check';
import type { BenchMetric, BenchResult } from './bench-result';
import { median } from './statistics';

const AIVORY = join(import.meta.dirname, '..', 'bin', 'aivory.js');
/** Starts of each case: a start takes 30-100 ms, and the median of a few varies by ±10 %. */
const RUNS = 21;
export const HELP_GOAL = 3;
export const TOOLS_GOAL = 5;
export const TOOLS_WITH_ENGINE_GOAL = 3;

/**
 * What `aivory tools` finds for a local sandbox here (null when no engine answers), and how long
 * the engine takes to answer the check from a warm process: the part of the engine case that is
 * dockerd's, not the start's.
 */
async function engineState(
  env: NodeJS.ProcessEnv,
): Promise<{ state: string; answerMs: number } | null> {
  const config = loadSandboxConfig({
    ...env,
    SANDBOX_API_KEY: randomBytes(24).toString('base64url'),
  });
  const check = await checkEngine(config.dockerSocket, config.runtime, config.image);
  if (!check.ok && check.problem === 'unreachable') return null;
  const answers: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const startedAt = performance.now();
    await checkEngine(config.dockerSocket, config.runtime, config.image);
    answers.push(performance.now() - startedAt);
  }
  const state = check.ok
    ? `engine running, image ${config.image}`
    : check.problem === 'image'
      ? `engine running, no image ${config.image}`
      : 'engine running';
  return { state, answerMs: median(answers) };
}

/** Milliseconds from spawn to exit; throws when the command fails. */
function timeRun(args: readonly string[], env: NodeJS.ProcessEnv): number {
  const startedAt = performance.now();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - startedAt;
  if (result.status !== 0) {
    throw new Error(
      `node ${args.join(' ')} exited with ${result.status}: ${String(result.stderr)}`,
    );
  }
  return elapsed;
}

function metric(label: string, value: number, baseline: number, goal: number): BenchMetric {
  const ratio = value / baseline;
  return {
    name: 'cli',
    measured: { label, value, unit: 'ms' },
    baseline: { label: 'node -e 0', value: baseline, unit: 'ms' },
    ratio,
    goal: { description: `≤ ${goal}× node -e 0`, met: ratio <= goal, missLabel: 'ABOVE GOAL' },
  };
}

/** Runs the start-up bench. */
export async function runCliStartupBench(): Promise<BenchResult> {
  ensureBuild(() => undefined);
  const home = mkdtempSync(join(tmpdir(), 'aivory-cli-bench-'));
  const env = { ...process.env, AIVORY_HOME: home, AIVORY_LOCAL_SANDBOX: '0', NODE_OPTIONS: '' };
  const withEngine: NodeJS.ProcessEnv = { ...env };
  delete withEngine.AIVORY_LOCAL_SANDBOX;
  const engine = await engineState(withEngine);
  try {
    // One unmeasured round: the store is created, the files are in the page cache.
    timeRun([AIVORY, 'tools'], env);
    if (engine !== null) timeRun([AIVORY, 'tools'], withEngine);
    const bare: number[] = [];
    const help: number[] = [];
    const tools: number[] = [];
    const toolsWithEngine: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      bare.push(timeRun(['-e', '0'], env));
      help.push(timeRun([AIVORY, '--help'], env));
      tools.push(timeRun([AIVORY, 'tools'], env));
      if (engine !== null) toolsWithEngine.push(timeRun([AIVORY, 'tools'], withEngine));
    }
    const baseline = median(bare);
    const metrics = [
      metric('aivory --help', median(help), baseline, HELP_GOAL),
      metric('aivory tools', median(tools), baseline, TOOLS_GOAL),
    ];
    if (engine !== null) {
      metrics.push(
        metric(
          `aivory tools (${engine.state})`,
          median(toolsWithEngine),
          baseline,
          TOOLS_WITH_ENGINE_GOAL,
        ),
      );
    }
    return {
      metrics,
      notes:
        engine === null
          ? ['no container engine answers here: aivory tools with the engine was not measured']
          : [
              `the engine answers the check in ${engine.answerMs.toFixed(1)} ms (median of 5, from a warm process): that part of the engine case is dockerd's`,
            ],
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
