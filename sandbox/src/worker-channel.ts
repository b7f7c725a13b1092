/**
 * JSON lines to and from the in-container Python worker (protocol 1, sandbox/README.md): one
 * request at a time per id, responses matched by id. A line longer than MAX_LINE_BYTES means the
 * worker is broken or hostile; the channel fails rather than buffering without bound.
 */
import type { AttachedProcess } from './docker-runtime';

/** The worker caps output per stream; a result line is far below this. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

export interface WorkerReady {
  type: 'ready';
  protocol: number;
  pid: number;
  python: string;
  modules: Record<string, boolean>;
  /** The worker's RLIMIT_DATA in bytes (null: none set); absent from older workers. */
  memory_rlimit?: number | null;
  /** The container cgroup's OOM-kill counter (null: unreadable); absent from older workers. */
  oom_kills?: number | null;
}

export interface WorkerExecResult {
  id: number;
  type: 'result';
  status: 'ok' | 'error' | 'interrupted';
  stdout: string;
  stderr: string;
  error: string | null;
  duration_ms: number;
  outputs: { path: string; size: number; mime: string }[];
  stdout_truncated_bytes: number;
  stderr_truncated_bytes: number;
  /** The container cgroup's OOM-kill counter after the cell (null: unreadable). */
  oom_kills?: number | null;
  /**
   * A fingerprint of /workspace after the cell (null: too many entries to walk; absent from
   * older workers): the sidecar saves the workspace when it changed (see workspace-saves.ts).
   */
  workspace_stamp?: string | null;
  /** The stamp before the cell, on a worker's first cell only (see workspace-saves.ts). */
  workspace_stamp_before?: string | null;
}

type Message = Record<string, unknown> & { id?: unknown; type?: unknown };

/** The worker process went away (exit, kill, broken stream). */
export class WorkerGoneError extends Error {
  /** The worker's exit code when it exited (137: SIGKILL, e.g. by the OOM killer). */
  constructor(
    message: string,
    readonly exitCode: number | null = null,
  ) {
    super(message);
    this.name = 'WorkerGoneError';
  }
}

export class WorkerChannel {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (message: Message) => void; reject: (error: Error) => void }
  >();
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private closedError: Error | null = null;
  private readyWaiter: {
    resolve: (ready: WorkerReady) => void;
    reject: (error: Error) => void;
  } | null = null;
  private stderrTail = '';
  /** The cgroup's OOM-kill counter as the worker last reported it (null: unknown). */
  oomKills: number | null = null;
  /**
   * The workspace stamp of the last cell's result; null before the first result, after a cell
   * that gave no result, or when the worker could not compute one (see workspace-saves.ts).
   */
  workspaceStamp: string | null = null;
  /** The stamp before the last cell, when the worker gave one (its first cell). */
  workspaceStampBefore: string | null = null;

  constructor(private readonly process: AttachedProcess) {
    process.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    process.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    void process.exited.then((code) =>
      this.fail(
        new WorkerGoneError(
          `the Python worker exited (code ${code ?? 'unknown'})${this.stderrTail ? `: ${this.stderrTail.trim()}` : ''}`,
          code,
        ),
      ),
    );
  }

  /** Waits for the worker's `ready` line. */
  ready(timeoutMs: number): Promise<WorkerReady> {
    return new Promise((resolve, reject) => {
      if (this.closedError) {
        reject(this.closedError);
        return;
      }
      const timer = setTimeout(
        () => reject(new WorkerGoneError('the Python worker did not start in time')),
        timeoutMs,
      );
      this.readyWaiter = {
        resolve: (ready) => {
          clearTimeout(timer);
          resolve(ready);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  /** Sends a request and resolves with the worker's answer to it. */
  request(message: Record<string, unknown>): Promise<Message> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.process.stdin.write(`${JSON.stringify({ ...message, id })}\n`, (error) => {
        if (error)
          this.fail(new WorkerGoneError(`cannot write to the Python worker: ${error.message}`));
      });
    });
  }

  /**
   * A control request (interrupt, reap-strays, terminate), answered by the worker's reader
   * thread even while a cell runs. Resolves false when no answer came within `timeoutMs`.
   */
  async control(
    type: 'interrupt' | 'reap-strays' | 'terminate',
    timeoutMs: number,
  ): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([
        this.request({ type }).then(
          () => true,
          () => type === 'terminate',
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async exec(code: string, maxOutputBytes: number): Promise<WorkerExecResult> {
    this.workspaceStamp = null;
    this.workspaceStampBefore = null;
    const answer = await this.request({ type: 'exec', code, max_output_bytes: maxOutputBytes });
    if (answer.type !== 'result')
      throw new WorkerGoneError(`unexpected worker answer: ${String(answer.type)}`);
    const result = answer as unknown as WorkerExecResult;
    this.workspaceStamp = stampOf(result.workspace_stamp);
    this.workspaceStampBefore = stampOf(result.workspace_stamp_before);
    return result;
  }

  get closed(): boolean {
    return this.closedError !== null;
  }

  /** Ends stdin (the worker exits on EOF) and fails anything pending. */
  close(): void {
    this.process.stdin.end();
    this.fail(new WorkerGoneError('the worker channel was closed'));
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(0x0a, start);
    while (newline !== -1) {
      this.buffered.push(chunk.subarray(start, newline));
      const line = Buffer.concat(this.buffered).toString('utf8');
      this.buffered = [];
      this.bufferedBytes = 0;
      this.onLine(line);
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) {
      this.buffered.push(chunk.subarray(start));
      this.bufferedBytes += chunk.length - start;
      if (this.bufferedBytes > MAX_LINE_BYTES) {
        this.fail(new WorkerGoneError('the Python worker sent an oversized message'));
        this.process.stdout.destroy();
      }
    }
  }

  private onLine(line: string): void {
    if (line.trim() === '') return;
    let message: Message;
    try {
      const parsed: unknown = JSON.parse(line);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return;
      message = Object.fromEntries(Object.entries(parsed));
    } catch {
      return;
    }
    if (typeof message.oom_kills === 'number') this.oomKills = message.oom_kills;
    if (message.type === 'ready') {
      this.readyWaiter?.resolve(message as unknown as WorkerReady);
      this.readyWaiter = null;
      return;
    }
    if (typeof message.id !== 'number') return;
    const waiter = this.pending.get(message.id);
    if (!waiter) return;
    this.pending.delete(message.id);
    waiter.resolve(message);
  }

  private fail(error: Error): void {
    if (this.closedError) return;
    this.closedError = error;
    this.readyWaiter?.reject(error);
    this.readyWaiter = null;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}

/** A stamp as the worker sent it, bounded; null for anything else. */
function stampOf(value: unknown): string | null {
  return typeof value === 'string' ? value.slice(0, 200) : null;
}
