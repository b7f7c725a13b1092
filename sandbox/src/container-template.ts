/**
 * The one container template. Every session container is created from this function and from
 * nothing the API caller sends: no network (never configurable), non-root, no capabilities,
 * no-new-privileges, read-only root, size-limited tmpfs for /tmp and /workspace, no writable mount
 * from the host (a session's transfer pipes are mounted read-only), memory, CPU and
 * pids limits, and an init process. (An engine without the cgroup controllers, e.g. rootless
 * Podman on cgroups v1, accepts and ignores memory/CPU/pids: then RLIMIT_NPROC stands in for pids,
 * see `processRlimit`.) A socket proxy cannot give this guarantee; building the
 * HostConfig here can (research: security-anchors, docker-socket-proxy bypasses).
 */
import type { ContainerCreateOptions } from 'dockerode';
import { TRANSFER_MOUNT } from './transfer-pipes';

/** The in-image user: uid/gid 1000, home /workspace (see scripts/build-image.sh). */
export const SANDBOX_USER = '1000:1000';
export const WORKSPACE = '/workspace';

/** Labels that mark our containers, so a restarted sidecar finds (and archives) leftovers. */
export const MANAGED_LABEL = 'org.aivory.sandbox';
export const CONVERSATION_LABEL = 'org.aivory.conversation';
export const ROLE_LABEL = 'org.aivory.role';

/** Open files per process: enough for data work, small enough to stop descriptor exhaustion. */
const NOFILE_LIMIT = 4096;

/** `default` leaves HostConfig.Runtime unset: the engine's default (runc, or crun on Podman). */
export type OciRuntime = 'default' | 'runc' | 'runsc';

export interface ContainerLimits {
  image: string;
  memoryBytes: number;
  cpus: number;
  pidsLimit: number;
  workspaceBytes: number;
  tmpBytes: number;
  readOnlyRootfs: boolean;
}

export function sessionContainerOptions(
  limits: ContainerLimits,
  options: {
    name: string;
    role: 'session' | 'keepalive';
    runtime?: OciRuntime;
    engine?: 'docker' | 'podman';
    /** RLIMIT_NPROC to give, if any (see `processRlimit` in docker-runtime.ts). */
    nprocLimit?: number;
    /**
     * The host directory of the session's transfer pipes, mounted read-only at TRANSFER_MOUNT
     * (see transfer-pipes.ts for why this mount gives the container nothing to write).
     */
    transferDir?: string;
  },
): ContainerCreateOptions {
  const tmpfs: Record<string, string> = {
    '/tmp': `rw,nosuid,nodev,noexec,size=${limits.tmpBytes},mode=1777`,
  };
  if (options.role === 'session') {
    // Podman refuses tmpfs uid=/gid= ("unknown mount option"); its `U` chowns the mount to the
    // container's user (1000:1000) instead.
    const owner = options.engine === 'podman' ? 'U' : 'uid=1000,gid=1000';
    tmpfs[WORKSPACE] = `rw,nosuid,nodev,noexec,size=${limits.workspaceBytes},${owner},mode=0700`;
  }
  return {
    name: options.name,
    Image: limits.image,
    Cmd: ['sleep', 'infinity'],
    User: SANDBOX_USER,
    WorkingDir: options.role === 'session' ? WORKSPACE : '/',
    Env: [
      'MPLBACKEND=Agg',
      `HOME=${WORKSPACE}`,
      'MPLCONFIGDIR=/tmp/matplotlib',
      'TMPDIR=/tmp',
      'PYTHONUNBUFFERED=1',
      'PYTHONDONTWRITEBYTECODE=1',
      'LANG=C.UTF-8',
    ],
    Labels: { [MANAGED_LABEL]: '1', [ROLE_LABEL]: options.role },
    NetworkDisabled: true,
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    Tty: false,
    HostConfig: {
      NetworkMode: 'none',
      Privileged: false,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges:true'],
      ReadonlyRootfs: limits.readOnlyRootfs,
      Tmpfs: tmpfs,
      Memory: options.role === 'session' ? limits.memoryBytes : 32 * 1024 * 1024,
      // Swap equal to memory means no swap: a memory bomb is killed, not paged to disk.
      MemorySwap: options.role === 'session' ? limits.memoryBytes : 32 * 1024 * 1024,
      NanoCpus: Math.round((options.role === 'session' ? limits.cpus : 0.1) * 1e9),
      PidsLimit: options.role === 'session' ? limits.pidsLimit : 16,
      Init: true,
      IpcMode: 'private',
      Ulimits: [
        { Name: 'nofile', Soft: NOFILE_LIMIT, Hard: NOFILE_LIMIT },
        { Name: 'core', Soft: 0, Hard: 0 },
        ...(options.nprocLimit !== undefined
          ? [{ Name: 'nproc', Soft: options.nprocLimit, Hard: options.nprocLimit }]
          : []),
      ],
      RestartPolicy: { Name: options.role === 'keepalive' ? 'unless-stopped' : 'no' },
      AutoRemove: false,
      Binds:
        options.transferDir === undefined ? [] : [`${options.transferDir}:${TRANSFER_MOUNT}:ro`],
      Devices: [],
      ...(options.runtime === undefined || options.runtime === 'default'
        ? {}
        : { Runtime: options.runtime }),
    },
  };
}
