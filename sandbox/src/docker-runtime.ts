/**
 * The sidecar's only door to the container engine (dockerode): Docker, or Podman through its
 * Docker-compatible socket. Containers come from `container-template.ts`;
 * commands run through `docker exec` with their output demultiplexed and bounded. Files move as
 * streams through exec (`tar`, `cat`), because putArchive/getArchive fail on a read-only root and
 * on tmpfs mounts (measured here; moby#22020).
 */
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { Duplex, Readable, Writable } from 'node:stream';
import Docker from 'dockerode';
import type { ContainerLimits } from './container-template';
import type { RuntimeChoice, RuntimeSetting } from './engine-policy';
import { chooseRuntime, engineInfoFrom, isPodman } from './engine-policy';
import type { CgroupLimit, DockerInfo, EngineInfo, EngineKind, PodmanInfo } from './engine-policy';
import {
  MANAGED_LABEL,
  sessionContainerOptions,
  SANDBOX_USER,
  WORKSPACE,
} from './container-template';
import { demultiplex } from './exec-demux';
import { TransferPipes } from './transfer-pipes';

import { SandboxError } from './sandbox-service';

/** Output kept from a helper command (kill, stat, mkdir): they print little; this bounds a surprise. */
const MAX_COLLECTED_BYTES = 4 * 1024 * 1024;

export interface ManagedContainer {
  id: string;
  name: string;
  role: string;
  conversationId: string | null;
  running: boolean;
}

export interface AttachedProcess {
  /** Writes to the process's stdin. */
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  /** Resolves with the exit code once the process ended and its streams closed. */
  exited: Promise<number | null>;
}

export interface CollectedOutput {
  exitCode: number | null;
  stdout: Buffer;
  stderr: Buffer;
}

export class DockerRuntime {
  private readonly docker: Docker;
  private choice: Promise<RuntimeChoice> | null = null;
  /** `prlimit …` to run exec'd commands under, per container, where the engine dropped Ulimits. */
  private readonly execRlimits = new Map<string, string[]>();
  /**
   * The attached `docker exec` streams still open, per container. The engine does not always
   * close an exec's stream when its container is killed or removed (seen under load: the stream
   * of a worker whose container was removed stayed open and kept `aivory serve` from exiting),
   * so the runtime ends them itself: those of a container it removes, and all at `release()`.
   */
  private readonly openStreams = new Map<string, Set<Duplex>>();
  /**
   * Exec starts still waiting for the engine's answer, per container: one sent while its container
   * died may never be answered, and its socket held `aivory serve` open after SIGTERM too.
   */
  private readonly pendingStarts = new Map<string, Set<AbortController>>();
  /** When each open exec stream was opened (ms): a death ends only the streams it predates. */
  private readonly openedAt = new WeakMap<Duplex, number>();
  /** The engine's events of our containers dying (`watchDeaths`); null until needed or when lost. */
  private deaths: Readable | null = null;
  private deathsStarting = false;
  private released = false;
  /** Session containers' transfer directories (transfer-pipes.ts), by container id. */
  private readonly transferDirs = new Map<string, string>();
  private readonly pipes = new TransferPipes();
  /** Cleared when the engine refused a container with the pipes' mount: later ones go without. */
  private pipesMountable = true;

  constructor(
    socketPath: string,
    private readonly runtimeSetting: RuntimeSetting = 'auto',
  ) {
    this.docker = new Docker({ socketPath });
  }

  /** Docker or Podman, its version and runtimes; null when the engine does not answer. */
  async engineInfo(): Promise<EngineInfo | null> {
    try {
      const [version, info] = await Promise.all([this.docker.version(), this.docker.info()]);
      const podman = isPodman(version) ? await this.libpodInfo() : null;
      return engineInfoFrom(version, info as DockerInfo, podman);
    } catch {
      return null;
    }
  }

  /**
   * Podman's own `GET /libpod/info` (beside its Docker-compatible API on the same socket). Its
   * libpod routes need a version prefix (unversioned is 404); any version matches.
   */
  private libpodInfo(): Promise<PodmanInfo> {
    return new Promise((resolve, reject) => {
      this.docker.modem.dial(
        { path: '/v4.0.0/libpod/info', method: 'GET', statusCodes: { 200: true }, options: {} },
        (error: unknown, body: unknown) =>
          error
            ? reject(error instanceof Error ? error : new Error(String(error)))
            : resolve(body as PodmanInfo),
      );
    });
  }

