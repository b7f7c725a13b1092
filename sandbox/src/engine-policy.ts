/**
 * The container engine's policy, without the engine client: what an engine's `/version`, `/info`
 * and Podman's `/libpod/info` mean for a sandbox (rootless, limits it cannot apply) and which OCI
 * runtime sessions get for a setting. Pure, so the cheap start-up check (`engine-check.ts`) and the
 * dockerode adapter (`docker-runtime.ts`) share it without loading dockerode for the check.
 */
import type { OciRuntime } from './container-template';

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

/** Podman's `/libpod/info`, as far as the policy reads it. */
export type PodmanInfo = Parameters<typeof podmanLimits>[0];

/** Docker's `/info`, as far as the policy reads it. */
export type DockerInfo = Parameters<typeof dockerLimits>[0] & {
  Runtimes?: Record<string, unknown>;
  DefaultRuntime?: string;
};

/** The parts of Docker's `/version` the policy reads. */
export interface EngineVersion {
  Version: string;
  Components?: { Name: string; Version?: string }[];
}

/** Podman answers `/version` with a Podman component; Docker with its own. */
export function isPodman(version: EngineVersion): boolean {
  return (version.Components ?? []).some((component) => /podman/i.test(component.Name));
}

/**
 * EngineInfo from `/version`, `/info` and, for Podman, `/libpod/info` (`podman` is null for
 * Docker).
 */
export function engineInfoFrom(
  version: EngineVersion,
  info: DockerInfo,
  podman: PodmanInfo | null,
): EngineInfo {
  return {
    engine: podman ? 'podman' : 'docker',
    version: version.Version,
    runtimes: Object.keys(info.Runtimes ?? {}).sort(),
    defaultRuntime: info.DefaultRuntime ?? 'runc',
    ...(podman ? podmanLimits(podman) : dockerLimits(info)),
  };
}
