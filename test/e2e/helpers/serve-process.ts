/**
 * Runs the real `aivory serve --port 0` (bin/aivory.js) in a child process with its own data
 * directory and waits for the URL it prints.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, spawnCli } from '../../support/run-cli';

/** `aivory serve` starts tsx and opens the store; on a loaded 2-core machine that takes a while. */
const START_TIMEOUT_MS = 30_000;

export interface ServeProcess {
  url: string;
  home: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `aivory serve` with `env` added to a clean CLI environment. */
export async function startServe(env: Record<string, string> = {}): Promise<ServeProcess> {
  const home = mkdtempSync(join(tmpdir(), 'aivory-e2e-'));
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
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    home,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}
