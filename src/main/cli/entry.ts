/**
 * The `aivory` command's entry in the build (`out/main/cli.cjs`, started by `bin/aivory.js`): runs
 * the command line against this process. No top-level `await`: the build is CommonJS.
 */
import { processIo } from './cli-io';
import { runCli } from './main';

/** How long a finished command may wait for a handle it forgot before it exits anyway. */
const EXIT_GRACE_MS = 10_000;

void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
  armExit();
});

/**
 * The command is done and has closed what it opened; the process now ends when nothing is left
 * to wait for. Something forgotten (a stream the container engine never closed once kept `aivory
 * serve` alive for minutes after SIGTERM) must not keep it running: after a grace period it is
 * named on stderr and the process exits. Output still being written to a slow reader is waited
 * for (the timer is unref'd: a process that can end ends at once).
 */
function armExit(): void {
  setTimeout(() => {
    if (process.stdout.writableLength > 0 || process.stderr.writableLength > 0) {
      armExit();
      return;
    }
    const open = process.getActiveResourcesInfo().filter((name) => name !== 'Timeout');
    process.stderr.write(
      `aivory: stopped, but ${open.join(', ') || 'something'} was still open; exiting anyway.\n`,
    );
    process.exit();
  }, EXIT_GRACE_MS).unref();
}
