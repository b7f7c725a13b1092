/**
 * A real SessionManager on the real dockerd with the real runner image, with small limits so
 * abuse tests finish quickly, and a unique container-name prefix so each test file removes
 * exactly what it created. There is no fake Docker here: if dockerd or the image is missing the
 * tests fail with a message saying how to get them (never skip).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalArchiveStore } from '../../src/archive-store';
import type { ContainerLimits } from '../../src/container-template';
import { DockerRuntime } from '../../src/docker-runtime';
import type { SessionManagerOptions } from '../../src/session-manager';
import { SessionManager } from '../../src/session-manager';

export const RUNNER_IMAGE = process.env.SANDBOX_IMAGE ?? 'aivory-runner:latest';
export const DOCKER_SOCKET = process.env.SANDBOX_DOCKER_SOCKET ?? '/var/run/docker.sock';

/** Throws a helpful error unless dockerd answers and the runner image exists. */
export function requireDockerAndImage(): void {
  try {
    execFileSync('docker', ['image', 'inspect', RUNNER_IMAGE], { stdio: 'ignore' });
  } catch {
    throw new Error(
      `These tests need a running dockerd and the ${RUNNER_IMAGE} image. Start dockerd, then run: bash sandbox/scripts/build-image.sh (CI does both in .ci/run).`,
    );
  }
}

export interface Fixture {
  manager: SessionManager;
  archives: LocalArchiveStore;
  runtime: DockerRuntime;
  prefix: string;
  logs: { level: string; message: string; fields?: object }[];
  cleanup(): Promise<void>;
}

export function createFixture(overrides: Partial<SessionManagerOptions> = {}): Fixture {
  requireDockerAndImage();
  const prefix = `aivory-test-${Math.random().toString(36).slice(2, 8)}`;
  // A test on another engine (Podman, a dockerd with runsc) passes its own runtime.
  const runtime = overrides.runtime ?? new DockerRuntime(DOCKER_SOCKET);
  const archives = new LocalArchiveStore(mkdtempSync(join(tmpdir(), 'aivory-archives-')));
  const logs: Fixture['logs'] = [];
  const log = (level: string) => (message: string, fields?: object) => {
    logs.push({ level, message, ...(fields ? { fields } : {}) });
  };
  const manager = new SessionManager({
    runtime,
    archives,
    limits: {
      image: RUNNER_IMAGE,
      memoryBytes: 512 * 1024 * 1024,
      cpus: 1,
      pidsLimit: 64,
      workspaceBytes: 128 * 1024 * 1024,
      tmpBytes: 32 * 1024 * 1024,
      readOnlyRootfs: true,
    },
    maxSessions: 4,
    idleSeconds: 1800,
    maxOutputBytes: 8192,
    warmPool: 0,
    retentionDays: 30,
    // The sidecar's floor is 10 s (EXEC_TIMEOUT_MIN_SECONDS, config tests); here 1 s, so a test of
    // what a timeout does waits a few seconds for it, not ten.
    resolveTimeoutSeconds: (requested) => Math.min(600, Math.max(1, requested ?? 120)),
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    namePrefix: prefix,
    ...overrides,
  });
  return {
    manager,
    archives,
    runtime,
    prefix,
    logs,
    cleanup: async () => {
      await manager.shutdown();
      const leftovers = await runtime.listManaged();
      for (const container of leftovers) {
        if (container.name.startsWith(prefix)) await runtime.removeContainer(container.id);
      }
    },
  };
}

/** `docker inspect` of a container, parsed. */
export function inspect(containerId: string): Record<string, unknown> {
  const text = execFileSync('docker', ['inspect', containerId], { encoding: 'utf8' });
  const parsed = JSON.parse(text) as Record<string, unknown>[];
  const first = parsed[0];
  if (!first) throw new Error(`no container ${containerId}`);
  return first;
}

/**
 * Session containers started straight on `runtime` (no SessionManager), named under a unique
 * prefix; `removeAll` (an afterAll) removes what `start` made.
 */
export function containerStarter(
  runtime: DockerRuntime,
  label: string,
  limits: ContainerLimits,
): { start(): Promise<string>; removeAll(): Promise<void> } {
  const prefix = `aivory-test-${label}-${Math.random().toString(36).slice(2, 8)}`;
  const started: string[] = [];
  return {
    start: async () => {
      const id = await runtime.startContainer(limits, {
        name: `${prefix}-${started.length + 1}`,
        role: 'session',
      });
      started.push(id);
      return id;
    },
    removeAll: async () => {
      await Promise.all(started.map((id) => runtime.removeContainer(id)));
    },
  };
}
