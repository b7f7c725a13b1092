/**
 * Makes sure out/renderer is current and a production build before the UI bench measures it:
 * React's development build (what `vite build` gives under NODE_ENV=test, e.g. from a vitest run)
 * is several times slower and would make the figures meaningless.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import buildRendererIfStale from '../../test/e2e/helpers/build-renderer.global-setup';

const ROOT = join(import.meta.dirname, '..', '..');
const ASSETS = join(ROOT, 'out', 'renderer', 'assets');
/** Only React's development build contains this. */
const DEVELOPMENT_MARKER = 'jsxDEV';

function isDevelopmentBuild(): boolean {
  return readdirSync(ASSETS)
    .filter((name) => name.endsWith('.js'))
    .some((name) => readFileSync(join(ASSETS, name), 'utf8').includes(DEVELOPMENT_MARKER));
}

/** Builds the renderer when stale, and again for production if the current build is not. */
export function ensureProductionRenderer(): void {
  buildRendererIfStale();
  if (!isDevelopmentBuild()) return;
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (isDevelopmentBuild()) throw new Error('out/renderer is still a development build');
}
