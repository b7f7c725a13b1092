#!/usr/bin/env node
// The `aivory` command: runs the built CLI (out/main/cli.cjs). In a source checkout the build is
// made (or remade, when a source is newer) first, with a progress line on stderr.
import { ensureBuild } from './ensure-build.js';

try {
  ensureBuild();
} catch (error) {
  process.stderr.write(`aivory: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
enableCompileCache();
// CommonJS (see electron.vite.config.ts): required, so its chunks never meet the ES module loader.
process.getBuiltinModule('node:module').createRequire(import.meta.url)('../out/main/cli.cjs');

/**
 * Node's compile cache (V8's compiled code of the built modules, kept between runs): without it
 * every start parses and compiles ~1 MB of JavaScript again, about a tenth of `aivory tools`
 * (issue 24). Kept in the user's own cache folder, not in Node's default (the shared temporary
 * folder, where another user could plant entries). NODE_COMPILE_CACHE (another folder) and
 * NODE_DISABLE_COMPILE_CACHE=1 (none) are Node's own and win. A folder that cannot be made only
 * means no cache.
 */
function enableCompileCache() {
  const { enableCompileCache: enable } = process.getBuiltinModule('node:module');
  if (typeof enable !== 'function' || process.env.NODE_COMPILE_CACHE) return;
  const folder = userCacheFolder();
  if (folder === null) return;
  try {
    process.getBuiltinModule('node:fs').mkdirSync(folder, { recursive: true, mode: 0o700 });
    enable(folder);
  } catch {
    // No cache: the start is slower, nothing else changes.
  }
}

/** `~/.cache/aivory/node-compile-cache` (or the platform's cache folder), null when unknown. */
function userCacheFolder() {
  const { env, platform } = process;
  const { join, isAbsolute } = process.getBuiltinModule('node:path');
  const home = process.getBuiltinModule('node:os').homedir();
  if (platform === 'win32') {
    return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'Aivory', 'node-compile-cache') : null;
  }
  if (!home) return null;
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'Aivory', 'node-compile-cache');
  const cacheHome =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : join(home, '.cache');
  return join(cacheHome, 'aivory', 'node-compile-cache');
}
