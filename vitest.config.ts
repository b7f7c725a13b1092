import { defineConfig } from 'vitest/config';

/**
 * One runner for everything. Integration tests spawn real processes (SQLite writers killed with
 * SIGKILL, the CLI), so files run in forked workers with generous timeouts.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx', 'sandbox/test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    // The browser e2e tests (test/e2e) drive the built renderer: build it when it is stale.
    globalSetup: ['./test/e2e/helpers/build-renderer.global-setup.ts'],
  },
});
