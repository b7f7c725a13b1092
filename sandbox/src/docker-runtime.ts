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
import type { ContainerLimits, OciRuntime } from './container-template';
import {
  MANAGED_LABEL,
  sessionContainerOptions,
  SANDBOX_USER,
  WORKSPACE,
} from './container-template';
import { demultiplex } from './exec-demux';

import { SandboxError } from './sandbox-service';

/** `sandbox.runtime` / SANDBOX_RUNTIME: which OCI runtime session containers run under. */
export type RuntimeSetting = 'runc' | 'runsc' | 'auto';
export const RUNTIME_SETTINGS: readonly RuntimeSetting[] = ['runc', 'runsc', 'auto'];

export type EngineKind = 'docker' | 'podman';

/** A container limit that needs a cgroup controller the engine may not have. */
export type CgroupLimit = 'memory' | 'processes' | 'CPU';

/** What the engine says about itself (`/version`, `/info`, and Podman's `/libpod/info`). */
export interface EngineInfo {
  engine: EngineKind;
  version: string;
  /** Names the engine lists among its runtimes (`docker info` Runtimes). */
  runtimes: string[];
  defaultRuntime: string;
  /** The engine runs as an unprivileged user (rootless Docker or Podman). */
  rootless: boolean;
  /** Limits the engine accepts in HostConfig but cannot apply (e.g. rootless on cgroups v1). */
  unenforcedLimits: CgroupLimit[];
}

/** The runtime sessions get, or why the setting cannot be honoured. */
export type RuntimeChoice =
  | {
      ok: true;
      engine: EngineKind;
      runtime: OciRuntime;
      name: string;
      isolation: string;
      rootless: boolean;
      unenforcedLimits: CgroupLimit[];
      /** What /healthz and `aivory doctor` should say about this engine (limits it cannot apply). */
      warnings: string[];
    }
  | { ok: false; error: string };

/** The isolation words /healthz and `aivory doctor` show. */
export const ISOLATION_CONTAINER = 'container (namespaces on the host kernel)';
export const ISOLATION_ROOTLESS =
  'rootless container (namespaces on the host kernel; the engine runs without root)';
export const ISOLATION_GVISOR = 'gVisor (user-space kernel)';

/** Docker's `/info`: rootless shows as a security option; the booleans say what cgroups allow. */
export function dockerLimits(info: {
  SecurityOptions?: string[];
  MemoryLimit?: boolean;
  PidsLimit?: boolean;
  CpuCfsQuota?: boolean;
}): Pick<EngineInfo, 'rootless' | 'unenforcedLimits'> {
  const unenforced: CgroupLimit[] = [];
  if (info.MemoryLimit === false) unenforced.push('memory');
  if (info.PidsLimit === false) unenforced.push('processes');
  if (info.CpuCfsQuota === false) unenforced.push('CPU');
  return {
    rootless: (info.SecurityOptions ?? []).some((option) => option.startsWith('name=rootless')),
    unenforcedLimits: unenforced,
  };
}

/**
 * Podman's `/libpod/info`. Its Docker-compatible `/info` is no use here: rootless Podman 4.3 on
 * cgroups v1 reports MemoryLimit/PidsLimit true and no `name=rootless`, then ignores the limits
 * ("Resource limits are not supported and ignored on cgroups V1 rootless systems", in its log
 * only; inspect shows Memory 0). Rootless on cgroups v2 gets the controllers delegated to the
 * user (`host.cgroupControllers`); rootful Podman has them all.
 */
export function podmanLimits(info: {
  host?: {
    security?: { rootless?: boolean };
    cgroupVersion?: string;
    cgroupControllers?: string[] | null;
  };
}): Pick<EngineInfo, 'rootless' | 'unenforcedLimits'> {
  const rootless = info.host?.security?.rootless === true;
  if (!rootless) return { rootless, unenforcedLimits: [] };
  const all: CgroupLimit[] = ['memory', 'processes', 'CPU'];
  if (info.host?.cgroupVersion !== 'v2') return { rootless, unenforcedLimits: all };
  const delegated = new Set(info.host.cgroupControllers ?? []);
  const controller: Record<CgroupLimit, string> = {
    memory: 'memory',
    processes: 'pids',
    CPU: 'cpu',
  };
  return { rootless, unenforcedLimits: all.filter((limit) => !delegated.has(controller[limit])) };
}

/**
 * What a session is bounded by when the engine cannot apply some limits, in words for /healthz
 * and `aivory doctor`; null when it applies them all. The fallbacks are the worker's
 * RLIMIT_DATA (per process) and RLIMIT_NPROC (see `processRlimit`).
 */
