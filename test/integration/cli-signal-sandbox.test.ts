/**
 * `aivory chat` (the real CLI, its own local sidecar, the real runner image) stopped by SIGTERM or
 * SIGHUP (a closed terminal) while python_execute runs: the turn is interrupted as by Ctrl-C, the
 * session's container and the code in it are stopped before the process exits, and the answer is
 * not stored as complete (issue 37, finding 12: the container and its code ran on until the next
 * sandbox start).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { requireDockerAndImage } from '../../sandbox/test/support/docker-fixture';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, collect, makeDataDir, runCli, spawnCli } from '../support/run-cli';
import {
  containerRunning,
  pythonCall as call,
  sessionContainerHolding,
  stopWithin,
} from '../support/sandbox-serve';

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
        .poll(() => sessionContainerHolding(marker), { timeout: 120_000, interval: 250 })
        .not.toBeNull()
        .then(() => sessionContainerHolding(marker));

      const code = await stopWithin(child, signal, STOP_BOUND_MS);
      if (code === 'hung') child.kill('SIGKILL');
      const result = await finished;
      expect(code, `the CLI did not stop: ${result.stderr}`).not.toBe('hung');
      // Stopped before the process ended: no wait for a later start to reap it.
      expect(containerRunning(container ?? 'missing')).toBe(false);
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
