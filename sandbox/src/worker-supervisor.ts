/**
 * The Python workers: starts a session container with its worker, runs code under a deadline
 * (interrupt first, then kill and restart a worker that does not stop), restarts a worker that
 * died (telling an OOM kill from other deaths), and reaches a worker in-band before falling back
 * to `docker exec kill`. The worker caps its own memory below the container's limit (worker.py),
 * so most oversized allocations are a MemoryError in the cell; the cgroup limit is the backstop.
 */
import { randomUUID } from 'node:crypto';
import type { ContainerLimits } from './container-template';
import type { DockerRuntime } from './docker-runtime';
import type { ExecResult } from './sandbox-service';
import { SandboxError } from './sandbox-service';
import type { Session, WarmContainer, Worker } from './session-registry';
import type { WorkerExecResult } from './worker-channel';
import { WorkerChannel, WorkerGoneError } from './worker-channel';
import type { WorkspaceSaves } from './workspace-saves';

/** How long a new worker may take to say `ready` (Python start; imports are lazy). */
const WORKER_START_TIMEOUT_MS = 20_000;
/** How long the worker's reader thread gets to answer a control request. */
const CONTROL_TIMEOUT_MS = 1_500;
/** After an interrupt, how long the code gets to stop before the worker is killed. */
const INTERRUPT_GRACE_MS = 3_000;
/** SIGKILL's exit status: the OOM killer, `terminate`, or `kill -KILL`. */
const KILLED_EXIT_CODE = 137;
/**
 * Tries to start a replacement worker. Right after an OOM kill the first start can fail (exit
 * 126 while the killed process's memory is still being reclaimed: seen under gVisor, and in a
 * small container whose memory the dead worker still held), so a worker that exits while
 * starting is tried again after a short, growing pause.
 */
const RESTART_ATTEMPTS = 3;
const RESTART_BACKOFF_MS = 500;
/**
 * Prints the container cgroup's OOM-kill counter: cgroup v2 memory.events or v1
 * memory.oom_control (Linux >= 4.13), both a line `oom_kill <n>`.
 */
const OOM_COUNTER_COMMAND = [
  'sh',
  '-c',
  'cat /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null',
];

/**
 * The container itself stopped under a running cell (killed or stopped outside the app, or the
 * engine restarted): the session manager adds how /workspace was restored.
 */
export const CONTAINER_RESTARTED =
  'The sandbox container stopped while this code was running (it was stopped or killed outside the app, or the container engine restarted). It has been started again: variables and imports are lost.';

export interface WorkerSupervisorOptions {
  runtime: DockerRuntime;
  /** Notes a container restart (its workspace then needs restoring; see workspace-saves.ts). */
  saves: Pick<WorkspaceSaves, 'checkRestarted'>;
  limits: ContainerLimits;
  maxOutputBytes: number;
  /** Prefix of container names. */
  namePrefix: string;
  logger: { warn(message: string, fields?: object): void };
}

export class WorkerSupervisor {
  constructor(private readonly options: WorkerSupervisorOptions) {}

  /** A new session container from the template, with a ready worker. */
  async newContainer(): Promise<WarmContainer> {
    const { runtime, limits } = this.options;
    if (!(await runtime.imagePresent(limits.image))) {
      throw new SandboxError(
        'unavailable',
        `The runner image ${limits.image} is missing. Build it with: npx aivory sandbox image build`,
      );
    }
    const containerId = await runtime.startContainer(limits, {
      name: `${this.options.namePrefix}-${randomUUID().slice(0, 12)}`,
      role: 'session',
    });
    try {
      return { containerId, worker: await this.startWorker(containerId) };
    } catch (error) {
      await runtime.removeContainer(containerId);
      throw error;
    }
  }