export function limitsWarning(
  info: Pick<EngineInfo, 'engine' | 'rootless' | 'unenforcedLimits'>,
): string | null {
  const missing = info.unenforcedLimits;
  if (missing.length === 0) return null;
  const names =
    missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} or ${missing.at(-1)}`;
  const fallbacks = [
    missing.includes('memory') &&
      'memory is capped inside Python (RLIMIT_DATA per process, so code that starts several processes can use more)',
    missing.includes('processes') &&
      "processes are capped by RLIMIT_NPROC, counted per user and so shared by all of this engine's containers",
    missing.includes('CPU') && 'CPU is not limited',
  ].filter((text): text is string => typeof text === 'string');
  return (
    `${info.rootless ? 'Rootless ' : ''}${info.engine} cannot limit the ${names} of session containers ` +
    `(no cgroup controller for them): ${fallbacks.join('; ')}. ` +
    'For enforced limits use cgroups v2 with the controllers delegated to the user, or a rootful engine.'
  );
}

/**
 * Applies the setting to what the engine offers. `auto` takes runsc only when Docker lists it
 * (registered in daemon.json); Podman lists every runtime its containers.conf knows, installed or
 * not, so on Podman `auto` keeps the engine's default and runsc must be asked for.
 */
export function chooseRuntime(setting: RuntimeSetting, info: EngineInfo): RuntimeChoice {
  const listed = info.runtimes.includes('runsc');
  const warning = limitsWarning(info);
  const limits = {
    rootless: info.rootless,
    unenforcedLimits: info.unenforcedLimits,
    warnings: warning ? [warning] : [],
  };
  const gvisor: RuntimeChoice = {
    ok: true,
    engine: info.engine,
    runtime: 'runsc',
    name: 'runsc',
    isolation: ISOLATION_GVISOR,
    ...limits,
  };
  if (setting === 'runsc') {
    if (listed) return gvisor;
    return {
      ok: false,
      error:
        `The sandbox runtime is set to runsc (gVisor) but ${info.engine} ${info.version} does not list it ` +
        `among its runtimes (${info.runtimes.join(', ') || 'none'}). Install runsc and register it ` +
        '(/etc/docker/daemon.json: {"runtimes":{"runsc":{"path":"/usr/bin/runsc","runtimeArgs":["--network=none"]}}}, ' +
        'then restart dockerd), or set the sandbox runtime to runc or auto.',
    };
  }
  if (setting === 'auto' && listed && info.engine === 'docker') return gvisor;
  // The engine's default, unless someone made runsc the default and runc was asked for.
  const runcByDefault = info.defaultRuntime !== 'runsc';
  return {
    ok: true,
    engine: info.engine,
    runtime: runcByDefault ? 'default' : 'runc',
    name: runcByDefault ? info.defaultRuntime || 'runc' : 'runc',
    isolation: info.rootless ? ISOLATION_ROOTLESS : ISOLATION_CONTAINER,
    ...limits,
  };
}

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
      const podman = (version.Components ?? []).some((component) => /podman/i.test(component.Name));
      const details = info as { Runtimes?: Record<string, unknown>; DefaultRuntime?: string };
      return {
        engine: podman ? 'podman' : 'docker',
        version: version.Version,
        runtimes: Object.keys(details.Runtimes ?? {}).sort(),
        defaultRuntime: details.DefaultRuntime ?? 'runc',
        ...(podman ? podmanLimits(await this.libpodInfo()) : dockerLimits(info)),
      };
    } catch {
      return null;
    }
  }

  /**
   * Podman's own `GET /libpod/info` (beside its Docker-compatible API on the same socket). Its
   * libpod routes need a version prefix (unversioned is 404); any version matches.
   */
  private libpodInfo(): Promise<Parameters<typeof podmanLimits>[0]> {
    return new Promise((resolve, reject) => {
      this.docker.modem.dial(
        { path: '/v4.0.0/libpod/info', method: 'GET', statusCodes: { 200: true }, options: {} },
        (error: unknown, body: unknown) =>
          error
            ? reject(error instanceof Error ? error : new Error(String(error)))
            : resolve(body as Parameters<typeof podmanLimits>[0]),
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
    const createOptions = sessionContainerOptions(limits, {
      ...options,
      runtime: choice.runtime,
      engine: choice.engine,
      nprocLimit: processRlimit(choice, limits),
    });
    if (options.conversationId) {
      createOptions.Labels = {
        ...createOptions.Labels,
        'org.aivory.conversation': options.conversationId,
      };
    }
    const container = await this.docker.createContainer(createOptions).catch((error: unknown) => {
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
      throw error;
    }
    if (choice.engine === 'podman' && choice.rootless) {
      this.execRlimits.set(container.id, prlimitArgs(createOptions.HostConfig?.Ulimits ?? []));
    }
    return container.id;
  }

  async removeContainer(id: string): Promise<void> {
    this.execRlimits.delete(id);
    try {
      await this.docker.getContainer(id).remove({ force: true });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
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
    const stream = await exec.start({ hijack: true, stdin: true });
    const { stdout, stderr } = split(stream);
    const exited = new Promise<number | null>((resolve) => {
      let settled = false;
      const finish = (): void => {
        if (settled) return;
        settled = true;
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
