/**
 * `aivory` start-up: wall time from spawn to exit of `aivory --help` and `aivory tools` (a fresh
 * data directory, no sandbox) against `node -e 0`, interleaved so machine noise hits all three
 * alike. Goals (issue 10): --help ≤ 3×, tools ≤ 5× the bare Node start. The build is made current
 * first, so no run pays for a rebuild.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureBuild } from '../bin/ensure-build.js';
import type { BenchMetric, BenchResult } from './bench-result';
import { median } from './statistics';

const AIVORY = join(import.meta.dirname, '..', 'bin', 'aivory.js');
const RUNS = 9;
export const HELP_GOAL = 3;
export const TOOLS_GOAL = 5;

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
export function runCliStartupBench(): BenchResult {
  ensureBuild(() => undefined);
  const home = mkdtempSync(join(tmpdir(), 'aivory-cli-bench-'));
  const env = { ...process.env, AIVORY_HOME: home, AIVORY_LOCAL_SANDBOX: '0', NODE_OPTIONS: '' };
  try {
    // One unmeasured round: the store is created, the files are in the page cache.
    timeRun([AIVORY, 'tools'], env);
    const bare: number[] = [];
    const help: number[] = [];
    const tools: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      bare.push(timeRun(['-e', '0'], env));
      help.push(timeRun([AIVORY, '--help'], env));
      tools.push(timeRun([AIVORY, 'tools'], env));
    }
    const baseline = median(bare);
    return {
      metrics: [
        metric('aivory --help', median(help), baseline, HELP_GOAL),
        metric('aivory tools', median(tools), baseline, TOOLS_GOAL),
      ],
      notes: [],
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
