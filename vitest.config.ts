import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';

/**
 * One runner, five projects (`npx vitest run --project <name>`, or `npm run test:<name>`):
 *
 * - unit: test/unit — in-process, in-memory fakes of the ports; no sockets (a setup file makes
 *   listen/connect throw) and no Docker.
 * - integration: test/integration — real processes (SQLite writers killed with SIGKILL, the CLI,
 *   MCP servers), anything over loopback sockets, network namespaces. Needs the build (made current
 *   first).
 * - sandbox: sandbox/test — the sidecar; most files drive the real dockerd and runner image.
 * - conformance: test/conformance — the official MCP conformance suite's client scenarios, each
 *   against its own loopback servers, with Aivory's `aivory mcp` commands as the client.
 * - e2e: test/e2e — Chromium against `aivory serve` and the built renderer (made current first).
 *
 * Unit and integration files run with `isolate: false`: a worker imports the app's modules once and
 * runs file after file in them, instead of importing and transforming the whole graph again for
 * every file (measured: unit 118 → 32 s of CPU, integration 548 → 472 s; the suite is CPU-bound).
 * So a file restores what it changes in the process (process.env, the working directory, fake
 * timers) in its own hooks; SHARED_WORKER_SETUP fails a file that does not. The processes those
 * files start are their own as before.
 *
 * `npm test` runs all five in one run. Files run in forked workers with generous timeouts (they
 * are hang guards, not speed checks; `expect.poll` waits up to 20 s for its condition instead of
 * vitest's 1 s, which a loaded 2-core machine can miss). Reporters are run-wide, so the summary
 * reporter prints its closing `Tests: …` line once for the whole run.
 */
const SHARED_WORKER_SETUP = './test/support/shared-worker.setup.ts';

function project(
  name: string,
  include: string[],
  test: Omit<NonNullable<TestProjectInlineConfiguration['test']>, 'name' | 'include'> = {},
): TestProjectInlineConfiguration {
  return { extends: true, test: { name, include, ...test } };
}

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    // Two files at a time on a 2-core machine: most files wait on processes, sockets, Chromium or
    // dockerd much of the time, so one at a time left a core idle (a measured 74 % of one CPU).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    expect: { poll: { timeout: 20_000 } },
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      project('unit', ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'], {
        // In-memory fakes only: a test that opens a socket fails and belongs to integration.
        setupFiles: ['./test/support/no-sockets.setup.ts', SHARED_WORKER_SETUP],
        isolate: false,
      }),
      project('integration', ['test/integration/**/*.test.ts'], {
        // The CLI tests spawn `aivory` (the built out/main/cli.cjs) and the bundle tests read out/:
        // make the build current once before them (never in parallel from several workers).
        globalSetup: ['./test/support/ensure-build.global-setup.ts'],
        setupFiles: [SHARED_WORKER_SETUP],
        isolate: false,
      }),
      project('sandbox', ['sandbox/test/**/*.test.ts']),
      // The official MCP conformance suite against Aivory's client (its local servers only). Its
      // two files are the longest of the run: the default order (projects by name) starts them
      // first.
      project('conformance', ['test/conformance/**/*.test.ts']),
      project('e2e', ['test/e2e/**/*.test.ts'], {
        // The browser tests drive the built renderer through `aivory serve`.
        globalSetup: [
          './test/support/ensure-build.global-setup.ts',
          './test/e2e/helpers/chromium-server.global-setup.ts',
        ],
      }),
    ],
  },
});