  /** The runtime choice for this engine and setting, asked once (again after a failure). */
  async runtimeChoice(): Promise<RuntimeChoice> {
    this.choice ??= this.engineInfo().then((info) =>
      info === null
        ? { ok: false, error: 'The container engine is not reachable.' }
        : chooseRuntime(this.runtimeSetting, info),
    );
    const choice = await this.choice;
    if (!choice.ok) this.choice = null;
    return choice;
  }

  /** True when the daemon answers. */
  async ping(): Promise<boolean> {
    try {
      await this.docker.ping();
      return true;
    } catch {
      return false;
    }
  }

  /** The daemon's runc version (`docker version` components), or null if unknown. */
  async runcVersion(): Promise<string | null> {
    try {
      const version = await this.docker.version();
      const runc = version.Components?.find((component) => component.Name === 'runc');
      if (runc) return runc.Version;
      // Podman: {"Name": "OCI Runtime (runc)", "Version": "runc version 1.1.5+ds1\ncommit: …"}.
      const podmanRunc = version.Components?.find((component) =>
        /^OCI Runtime \(runc\)$/.test(component.Name),
      );
      return /runc version (\S+)/.exec(podmanRunc?.Version ?? '')?.[1] ?? null;
    } catch {
      return null;
    }
  }

  async imagePresent(image: string): Promise<boolean> {
    try {
      await this.docker.getImage(image).inspect();
      return true;
    } catch {
      return false;
    }
  }

  /** Creates and starts a container from the fixed template; returns its id. */
  async startContainer(
    limits: ContainerLimits,
    options: { name: string; role: 'session' | 'keepalive'; conversationId?: string },
  ): Promise<string> {
    const choice = await this.runtimeChoice();
    if (!choice.ok) throw new SandboxError('unavailable', choice.error);
    // Not under gVisor: with a tar waiting in a host FIFO's open(), its sandbox died now and then
    // (tests: "the container stopped while this code was running"); docker exec's stdio it is.
    const transferDir =
      options.role === 'session' && this.pipesMountable && choice.runtime !== 'runsc'
        ? await this.pipes.prepare(options.name)
        : null;
    const createOptions = sessionContainerOptions(limits, {
      ...options,
      runtime: choice.runtime,
      engine: choice.engine,
      nprocLimit: processRlimit(choice, limits),
      ...(transferDir === null ? {} : { transferDir }),
    });
    if (options.conversationId) {
      createOptions.Labels = {
        ...createOptions.Labels,
        'org.aivory.conversation': options.conversationId,
      };
    }
    const container = await this.docker
      .createContainer(createOptions)
      .catch((error: unknown) => {
        if (transferDir === null || !/mount|bind|no such file/i.test(String(error))) throw error;
        // An engine that cannot see the host's temporary directory (a confined or remote one)
        // refuses the mount: the container goes without, and so do later ones (exec stdio).
        this.pipesMountable = false;
        return this.docker.createContainer({
          ...createOptions,
          HostConfig: { ...createOptions.HostConfig, Binds: [] },
        });
      })
      .catch(async (error: unknown) => {
        if (transferDir !== null) await this.pipes.remove(transferDir);
        // Podman runs Init: true through catatonit, a separate package on Debian.
        if (/container-init binary not found/.test(String(error))) {
          throw new SandboxError(
            'unavailable',
            `Podman cannot start the container's init process: install catatonit (apt-get install catatonit). ${String(error)}`,
          );
        }
        throw error;
      });
    try {
      await container.start();
    } catch (error) {
      await container.remove({ force: true }).catch(() => undefined);
      if (transferDir !== null) await this.pipes.remove(transferDir);
      throw error;
    }
    if (transferDir !== null) {
      if (this.pipesMountable) this.transferDirs.set(container.id, transferDir);
      else await this.pipes.remove(transferDir);
    }
    if (choice.engine === 'podman' && choice.rootless) {
      this.execRlimits.set(container.id, prlimitArgs(createOptions.HostConfig?.Ulimits ?? []));
    }
    return container.id;
  }

