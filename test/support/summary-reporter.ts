/**
 * Prints one plain closing line, `Tests: N passed, N failed, N skipped`, after vitest's own report,
 * so any log reader (CI included) can count results without parsing vitest's styled summary.
 * A file that failed without a failed test (it did not load, or a hook of its own failed after its
 * tests passed) counts as one failure.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const testModule of testModules) {
      let failedTests = 0;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failedTests += 1;
        else skipped += 1;
      }
      failed += failedTests;
      if (testModule.state() === 'failed' && failedTests === 0) failed += 1;
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
