/**
 * The container engine's policy, apart from the adapter that talks to it (`docker-runtime.ts`):
 * which OCI runtime a session runs under (`chooseRuntime`), which cgroup limits the engine
 * really enforces (`dockerLimits`, `podmanLimits`, `limitsWarning`), and the process limits put
 * in their place (`processRlimit`, `prlimitArgs`). Pure functions of what the engine reported,
 * tested without an engine (`sandbox/test/engine-limits.test.ts`).
 */
import { readFileSync } from 'node:fs';
import type { ContainerLimits, OciRuntime } from './container-template';

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
