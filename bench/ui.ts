/**
 * `bench/ui` for `npm run bench`: runs bench/ui/run-ui-bench.ts (and, as `ui-open`,
 * bench/ui/run-open-bench.ts; as `ui-paste`, bench/ui/run-paste-bench.ts; as `ui-artifact`,
 * bench/ui/run-artifact-bench.ts; as `ui-long`, bench/ui/run-long-answer-bench.ts) in its own process (it drives
 * Debian's Chromium through playwright-core, whose types live in the e2e TypeScript program) and
 * reads back its BenchResult. Needs /usr/bin/chromium; not part of `npm test`.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { BenchResult } from './bench-result';

const ENTRY = join(import.meta.dirname, 'ui', 'run-ui-bench.ts');
const OPEN_ENTRY = join(import.meta.dirname, 'ui', 'run-open-bench.ts');
/** The 5 MB paste into the composer (`--only=ui-paste`). */
const PASTE_ENTRY = join(import.meta.dirname, 'ui', 'run-paste-bench.ts');
/** The artifact viewer's 100,000-row table scrolled end to end (`--only=ui-artifact`). */
const ARTIFACT_ENTRY = join(import.meta.dirname, 'ui', 'run-artifact-bench.ts');
/** Answers of ~2,000,000 characters streamed and reopened (`--only=ui-long`). */
const LONG_ANSWER_ENTRY = join(import.meta.dirname, 'ui', 'run-long-answer-bench.ts');
const RESULT_PREFIX = 'UI_BENCH_RESULT ';

/** Runs the UI bench; rejects with the child's last error lines when it fails. */
export function runUiBench(): Promise<BenchResult> {
  return runInChild(ENTRY);
}

/** Runs the "open a 20,000-message conversation" bench (bench/ui/run-open-bench.ts). */
export function runUiOpenBench(): Promise<BenchResult> {
  return runInChild(OPEN_ENTRY);
}

/** Runs the paste bench (same process model and result line as the UI bench). */
export function runPasteBench(): Promise<BenchResult> {
  return runInChild(PASTE_ENTRY);
}

/** Runs the artifact viewer's table bench (bench/ui/run-artifact-bench.ts). */
export function runArtifactBench(): Promise<BenchResult> {
  return runInChild(ARTIFACT_ENTRY);
}

/** Runs the long-answer bench (bench/ui/run-long-answer-bench.ts). */
export function runLongAnswerBench(): Promise<BenchResult> {
  return runInChild(LONG_ANSWER_ENTRY);
}

async function runInChild(entry: string): Promise<BenchResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const line = stdout.split('\n').find((output) => output.startsWith(RESULT_PREFIX));
  if (code !== 0 || line === undefined) {
    const reason = stderr.trim().split('\n').slice(-5).join(' | ');
    throw new Error(`${entry} exited with ${code}: ${reason || 'no result'}`);
  }
  const result = JSON.parse(line.slice(RESULT_PREFIX.length)) as BenchResult;
  // JSON has no NaN: a ratio over a zero baseline comes back as null.
  for (const metric of result.metrics) metric.ratio ??= Number.NaN;
  return result;
}
