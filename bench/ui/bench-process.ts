/**
 * The process around each UI bench (bench/ui.ts runs every one in its own): a fresh data
 * directory, a production renderer, the result printed as `UI_BENCH_RESULT <json>` on the last
 * line, a failure on stderr with exit code 1, and the directory removed whatever happened.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import type { BenchResult } from '../bench-result';
import { ensureProductionRenderer } from './production-renderer';

export async function runUiBenchProcess(
  name: string,
  measure: (home: string) => Promise<BenchResult>,
): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), `aivory-${name}-bench-`));
  try {
    ensureProductionRenderer();
    const result = await measure(home);
    process.stdout.write(`UI_BENCH_RESULT ${JSON.stringify(result)}\n`);
  } catch (error) {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
