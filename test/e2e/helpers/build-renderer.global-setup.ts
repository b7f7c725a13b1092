/**
 * vitest global setup of the e2e project only (vitest.config.ts): builds the renderer
 * (`vite build` → out/renderer) when it is missing or older than any renderer or shared source,
 * so the browser tests always drive the current UI. Runs whenever an e2e file is in the run
 * (`npm test`, `npm run test:e2e`), never for unit, integration or sandbox alone. How the
 * renderer is built lives only in `setup()` below, so the build tool can be swapped here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BUILT = join(ROOT, 'out', 'renderer', 'index.html');
const SOURCES = ['src/renderer', 'src/shared', 'vite.config.ts'].map((path) => join(ROOT, path));

function newestMtime(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(
    stats.mtimeMs,
    ...readdirSync(path).map((entry) => newestMtime(join(path, entry))),
  );
}

/** Runs once before the test files. */
export default function setup(): void {
  const built = existsSync(BUILT) ? statSync(BUILT).mtimeMs : 0;
  const newest = Math.max(...SOURCES.filter(existsSync).map(newestMtime));
  if (built >= newest) return;
  // vitest sets NODE_ENV=test, which would give React's development build: build what users run.
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
