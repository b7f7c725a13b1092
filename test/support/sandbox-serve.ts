/**
 * What the tests that stop or kill things under a running python_execute share: a serve with its
 * own local sidecar talking to a scripted model, the session container a call is running in (found
 * by a marker file the call writes), and a bounded wait for a process to exit.
 */
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import type { RunningServe } from '../e2e/helpers/serve-process';
import { serveAt } from '../e2e/helpers/serve-process';
import type { TestSocket } from './host/ws-test-client';
import { connectTestSocket } from './host/ws-test-client';
import type { ScriptedLlmServer } from './scripted-llm-server';

/** A prompt-mode python_execute call, as the scripted model writes it. */
export const pythonCall = (code: string): string =>
  `<tool_call>${JSON.stringify({ name: 'python_execute', arguments: { code } })}</tool_call>`;

/** `aivory serve` over `home` with its local sandbox and `llm` as its model, and a socket to it. */
export async function serveWithSandbox(
  home: string,
  llm: ScriptedLlmServer,
): Promise<{ serve: RunningServe; socket: TestSocket }> {
  const serve = await serveAt(home, {
    AIVORY_LOCAL_SANDBOX: '1',
    AIVORY_BASE_URL: llm.baseUrl,
    AIVORY_MODEL: 'scripted-model',
    AIVORY_TOOL_MODE: 'prompt',
  });
  const url = new URL(serve.url);
  const socket = await connectTestSocket(
    `ws://${url.host}/ws?token=${url.searchParams.get('token') ?? ''}`,
    { origin: `http://${url.host}` },
  );
  return { serve, socket };
}

/** The id of the running session container holding `marker`, or null. */
export function sessionContainerHolding(marker: string): string | null {
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

/** Whether the container still runs (false once it stopped or was removed). */
export function containerRunning(id: string): boolean {
  try {
    return (
      execFileSync('docker', ['inspect', '-f', '{{.State.Running}}', id], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() === 'true'
    );
  } catch {
    return false;
  }
}

/** Sends `signal` and waits at most `boundMs` for the exit: its code, or 'hung'. */
export async function stopWithin(
  child: ChildProcess,
  signal: NodeJS.Signals,
  boundMs: number,
): Promise<number | null | 'hung'> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill(signal);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      exited,
      new Promise<'hung'>((resolve) => {
        timer = setTimeout(() => resolve('hung'), boundMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
