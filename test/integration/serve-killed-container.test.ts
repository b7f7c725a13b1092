/**
 * `aivory serve` (the real binary, its own local sidecar, the real runner image) when the
 * container of a conversation is killed under a python_execute call: the turn ends with the
 * tool's result saying what happened to the files, the files written by the earlier call are back
 * for the next call, and SIGTERM then stops serve within a bound (it once hung for minutes).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { requireDockerAndImage } from '../../sandbox/test/support/docker-fixture';
import type { RunningServe } from '../e2e/helpers/serve-process';
import type { TestSocket } from '../support/host/ws-test-client';
import { makeDataDir } from '../support/run-cli';
import {
  pythonCall as call,
  serveWithSandbox,
  sessionContainerHolding,
  stopWithin,
} from '../support/sandbox-serve';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';

/** Marks the long call as running (unique: other tests' containers may run meanwhile). */
const MARKER = `/tmp/started-${randomUUID()}`;

/** Seconds serve may take to stop after SIGTERM, whatever state its sessions are in. */
const STOP_BOUND_MS = 60_000;

interface ToolResult {
  type: 'tool-result';
  status: string;
  output: string;
}

describe('serve with a session container killed mid-call', () => {
  let llm: ScriptedLlmServer | null = null;
  let serve: RunningServe | null = null;
  let socket: TestSocket | null = null;
  afterEach(async () => {
    socket?.close();
    if (serve?.child.exitCode === null) serve.child.kill('SIGKILL');
    await llm?.close();
  });

  it('restores the files, says so, and stops promptly on SIGTERM', async () => {
    requireDockerAndImage();
    llm = await startScriptedLlmServer([
      { content: call("open('kept.txt', 'w').write('written before the kill')\nprint('saved')") },
      {
        content: call(
          `import time\nopen('${MARKER}', 'w').close()\ntime.sleep(300)\nprint('never')`,
        ),
      },
      { content: call("print(open('kept.txt').read())") },
      { content: 'The file survived.' },
    ]);
    const home = makeDataDir();
    ({ serve, socket } = await serveWithSandbox(home, llm));
    const started = await socket.request('chat.send', { text: 'Keep a file, then work long' });
    expect(started.result.ok, JSON.stringify(started.result)).toBe(true);
    const { turnId } = (started.result as { value: { turnId: string } }).value;
    const results = (): ToolResult[] =>
      socket!.frames
        .filter((frame) => frame.type === 'event' && frame.name === 'turn.event')
        .map((frame) => (frame as { payload: { turnId: string; event: unknown } }).payload)
        .filter((payload) => payload.turnId === turnId)
        .map((payload) => payload.event as ToolResult)
        .filter((event) => event.type === 'tool-result');

    // The second call is running once its marker file exists in the session's container.
    const container = await expect
      .poll(() => sessionContainerHolding(MARKER), { timeout: 120_000, interval: 250 })
      .not.toBeNull()
      .then(() => sessionContainerHolding(MARKER));
    execFileSync('docker', ['kill', container ?? 'missing']);

    await expect.poll(() => results().length, { timeout: 120_000 }).toBe(3);
    const [first, killed, after] = results();
    expect(first?.output).toContain('saved');
    expect(killed?.status).toBe('error');
    expect(killed?.output).toContain(
      'The sandbox container stopped while this code was running (it was stopped or killed outside the app, or the container engine restarted). It has been started again: variables and imports are lost.',
    );
    expect(killed?.output).toMatch(
      /note: \/workspace was restored from its last save of [\dT:.Z-]+; files changed after it are lost\./,
    );
    expect(after?.output).toMatch(/stdout:\nwritten before the kill\n/);
    await socket.waitForEvent(
      (frame) =>
        frame.name === 'turn.event' &&
        (frame.payload as { turnId: string; event: { type: string } }).turnId === turnId &&
        (frame.payload as { event: { type: string } }).event.type === 'turn-end',
    );

    const stoppedAt = Date.now();
    const code = await stopWithin(serve.child, 'SIGTERM', STOP_BOUND_MS);
    expect(code, serve.output()).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(STOP_BOUND_MS);
    expect(serve.output()).not.toMatch(/could not be saved|internal error/i);
    // And without the entry's last resort (an exit 10 s after the command finished, naming what
    // was still open): everything serve opened was closed by serve itself.
    expect(serve.output()).not.toContain('was still open');
  }, 300_000);
});
