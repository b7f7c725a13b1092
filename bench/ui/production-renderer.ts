/**
 * Makes sure out/renderer is current and a production build before the UI bench measures it:
 * React's development build (what a build under NODE_ENV=test or development gives)
 * is several times slower and would make the figures meaningless.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuild } from '../../bin/ensure-build.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ASSETS = join(ROOT, 'out', 'renderer', 'assets');
/** Only React's development build contains this. */
const DEVELOPMENT_MARKER = 'jsxDEV';

function isDevelopmentBuild(): boolean {
  return readdirSync(ASSETS)
    .filter((name) => name.endsWith('.js'))
    .some((name) => readFileSync(join(ASSETS, name), 'utf8').includes(DEVELOPMENT_MARKER));
}

/** Builds when stale (always for production), and again if the current build is not production. */
export function ensureProductionRenderer(): void {
  ensureBuild(() => undefined);
  if (!isDevelopmentBuild()) return;
  // Built by hand with another NODE_ENV: make it stale so ensureBuild builds for production.
  rmSync(join(ROOT, 'out', 'renderer', 'index.html'));
  ensureBuild(() => undefined);
  if (isDevelopmentBuild()) throw new Error('out/renderer is still a development build');
}
