/**
 * vitest global setup: makes the build (out/: main, CLI, preload, renderer) current before the
 * tests, the same way `aivory` does at start (bin/ensure-build.js), so the tests that spawn
 * `aivory` or drive the UI never wait for — or race on — a rebuild of their own.
 */
import { ensureBuild } from '../../bin/ensure-build.js';

/** Runs once before the test files. */
export default function setup(): void {
  ensureBuild((text) => process.stderr.write(text));
}
