/**
 * The Electron app of `npm run dev`: started once both bundles are built, restarted when either
 * is rebuilt (a new main process, a fresh preload), and the end of the session when the user
 * closes it. `electron` is required only here, when the app starts: requiring it fetches the binary.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { ROOT } from './dev-configs';

/** A restartable Electron process. */
export interface ElectronProcess {
  /** Starts it, or stops and starts it again. */
  restart(): Promise<void>;
  /** Stops it for good. */
  stop(): Promise<void>;
}

/**
 * The Electron binary's path: what `require('electron')` answers outside Electron. Required at
 * run time, not imported, so the Node program never sees Electron's DOM-laden types.
 */
function electronBinary(): string {
  const path: unknown = createRequire(import.meta.url)('electron');
  if (typeof path !== 'string')
    throw new Error('The electron package did not give its binary path.');
  return path;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Runs `electron .` with `AIVORY_DEV_SERVER_URL`; `onClosed` is called when the app exits by
 * itself (the user quit it), not when it is restarted.
 */
export function electronProcess(devServerUrl: string, onClosed: () => void): ElectronProcess {
  let child: ChildProcess | null = null;
  return {
    async restart() {
      const previous = child;
      child = null;
      if (previous !== null) await stopChild(previous);
      const started = spawn(electronBinary(), ['.'], {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, AIVORY_DEV_SERVER_URL: devServerUrl },
      });
      started.once('exit', () => {
        if (child === started) onClosed();
      });
      child = started;
    },
    async stop() {
      const current = child;
      child = null;
      if (current !== null) await stopChild(current);
    },
  };
}
