/**
 * What the runtime reads from an engine about rootless mode and cgroup limits, and what it does
 * about limits the engine cannot apply. The inputs are the fields the engines return (measured:
 * rootless Podman 4.3.1 on cgroups v1 here; rootless Docker documents `name=rootless`).
 */
import { describe, expect, it } from 'vitest';
import type { EngineInfo } from '../src/engine-policy';
import {
  chooseRuntime,
  dockerLimits,
  ISOLATION_CONTAINER,
  ISOLATION_ROOTLESS,
  limitsWarning,
  podmanLimits,
} from '../src/engine-policy';
import { prlimitArgs, processRlimit } from '../src/docker-runtime';
import { sessionContainerOptions } from '../src/container-template';

const limits = {
  image: 'aivory-runner:latest',
  memoryBytes: 512 * 1024 * 1024,
  cpus: 1,
  pidsLimit: 64,
  workspaceBytes: 128 * 1024 * 1024,
  tmpBytes: 32 * 1024 * 1024,
  readOnlyRootfs: true,
};

const podman = (extra: Partial<EngineInfo>): EngineInfo => ({
  engine: 'podman',
  version: '4.3.1',
  runtimes: ['crun', 'runc', 'runsc'],
  defaultRuntime: 'runc',
  rootless: false,
  unenforcedLimits: [],
  ...extra,
});

describe('engine limits', () => {
  it('rootless Podman on cgroups v1 cannot apply any limit; rootful Podman applies them all', () => {
    const host = { cgroupVersion: 'v1', cgroupControllers: [] };
    expect(podmanLimits({ host: { ...host, security: { rootless: true } } })).toEqual({
      rootless: true,
      unenforcedLimits: ['memory', 'processes', 'CPU'],
    });
    expect(podmanLimits({ host: { ...host, security: { rootless: false } } })).toEqual({
      rootless: false,
      unenforcedLimits: [],
    });
  });

  it('rootless Podman on cgroups v2 applies the limits whose controllers are delegated', () => {
    const rootlessV2 = (controllers: string[]) =>
      podmanLimits({
        host: { security: { rootless: true }, cgroupVersion: 'v2', cgroupControllers: controllers },
      }).unenforcedLimits;
    expect(rootlessV2(['memory', 'pids'])).toEqual(['CPU']);
    expect(rootlessV2(['cpu', 'cpuset', 'io', 'memory', 'pids'])).toEqual([]);
    expect(rootlessV2([])).toEqual(['memory', 'processes', 'CPU']);
  });

  it("Docker's /info: rootless is a security option; false capability flags are unenforced limits", () => {
    expect(
      dockerLimits({
        SecurityOptions: ['name=seccomp,profile=builtin', 'name=rootless'],
        MemoryLimit: false,
        PidsLimit: false,
        CpuCfsQuota: false,
      }),
    ).toEqual({ rootless: true, unenforcedLimits: ['memory', 'processes', 'CPU'] });
    expect(
      dockerLimits({
        SecurityOptions: ['name=seccomp,profile=default'],
        MemoryLimit: true,
        PidsLimit: true,
        CpuCfsQuota: true,
      }),
    ).toEqual({ rootless: false, unenforcedLimits: [] });
  });

  it('the warning names what is not limited and what bounds a session instead', () => {
    expect(limitsWarning(podman({}))).toBeNull();
    const warning = limitsWarning(
      podman({ rootless: true, unenforcedLimits: ['memory', 'processes', 'CPU'] }),
    );
    expect(warning).toMatch(/^Rootless podman cannot limit the memory, processes or CPU/);
    expect(warning).toContain('RLIMIT_DATA per process');
    expect(warning).toContain(
      "RLIMIT_NPROC, counted per user and so shared by all of this engine's containers",
    );
    expect(warning).toContain('CPU is not limited');
    expect(limitsWarning(podman({ rootless: true, unenforcedLimits: ['CPU'] }))).toMatch(
      /^Rootless podman cannot limit the CPU of session containers \(no cgroup controller for them\): CPU is not limited\. /,
    );
  });

  it('the runtime choice carries rootless isolation and the warning to /healthz', () => {
    const choice = chooseRuntime(
      'auto',
      podman({ rootless: true, unenforcedLimits: ['memory', 'processes', 'CPU'] }),
    );
    expect(choice).toMatchObject({ ok: true, isolation: ISOLATION_ROOTLESS, rootless: true });
    expect(choice.ok && choice.warnings).toHaveLength(1);
    expect(chooseRuntime('auto', podman({}))).toMatchObject({
      ok: true,
      isolation: ISOLATION_CONTAINER,
      warnings: [],
    });
  });

  it('RLIMIT_NPROC is the pids limit where the engine cannot apply pids, for sessions and keepalive', () => {
    const unenforced = { engine: 'podman' as const, unenforcedLimits: ['processes' as const] };
    expect(processRlimit(unenforced, limits)).toBe(64);
    expect(processRlimit({ engine: 'docker', unenforcedLimits: ['processes'] }, limits)).toBe(64);
    expect(processRlimit({ engine: 'docker', unenforcedLimits: [] }, limits)).toBeUndefined();
    expect(processRlimit({ engine: 'podman', unenforcedLimits: [] }, limits)).toBeGreaterThan(64);
    const keepalive = sessionContainerOptions(limits, {
      name: 'k',
      role: 'keepalive',
      engine: 'podman',
      nprocLimit: processRlimit(unenforced, limits),
    });
    expect(keepalive.HostConfig?.Ulimits).toContainEqual({ Name: 'nproc', Soft: 64, Hard: 64 });
  });

  it("execs on rootless Podman run under prlimit with the template's ulimits", () => {
    const options = sessionContainerOptions(limits, {
      name: 's',
      role: 'session',
      engine: 'podman',
      nprocLimit: 64,
    });
    expect(prlimitArgs(options.HostConfig?.Ulimits ?? [])).toEqual([
      'prlimit',
      '--nofile=4096:4096',
      '--core=0:0',
      '--nproc=64:64',
      '--',
    ]);
    expect(prlimitArgs([])).toEqual([]);
  });
});
