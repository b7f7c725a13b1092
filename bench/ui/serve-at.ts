/**
 * `aivory serve` over the bench's prepared data directory: the e2e helper, with a longer start
 * deadline (opening a store of 2,000 messages on a loaded machine).
 */
import type { RunningServe } from '../../test/e2e/helpers/serve-process';
import { serveAt as startServeAt } from '../../test/e2e/helpers/serve-process';

export type { RunningServe };

const START_TIMEOUT_MS = 60_000;

/** Starts serve on `home` with `env` added. */
export function serveAt(home: string, env: Record<string, string>): Promise<RunningServe> {
  return startServeAt(home, env, START_TIMEOUT_MS);
}
