/**
 * `aivory serve --port 0` (the real bin/aivory.js) over an existing data directory, with the model
 * from AIVORY_* variables; resolves with the URL (token included) it prints.
 */
import type { ChildProcess } from 'node:child_process';
import { cliEnv, spawnCli } from '../../test/support/run-cli';

/** Opening a big store and starting tsx on a loaded machine takes a while. */
const START_TIMEOUT_MS = 60_000;

/** A running `aivory serve`. */
export interface RunningServe {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts serve on `home` with `env` added. */
export async function serveAt(home: string, env: Record<string, string>): Promise<RunningServe> {
  const child = spawnCli(['serve', '--port', '0'], cliEnv(home, env));
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not start:\n${output}`)),
      START_TIMEOUT_MS,
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
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    },
  };
}