  /** The host directory of the container's transfer pipes, or null when it has none. */
  transferDir(containerId: string): string | null {
    return this.transferDirs.get(containerId) ?? null;
  }

  async removeContainer(id: string): Promise<void> {
    this.execRlimits.delete(id);
    try {
      await this.docker.getContainer(id).remove({ force: true });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    // Nothing can come through an exec of a removed container any more.
    this.endStreams(id);
    const transferDir = this.transferDirs.get(id);
    this.transferDirs.delete(id);
    if (transferDir !== undefined) await this.pipes.remove(transferDir);
  }

  /**
   * Ends every exec stream still open (the sidecar stops): the processes behind them see their
   * stdin close, and this process is not kept alive by a stream the engine forgot to close.
   */
  release(): void {
    this.released = true;
    this.deaths?.destroy();
    this.deaths = null;
    const ids = new Set([...this.openStreams.keys(), ...this.pendingStarts.keys()]);
    for (const id of ids) this.endStreams(id);
    this.transferDirs.clear();
    this.pipes.close();
  }

  /** How many exec streams are open (tests). */
  openStreamCount(): number {
    let count = 0;
    for (const streams of this.openStreams.values()) count += streams.size;
    return count;
  }

  private endStreams(containerId: string): void {
    const streams = this.openStreams.get(containerId);
    this.openStreams.delete(containerId);
    for (const stream of streams ?? []) stream.destroy();
    const starts = this.pendingStarts.get(containerId);
    this.pendingStarts.delete(containerId);
    for (const start of starts ?? []) start.abort(new Error('the sandbox is stopping'));
  }

  async containerRunning(id: string): Promise<boolean> {
    try {
      const info = await this.docker.getContainer(id).inspect();
      return info.State.Running;
    } catch {
      return false;
    }
  }

  /**
   * Whether the container runs and when it last started (Docker's `State.StartedAt`); null when it
   * is gone. A start time that changed means the container was restarted: its tmpfs workspace is
   * new and empty.
   */
  async containerState(id: string): Promise<{ running: boolean; startedAt: string } | null> {
    try {
      const info = await this.docker.getContainer(id).inspect();
      return { running: info.State.Running, startedAt: info.State.StartedAt };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async startExistingContainer(id: string): Promise<void> {
    await this.docker.getContainer(id).start();
  }

  /** Our containers (by label), including ones a previous sidecar left behind. */
  async listManaged(): Promise<ManagedContainer[]> {
    const containers = await this.docker.listContainers({
      all: true,
      filters: { label: [`${MANAGED_LABEL}=1`] },
    });
    return containers.map((container) => ({
      id: container.Id,
      name: (container.Names[0] ?? '').replace(/^\//, ''),
      role: container.Labels['org.aivory.role'] ?? 'session',
      conversationId: container.Labels['org.aivory.conversation'] ?? null,
      running: container.State === 'running',
    }));
  }

  /**
   * Starts `command` in the container with stdin attached and stdout/stderr as separate streams.
   * The process keeps running until it exits or is killed; ending our end does not stop it.
   */
  attach(
    containerId: string,
    command: string[],
    options: { user?: string } = {},
  ): Promise<AttachedProcess> {
    return this.startExec(containerId, command, options.user, (stream) => {
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      this.docker.modem.demuxStream(stream, stdout, stderr);
      return { stdout, stderr };
    });
  }

  /**
   * Like `attach`, for commands that move a lot of data (`tar` for archive and restore): output
   * is split by `demultiplex` (no copies, backpressure), and stdout holds up to `chunkBytes`.
   */
  attachBulk(
    containerId: string,
    command: string[],
    options: { user?: string; chunkBytes?: number } = {},
  ): Promise<AttachedProcess> {
    return this.startExec(containerId, command, options.user, (stream) => {
      const stdout = new PassThrough({ highWaterMark: options.chunkBytes ?? 1024 * 1024 });
      const stderr = new PassThrough();
      demultiplex(stream, stdout, stderr);
      return { stdout, stderr };
    });
  }

  /** One `docker exec` with stdin attached; `split` turns its stream into stdout and stderr. */
  private async startExec(
    containerId: string,
    command: string[],
    user: string | undefined,
    split: (stream: Duplex) => { stdout: PassThrough; stderr: PassThrough },
  ): Promise<AttachedProcess> {
    const exec = await this.docker.getContainer(containerId).exec({
      Cmd: [...(this.execRlimits.get(containerId) ?? []), ...command],
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      User: user ?? SANDBOX_USER,
      WorkingDir: WORKSPACE,
    });
    this.watchDeaths();
    const start = new AbortController();
    const startDone = trackIn(this.pendingStarts, containerId, start);
    const openedAt = Date.now();
    const stream = await startAttachedExec(exec, start).finally(startDone);
    this.openedAt.set(stream, openedAt);
    const untrack = trackIn(this.openStreams, containerId, stream);
    const { stdout, stderr } = split(stream);
    const exited = new Promise<number | null>((resolve) => {
      let settled = false;
      const finish = (): void => {
        if (settled) return;
        settled = true;
        untrack();
        stdout.end();
        stderr.end();
        exec
          .inspect()
          .then((info) => resolve(info.ExitCode ?? null))
          .catch(() => resolve(null));
      };
      stream.on('end', finish);
      stream.on('close', finish);
      stream.on('error', finish);
    });
    // Ending the hijacked stream half-closes it: the process sees EOF on stdin while its
    // output keeps arriving.
    return { stdin: stream, stdout, stderr, exited };
  }

  /**
   * Follows the engine's `die` events of our containers and ends the exec streams a death
   * predates: the engine does not always close them itself — under gVisor, a worker whose
   * container the OOM killer stopped kept its stream open, and its call waited out its whole
   * timeout instead of ending at once with the worker restarted. Started by the first exec; a
   * lost event stream is opened again by the next exec (meanwhile a death is noticed as before,
   * by the call's timeout). Streams opened after the death (a restarted container's) are kept.
   */
  private watchDeaths(): void {
    if (this.deaths || this.deathsStarting || this.released) return;
    this.deathsStarting = true;
    const filters = JSON.stringify({
      type: ['container'],
      event: ['die'],
      label: [`${MANAGED_LABEL}=1`],
    });
    this.docker
      .getEvents({ filters })
      .then((events) => {
        const stream = events as Readable;
        if (this.released) {
          stream.destroy();
          return;
        }
        this.deaths = stream;
        // A watcher never keeps the process alive (release() ends it too).
        (stream as { socket?: { unref?: () => void } }).socket?.unref?.();
        let buffered = '';
        stream.on('data', (chunk: Buffer) => {
          // Bounded: an event is a few hundred bytes; a line this long is not one.
          buffered = (buffered + chunk.toString('utf8')).slice(-65_536);
          const lines = buffered.split('\n');
          buffered = lines.pop() ?? '';
          for (const line of lines) this.onEngineEvent(line);
        });
        const lost = (): void => {
          if (this.deaths === stream) this.deaths = null;
        };
        stream.on('end', lost);
        stream.on('close', lost);
        stream.on('error', lost);
      })
      .catch(() => undefined)
      .finally(() => {
        this.deathsStarting = false;
      });
  }

  /** One line of the engine's event stream: a container of ours died. */
  private onEngineEvent(line: string): void {
    let event: { id?: unknown; Actor?: { ID?: unknown }; time?: unknown; timeNano?: unknown };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      return;
    }
    const id = typeof event.Actor?.ID === 'string' ? event.Actor.ID : event.id;
    if (typeof id !== 'string' || id === '') return;
    const diedAt =
      typeof event.timeNano === 'number'
        ? event.timeNano / 1e6
        : typeof event.time === 'number'
          ? event.time * 1000
          : Date.now();
    for (const [containerId, streams] of this.openStreams) {
      if (containerId !== id && !id.startsWith(containerId)) continue;
      // Opened before the death (the engine's clock and ours are the same machine's): its process
      // died with the container.
      for (const stream of streams) {
        if ((this.openedAt.get(stream) ?? 0) <= diedAt) stream.destroy();
      }
    }
  }

  /** Runs a short command, optionally feeding `input` to stdin; collects bounded output. */
  async run(
    containerId: string,
    command: string[],
    options: { input?: Readable; user?: string } = {},
  ): Promise<CollectedOutput> {
    const process = await this.attach(containerId, command, options);
    const stdout = collect(process.stdout);
    const stderr = collect(process.stderr);
    if (options.input) options.input.pipe(process.stdin);
    else process.stdin.end();
    const exitCode = await process.exited;
    return { exitCode, stdout: await stdout, stderr: await stderr };
  }
}

/**
 * RLIMIT_NPROC for a container, or undefined for none. Where the engine cannot apply the pids
 * limit, RLIMIT_NPROC at the session's pids limit is what stops a fork bomb. It is weaker: the
 * kernel counts it per uid in the user namespace, and every container of a rootless engine user
 * shares one user namespace, so uid 1000 of all sessions (and the keepalive) draws on one count
 * of `pidsLimit`: a fork bomb is bounded, but while it lasts other sessions cannot start
 * processes either. The keepalive gets the same number, not its 16: its start would fail with
 * the sessions' processes already counted.
 */
export function processRlimit(
  choice: { engine: EngineKind; unenforcedLimits: CgroupLimit[] },
  limits: ContainerLimits,
): number | undefined {
  if (choice.unenforcedLimits.includes('processes')) return limits.pidsLimit;
  return choice.engine === 'podman' ? hostProcessLimit() : undefined;
}

/**
 * RLIMIT_NPROC for Podman containers whose pids limit the engine applies. Rootful Podman
 * otherwise asks runc for 4194304, and raising a hard limit needs CAP_SYS_RESOURCE: where the
 * host lacks it (this project's CI VM), every start fails ("error setting rlimit type 6:
 * operation not permitted"). `podman system service` itself runs with 32768 there, so that, or
 * our own hard limit if lower. Docker sets no nproc limit; the pids limit is what bounds a
 * session on either engine.
 */
const PODMAN_NPROC = 32_768;

function hostProcessLimit(): number {
  try {
    const hard = /^Max processes\s+\S+\s+(\d+)/m.exec(
      readFileSync('/proc/self/limits', 'utf8'),
    )?.[1];
    return hard === undefined ? PODMAN_NPROC : Math.min(PODMAN_NPROC, Number(hard));
  } catch {
    return PODMAN_NPROC;
  }
}

/**
 * Rootless Podman's Docker-compatible API drops HostConfig.Ulimits (its compat create handler
 * copies them only `if !rootless.IsRootless()`; measured: nofile 20000, nproc 32768 instead of
 * 4096 and the pids limit). An exec'd process would have inherited the container's rlimits, so
 * each exec instead starts under util-linux's prlimit (in the runner image), which lowers its
 * own soft and hard limits (no privilege needed; user code cannot raise them) and execs the
 * command. Everything the session runs descends from an exec (the worker), so this covers it.
 */
export function prlimitArgs(ulimits: { Name?: string; Soft?: number; Hard?: number }[]): string[] {
  const limits = ulimits
    .filter(
      (limit) => limit.Name !== undefined && limit.Soft !== undefined && limit.Hard !== undefined,
    )
    .map((limit) => `--${limit.Name}=${limit.Soft}:${limit.Hard}`);
  return limits.length === 0 ? [] : ['prlimit', ...limits, '--'];
}

function collect(stream: Readable): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      if (size >= MAX_COLLECTED_BYTES) return;
      chunks.push(chunk);
      size += chunk.length;
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', () => resolve(Buffer.concat(chunks)));
  });
}

function isNotFound(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'statusCode' in error && error.statusCode === 404
  );
}

/**
 * Starts an exec with stdin attached; `control` aborts the start. A start the engine refuses
 * (the container died after the exec was created: 404 or 409) leaves dockerode's request open —
 * it never ends a request whose stdin is attached — and the engine keeps that connection waiting
 * for the rest of it: one such socket kept `aivory serve` from exiting after SIGTERM. Aborting
 * the request's signal destroys it.
 */
export async function startAttachedExec(
  exec: Docker.Exec,
  control: AbortController,
): Promise<Duplex> {
  try {
    return await exec.start({ hijack: true, stdin: true, abortSignal: control.signal });
  } catch (error) {
    control.abort(error);
    throw error;
  }
}

/** Adds `item` to `key`'s set in `map`; the returned function takes it out again. */
function trackIn<T>(map: Map<string, Set<T>>, key: string, item: T): () => void {
  let items = map.get(key);
  if (!items) map.set(key, (items = new Set()));
  items.add(item);
  const set = items;
  return () => {
    set.delete(item);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  };
}
