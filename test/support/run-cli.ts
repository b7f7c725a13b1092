/**
 * Runs the real `aivory` command (bin/aivory.js) in a child process with its own data directory,
 * asynchronously, so a scripted server in the test process can answer it; optionally inside a
 * lab network namespace (`ip netns exec`, see netns-lab.ts).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const AIVORY_BIN = fileURLToPath(new URL('../../bin/aivory.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Standard error without the notes `bin/aivory.js` prints when it rebuilds first (the sources
 * changed since the last build: other work in the same tree while the test runs).
 */
export function withoutBuildNotes(stderr: string): string {
  return stderr.replace(/^aivory: (waiting for another build|sources changed|built in).*\n/gm, '');
}

export function makeDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'aivory-cli-'));
}

/** Environment for a child CLI: no inherited AIVORY_* settings, only what the test passes. */
export function cliEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('AIVORY_') && !key.startsWith('OPENAI_')) env[key] = value;
  }
  // No local sandbox unless a test asks for one: starting Docker containers is slow.
  return { ...env, AIVORY_HOME: home, NO_COLOR: '1', AIVORY_LOCAL_SANDBOX: '0', ...extra };
}

export interface CliPlace {
  /** Run inside this network namespace (`ip netns exec NAME node …`: the pid is node's). */
  namespace?: string;
  /** Written to the child's standard input (else stdin is closed). */
  input?: string;
}

export function spawnCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  place: CliPlace = {},
): ChildProcess {
  const command = [process.execPath, AIVORY_BIN, ...args];
  const [file = '', ...rest] = place.namespace
    ? ['ip', 'netns', 'exec', place.namespace, ...command]
    : command;
  const child = spawn(file, rest, {
    env,
    stdio: [place.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (place.input !== undefined) child.stdin?.end(place.input);
  return child;
}

export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  place: CliPlace = {},
): Promise<CliResult> {
  const child = spawnCli(args, env, place);
  return collect(child);
}

export function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Parses `--json` output: one event per line. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