  /**
   * A fresh worker for the session's container. A container that stopped is started again; its
   * workspace is then empty, which sets `session.saves.needsRestore` (the caller restores it).
   */
  async restartWorker(session: Session): Promise<Worker> {
    session.worker.channel.close();
    for (let attempt = 1; ; attempt += 1) {
      if (!(await this.options.runtime.containerRunning(session.containerId))) {
        await this.options.runtime.startExistingContainer(session.containerId);
      }
      await this.options.saves.checkRestarted(session);
      try {
        return await this.startWorker(session.containerId);
      } catch (error) {
        // gVisor: an OOM kill can take the whole sandbox down again just after a restart.
        const retry = error instanceof WorkerGoneError || /is not running/.test(String(error));
        if (!retry || attempt >= RESTART_ATTEMPTS) throw error;
        this.options.logger.warn('replacement worker exited while starting; trying again', {
          session: session.id,
          attempt,
          error: error instanceof Error ? error.message : String(error),
        });
        await new Promise((resolve) => setTimeout(resolve, RESTART_BACKOFF_MS * attempt));
      }
    }
  }

  /**
   * Runs `code` until it finishes, the deadline passes or `signal` aborts. A worker that died
   * or did not stop when interrupted is replaced (`session.worker`), with an explanation.
   */
  async runWithDeadline(
    session: Session,
    code: string,
    timeoutSeconds: number,
    signal: AbortSignal,
  ): Promise<ExecResult> {
    const running = session.worker.channel.exec(code, this.options.maxOutputBytes);
    running.catch(() => undefined);
    const stop = await waitForStop(running, timeoutSeconds * 1000, signal);
    if (stop === 'finished') {
      try {
        return fromWorker(await running, false);
      } catch (error) {
        return await this.afterWorkerDied(session, error);
      }
    }
    // Timed out or the caller went away: interrupt, then kill if the code does not yield.
    await this.interruptWorker(session);
    const graceful = await waitForStop(running, INTERRUPT_GRACE_MS, new AbortController().signal);
    const reason =
      stop === 'timeout'
        ? `Execution timed out after ${timeoutSeconds} s`
        : 'The request was canceled';
    const status = stop === 'timeout' ? 'timeout' : 'error';
    if (graceful === 'finished') {
      const outcome = await running.then(
        (result) => ({ result, error: null }),
        (error: unknown) => ({ result: null, error }),
      );
      // Died meanwhile (the OOM killer can take long on a loaded machine): say why.
      if (outcome.error instanceof WorkerGoneError)
        return await this.afterWorkerDied(session, outcome.error);
      const result = outcome.result;
      if (result) {
        // Subprocesses the code started (or a fork bomb) would outlive the interrupt.
        await session.worker.channel.control('reap-strays', CONTROL_TIMEOUT_MS);
        return {
          ...fromWorker(result, false),
          status,
          error: `${reason} and was interrupted; variables are kept.`,
        };
      }
    }
    await this.killWorker(session);
    session.worker = await this.restartWorker(session);
    return {
      ...emptyResult(),
      status,
      error: session.saves.needsRestore
        ? `${reason}. ${CONTAINER_RESTARTED}`
        : `${reason}. The code did not stop when interrupted, so the Python process was restarted: variables and imports are lost, files in /workspace are kept.`,
      worker_restarted: true,
    };
  }

  /** In-band first (no new process needed); `docker exec kill` only if the worker is deaf. */
  async interruptWorker(session: Session): Promise<void> {
    if (await session.worker.channel.control('interrupt', CONTROL_TIMEOUT_MS)) return;
    await this.signalWorker(session, 'INT').catch(() => undefined);
  }

  /** A new worker in a running container (a restart, or a kept container taken over). */
  async startWorker(containerId: string): Promise<Worker> {
    const process = await this.options.runtime.attach(containerId, [
      'python3',
      '-u',
      '/opt/aivory/worker.py',
      `--memory-limit=${this.options.limits.memoryBytes}`,
    ]);
    const channel = new WorkerChannel(process);
    try {
      const ready = await channel.ready(WORKER_START_TIMEOUT_MS);
      return { channel, pid: ready.pid };
    } catch (error) {
      channel.close();
      throw error;
    }
  }

