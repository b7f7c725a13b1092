/**
 * Runs the real `aivory serve --port 0` (bin/aivory.js) in a child process and waits for the URL
 * it prints. `startServe` gives it a fresh data directory (e2e); `serveAt` runs it over an
 * existing one (bench/ui, and the taint suite, in a lab network namespace).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliPlace } from '../../support/run-cli';
import { cliEnv, spawnCli } from '../../support/run-cli';

/** `aivory serve` starts tsx and opens the store; on a loaded 2-core machine that takes a while. */
const START_TIMEOUT_MS = 30_000;

/** A running `aivory serve` over a data directory it does not own. */
export interface RunningServe {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Stops serve (SIGINT) and waits for it to exit. */
  stop(): Promise<void>;
}

export interface ServeProcess extends RunningServe {
  home: string;
}

/**
 * Starts `aivory serve` on `home` with `env` added to a clean CLI environment (in `place`'s
 * network namespace, if any: its URL is then loopback of that namespace).
 */
export async function serveAt(
  home: string,
  env: Record<string, string> = {},
  startTimeoutMs = START_TIMEOUT_MS,
  place: CliPlace = {},
): Promise<RunningServe> {
  const child = spawnCli(['serve', '--port', '0'], cliEnv(home, env), place);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not start:\n${output}`)),
      startTimeoutMs,
    );
    const check = (): void => {
      const match = /running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve(match[1]);
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    },
  };
}

/** Starts `aivory serve` with its own temporary data directory, removed on stop. */
export async function startServe(env: Record<string, string> = {}): Promise<ServeProcess> {
  const home = mkdtempSync(join(tmpdir(), 'aivory-e2e-'));
  const serve = await serveAt(home, env);
  return {
    ...serve,
    home,
    stop: async () => {
      await serve.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
