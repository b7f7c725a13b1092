// Keeps the build (out/) current in a source checkout: `aivory` runs compiled JavaScript, and a
// fresh clone or an edited source must never leave a "not built" app. Plain JavaScript with no
// dependencies, so it runs before anything is built. Used by bin/aivory.js and the test setup.
// Built-ins through `process.getBuiltinModule`, not `import`: an import builds each module's ES
// module facade, which reads every export (~4 ms of every `aivory` start for these three).
const { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } =
  process.getBuiltinModule('node:fs');
const { dirname, join } = process.getBuiltinModule('node:path');
const { fileURLToPath } = process.getBuiltinModule('node:url');

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What the build writes; the oldest of them must be newer than every source. */
export const OUTPUTS = [
  'out/main/cli.cjs',
  'out/main/index.cjs',
  'out/preload/index.cjs',
  'out/renderer/index.html',
].map((path) => join(ROOT, path));
/** What the build reads. */
const SOURCES = ['src', 'sandbox/src', 'electron.vite.config.ts', 'package.json'].map((path) =>
  join(ROOT, path),
);
const LOCK = join(ROOT, 'out', '.build-lock');
/** A lock older than this belongs to a build that died. */
const STALE_LOCK_MS = 10 * 60_000;
const ELECTRON_VITE = join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');

/**
 * The newest modification time under `path` (a file, or a folder's own and every entry's: a
 * deleted file shows as its folder's). On every `aivory` start in a checkout, so it stats files
 * only: folders are told apart by their directory entries (symbolic links are followed).
 */
export function newestMtime(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = `${path}/${entry.name}`;
    const mtime =
      entry.isDirectory() || entry.isSymbolicLink()
        ? newestMtime(child)
        : (statSync(child, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

function oldestOutput() {
  let oldest = Infinity;
  for (const path of OUTPUTS) {
    try {
      oldest = Math.min(oldest, statSync(path).mtimeMs);
    } catch {
      return 0;
    }
  }
  return oldest;
}

/** Why the build must run ('missing' / 'stale'), or null when it is current. */
export function buildState() {
  const built = oldestOutput();
  if (built === 0) return 'missing';
  // An installed copy without sources (or without the build tools) uses what it has.
  if (!existsSync(join(ROOT, 'src'))) return null;
  return SOURCES.some((path) => newestMtime(path) > built) ? 'stale' : null;
}

function sleep(milliseconds) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

/** Takes the build lock (one build at a time across processes); false if another build ran. */
function lock(log) {
  let waited = false;
  for (;;) {
    try {
      mkdirSync(dirname(LOCK), { recursive: true });
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      return { waited };
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let age = 0;
    try {
      age = Date.now() - statSync(LOCK).mtimeMs;
    } catch {
      continue;
    }
    if (age > STALE_LOCK_MS) {
      rmSync(LOCK, { recursive: true, force: true });
      continue;
    }
    if (!waited) log('aivory: waiting for another build to finish…\n');
    waited = true;
    sleep(200);
  }
}

/**
 * Builds when the output is missing or older than the sources, printing a progress line on
 * `log`. Returns normally when the build is current; throws with a clear message when it cannot
 * be made so (no build tools installed, a failing build).
 */
export function ensureBuild(log = (text) => process.stderr.write(text)) {
  const state = buildState();
  if (state === null) return;
  if (!existsSync(ELECTRON_VITE)) {
    if (state === 'stale') return; // no build tools here: run what was built
    throw new Error(
      'aivory is not built and the build tools are missing: run `npm install` in ' + ROOT,
    );
  }
  const { waited } = lock(log);
  try {
    // Another process may have built it while this one waited for the lock.
    if (waited && buildState() === null) return;
    log(
      state === 'missing'
        ? 'aivory: building the app (first run)…\n'
        : 'aivory: sources changed since the last build; rebuilding…\n',
    );
    const started = Date.now();
    // node:child_process only for a build: loading it costs every start several milliseconds.
    const { spawnSync } = process.getBuiltinModule('node:child_process');
    const result = spawnSync(process.execPath, [ELECTRON_VITE, 'build', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      // The tests run with NODE_ENV=test, which would build React's development bundle.
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (result.status !== 0) {
      const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n');
      throw new Error(
        `the build failed (npm run build shows why):\n${output.slice(-20).join('\n')}`,
      );
    }
    log(`aivory: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

// `node bin/ensure-build.js` (the package's `prepare`, run by `npm install` in a clone).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    ensureBuild((text) => process.stdout.write(text));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
