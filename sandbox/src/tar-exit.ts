/**
 * How a tar in the container ended, in words: a user reads it inside "Restoring the archived
 * workspace failed: …" or a save's error, where "tar exited with null" said nothing.
 */

/** Exit codes above this are 128 + the number of the signal that ended the process. */
const SIGNAL_EXIT_BASE = 128;
const SIGKILL = 9;

export function describeTarExit(exitCode: number | null): string {
  if (exitCode === null) {
    return 'tar ended without an exit status (its container stopped or the connection to it closed)';
  }
  if (exitCode > SIGNAL_EXIT_BASE) {
    const signal = exitCode - SIGNAL_EXIT_BASE;
    const why = signal === SIGKILL ? ': the container ran out of memory or was stopped' : '';
    return `tar was killed by signal ${signal}${why}`;
  }
  return `tar failed with exit code ${exitCode}`;
}

/**
 * Why a restore's tar failed: tar's own words when it printed any, else its exit in words, and
 * what reading the stored save raised (`feedError`, the real cause when the save is damaged).
 */
export function describeRestoreFailure(
  exitCode: number | null,
  stderr: string,
  feedError: string | null,
): string {
  const tarReason = stderr.trim() || describeTarExit(exitCode);
  if (feedError === null) return tarReason;
  if (stderr.trim() === '') return `the save could not be read (${feedError}); ${tarReason}`;
  return `${tarReason} (reading the save: ${feedError})`;
}
