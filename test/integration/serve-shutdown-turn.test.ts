/**
 * SIGTERM of `aivory serve` (the real binary, its own local sidecar, the real runner image) while
 * a python_execute call runs (issue 37, item 8). The sandbox used to be closed under the call, the
 * turn then sent the model one more request and stored its answer complete. Now the turn is
 * ended first: the model gets no request after the signal, and the answer and its turn record
 * are stored `interrupted`.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
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

/** Marks the call as running (unique: other tests' containers may run meanwhile). */
const MARKER = `/tmp/started-${randomUUID()}`;

/** How long serve may take to stop after SIGTERM. */
const STOP_BOUND_MS = 60_000;

describe('serve stopped while a python_execute call runs', () => {
  let llm: ScriptedLlmServer | null = null;
  let serve: RunningServe | null = null;
  let socket: TestSocket | null = null;
  afterEach(async () => {
    socket?.close();
    if (serve?.child.exitCode === null) serve.child.kill('SIGKILL');
    await llm?.close();
  });

  it('ends the turn as interrupted, with no model request after the signal', async () => {
    requireDockerAndImage();
    llm = await startScriptedLlmServer([
      { content: call(`import time\nopen('${MARKER}', 'w').close()\ntime.sleep(300)`) },
      { content: 'An answer written after the shutdown.' },
    ]);
    const home = makeDataDir();
    ({ serve, socket } = await serveWithSandbox(home, llm));
    const started = await socket.request('chat.send', { text: 'Work long' });
    expect(started.result.ok, JSON.stringify(started.result)).toBe(true);
    const { messageId } = (started.result as { value: { messageId: string } }).value;

    // The call is running once its marker file exists in the session's container.
    await expect
      .poll(() => sessionContainerHolding(MARKER), { timeout: 120_000, interval: 250 })
      .not.toBeNull();
    expect(llm.requests).toHaveLength(1);

    const code = await stopWithin(serve.child, 'SIGTERM', STOP_BOUND_MS);
    expect(code, serve.output()).toBe(0);
    expect(llm.requests).toHaveLength(1);

    const database = new Database(join(home, 'aivory.db'), { readonly: true });
    try {
      const message = database
        .prepare<[string], { status: string }>('SELECT status FROM messages WHERE id = ?')
        .get(messageId);
      const record = database
        .prepare<[string], { stop_reason: string }>(
          'SELECT stop_reason FROM turn_records WHERE message_id = ?',
        )
        .get(messageId);
      expect(message?.status).toBe('interrupted');
      expect(record?.stop_reason).toBe('interrupted');
    } finally {
      database.close();
    }
  }, 300_000);
});
