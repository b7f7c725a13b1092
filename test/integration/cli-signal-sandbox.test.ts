/**
 * `aivory chat` (the real CLI, its own local sidecar, the real runner image) stopped by SIGTERM or
 * SIGHUP (a closed terminal) while python_execute runs: the turn is interrupted as by Ctrl-C, the
 * session's container and the code in it are stopped before the process exits, and the answer is
 * not stored as complete (issue 37, finding 12: the container and its code ran on until the next
 * sandbox start).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { requireDockerAndImage } from '../../sandbox/test/support/docker-fixture';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, collect, makeDataDir, runCli, spawnCli } from '../support/run-cli';

const call = (code: string) =>
  `<tool_call>${JSON.stringify({ name: 'python_execute', arguments: { code } })}</tool_call>`;

/** How long the CLI may take to stop after the signal, whatever its sandbox is doing. */
const STOP_BOUND_MS = 60_000;

describe('aivory chat stopped by a signal during python_execute', () => {
  let llm: ScriptedLlmServer | null = null;
  afterEach(async () => {
    await llm?.close();
    llm = null;
  });

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`${signal}: the container and its code stop with the CLI; the answer is interrupted`, async () => {
      requireDockerAndImage();
      const marker = `/tmp/started-${randomUUID()}`;
      llm = await startScriptedLlmServer([
        { content: call(`import time\nopen('${marker}', 'w').close()\ntime.sleep(300)`) },
        { content: 'never asked for' },
      ]);
      const home = makeDataDir();
      const env = cliEnv(home, { AIVORY_LOCAL_SANDBOX: '1' });
      const child = spawnCli(
        [
          'chat',
          '--base-url',
          llm.baseUrl,
          '--model',
          'scripted-model',
          '--tool-mode',
          'prompt',
          'Work long',
        ],
        env,
      );
      const finished = collect(child);
      const container = await expect
        .poll(() => containerHolding(marker), { timeout: 120_000, interval: 250 })
        .not.toBeNull()
        .then(() => containerHolding(marker));

      const stoppedAt = Date.now();
      child.kill(signal);
      const result = await Promise.race([
        finished,
        new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), STOP_BOUND_MS)),
      ]);
      if (result === 'hung') child.kill('SIGKILL');
      expect(result, 'the CLI did not stop').not.toBe('hung');
      expect(Date.now() - stoppedAt).toBeLessThan(STOP_BOUND_MS);
      // Stopped before the process ended: no wait for a later start to reap it.
      expect(isRunning(container ?? 'missing')).toBe(false);
      expect(llm.requests).toHaveLength(1);

      const shown = await runCli(['conversations', 'list', '--json'], env);
      expect(shown.stdout).not.toContain('never asked for');
      const listed = JSON.parse(shown.stdout) as { id: string }[];
      const conversation = listed[0]?.id ?? 'missing';
      const exported = await runCli(['conversations', 'export', conversation], env);
      expect(exported.stdout).toMatch(/## Assistant \((interrupted|canceled|error)\)/);
    }, 240_000);
  }
});

/** The id of the session container holding `marker`, or null. */
function containerHolding(marker: string): string | null {
  const ids = execFileSync(
    'docker',
    ['ps', '-q', '--no-trunc', '--filter', 'label=org.aivory.role=session'],
    { encoding: 'utf8' },
  )
    .split('\n')
    .filter(Boolean);
  for (const id of ids) {
    try {
      execFileSync('docker', ['exec', id, 'test', '-e', marker], { stdio: 'ignore' });
      return id;
    } catch {
      // not this one
    }
  }
  return null;
}

function isRunning(container: string): boolean {
  try {
    return (
      execFileSync('docker', ['inspect', '-f', '{{.State.Running}}', container], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() === 'true'
    );
  } catch {
    return false; // removed
  }
}
