/**
 * Runs every benchmark in sequence and prints one line per metric. Ratios are against baselines
 * measured in the same run; goals are reported, never enforced, so the exit code is 0 unless a
 * benchmark itself breaks (e.g. the scripted turn did not run as scripted, or the sandbox bench
 * finds no Docker). A broken benchmark is reported as FAILED with its reason and the others
 * still run, so one missing prerequisite does not hide the rest of the report.
 *
 * Usage: `node --import tsx bench/index.ts [--iterations=N] [--only=ui,markdown]` (N: orchestrator
 * turns per side; `--only`: the named benches, e.g. `npm run bench -- --only=cli,ui,ui-paste`).
 */
import process from 'node:process';
import { runBackupBench } from './backup';
import type { BenchResult } from './bench-result';
import { runCliStartupBench } from './cli-startup';
import { runExportAllBench } from './export-all';
import { runKnowledgeBench } from './knowledge';
import { runOrchestratorBench } from './orchestrator';
import { runLinearWorkBench } from './linear-work';
import { runMarkdownBench } from './markdown';
import { runParserThroughputBench } from './parser-throughput';
import { formatResult } from './report';
import { runSandboxBench } from './sandbox';
import {
  runArtifactBench,
  runLongAnswerBench,
  runPasteBench,
  runUiBench,
  runUiOpenBench,
} from './ui';

interface NamedBench {
  name: string;
  run: () => Promise<BenchResult> | BenchResult;
}

/**
 * Runs the benches one after another (never in parallel: they would disturb each other). Returns
 * how many failed; a failure is printed in place of that bench's lines.
 */
async function runAllBenches(options: BenchOptions = {}): Promise<number> {
  const benches: NamedBench[] = [
    { name: 'cli', run: () => runCliStartupBench() },
    { name: 'orchestrator', run: () => runOrchestratorBench(options) },
    { name: 'parser', run: () => runParserThroughputBench() },
    { name: 'linear-work', run: () => runLinearWorkBench() },
    { name: 'markdown', run: () => runMarkdownBench() },
    { name: 'sandbox', run: () => runSandboxBench() },
    { name: 'ui', run: () => runUiBench() },
    { name: 'ui-open', run: () => runUiOpenBench() },
    { name: 'ui-paste', run: () => runPasteBench() },
    { name: 'ui-artifact', run: () => runArtifactBench() },
    { name: 'ui-long', run: () => runLongAnswerBench() },
    { name: 'backup', run: () => runBackupBench() },
    { name: 'export', run: () => runExportAllBench() },
    { name: 'knowledge', run: () => runKnowledgeBench() },
  ];
  const unknown = (options.only ?? []).filter((name) => !benches.some((b) => b.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown bench "${unknown.join('", "')}"; the benches are ${benches.map((b) => b.name).join(', ')}.`,
    );
  }
  let failures = 0;
  for (const bench of benches) {
    if (options.only && !options.only.includes(bench.name)) continue;
    let lines: string[];
    try {
      lines = formatResult(await bench.run());
    } catch (error) {
      failures += 1;
      const reason = error instanceof Error ? error.message : String(error);
      lines = [`${bench.name}: FAILED`, `  note: ${reason}`];
    }
    for (const line of lines) process.stdout.write(`${line}\n`);
  }
  return failures;
}

interface BenchOptions {
  iterations?: number;
  only?: string[];
}

/**
 * Reads `--iterations=N` and `--only=a,b`; anything else in argv is rejected so a typo is not
 * silently ignored.
 */
function parseArguments(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = {};
  for (const argument of argv) {
    const only = /^--only=([\w,-]+)$/.exec(argument);
    if (only?.[1] !== undefined) {
      options.only = only[1].split(',').filter((name) => name !== '');
      continue;
    }
    const match = /^--iterations=(\d+)$/.exec(argument);
    if (match?.[1] === undefined || Number(match[1]) < 1) {
      throw new Error(
        `Unknown argument "${argument}". Usage: bench/index.ts [--iterations=N] [--only=a,b]`,
      );
    }
    options.iterations = Number(match[1]);
  }
  return options;
}

// When the reader goes away (`… | head -1`) there is no one left to report to: stop quietly
// instead of crashing on EPIPE with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

try {
  const failures = await runAllBenches(parseArguments(process.argv.slice(2)));
  if (failures > 0) process.exitCode = 1;
} catch (error) {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