  private async afterWorkerDied(session: Session, error: unknown): Promise<ExecResult> {
    if (!(error instanceof WorkerGoneError)) throw error;
    const outOfMemory = await this.wasOomKilled(session, error);
    this.options.logger.warn('worker died during exec', {
      session: session.id,
      error: error.message,
      outOfMemory,
    });
    session.worker = await this.restartWorker(session);
    if (session.saves.needsRestore) {
      return {
        ...emptyResult(),
        status: 'error',
        error: CONTAINER_RESTARTED,
        worker_restarted: true,
      };
    }
    const restarted =
      'It has been restarted: variables and imports are lost, files in /workspace are kept.';
    return {
      ...emptyResult(),
      status: 'error',
      error: outOfMemory
        ? `The Python process ran out of memory (limit ${formatGiB(this.options.limits.memoryBytes)}) and was killed by the system. ${restarted}`
        : `The Python process was killed while running this code (most often: it ran out of memory). ${restarted}`,
      worker_restarted: true,
    };
  }

  /**
   * Whether the kernel's OOM killer ended the worker: it died of SIGKILL and the cgroup's
   * OOM-kill counter grew since the worker last reported it (after its previous cell, or at
   * start). Read at once with one `docker exec cat`; a container that is gone counts as unknown.
   */
  private async wasOomKilled(session: Session, error: WorkerGoneError): Promise<boolean> {
    const before = session.worker.channel.oomKills;
    if (error.exitCode !== KILLED_EXIT_CODE || before === null) return false;
    try {
      const read = await this.options.runtime.run(session.containerId, OOM_COUNTER_COMMAND);
      const match = /^oom_kill (\d+)$/m.exec(read.stdout.toString('utf8'));
      return match !== null && Number(match[1]) > before;
    } catch {
      return false;
    }
  }

  private async killWorker(session: Session): Promise<void> {
    if (await session.worker.channel.control('terminate', CONTROL_TIMEOUT_MS)) return;
    await this.signalWorker(session, 'KILL').catch(() => undefined);
  }

  /** Signals the worker through the shell's `kill` builtin (works without procps). */
  private async signalWorker(session: Session, signal: 'INT' | 'KILL'): Promise<void> {
    const result = await this.options.runtime.run(session.containerId, [
      'sh',
      '-c',
      'kill -s "$1" "$2"',
      'sh',
      signal,
      String(session.worker.pid),
    ]);
    if (result.exitCode !== 0) {
      this.options.logger.warn('signalling the worker failed', {
        signal,
        stderr: result.stderr.toString('utf8').slice(0, 300),
      });
    }
  }
}

/** Which came first: the worker's answer, the deadline, or the caller's abort. */
function waitForStop(
  running: Promise<unknown>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<'finished' | 'timeout' | 'aborted'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    const onAbort = (): void => finish('aborted');
    function finish(outcome: 'finished' | 'timeout' | 'aborted'): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    }
    if (signal.aborted) finish('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    running.then(
      () => finish('finished'),
      () => finish('finished'),
    );
  });
}

function fromWorker(result: WorkerExecResult, restarted: boolean): ExecResult {
  return {
    status: result.status === 'ok' ? 'ok' : 'error',
    stdout: result.stdout,
    stderr: result.stderr,
    error: result.status === 'interrupted' ? (result.error ?? 'KeyboardInterrupt') : result.error,
    duration_ms: result.duration_ms,
    outputs: result.outputs,
    stdout_truncated_bytes: result.stdout_truncated_bytes,
    stderr_truncated_bytes: result.stderr_truncated_bytes,
    worker_restarted: restarted,
  };
}

/** 2147483648 -> "2 GiB", 536870912 -> "0.5 GiB". */
export function formatGiB(bytes: number): string {
  return `${Number((bytes / 1024 ** 3).toFixed(2))} GiB`;
}

function emptyResult(): ExecResult {
  return {
    status: 'error',
    stdout: '',
    stderr: '',
    error: null,
    duration_ms: 0,
    outputs: [],
    stdout_truncated_bytes: 0,
    stderr_truncated_bytes: 0,
    worker_restarted: false,
  };
}
