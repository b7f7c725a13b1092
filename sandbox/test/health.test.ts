import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalArchiveStore } from '../src/archive-store';
import { DockerRuntime } from '../src/docker-runtime';
import { SessionManager } from '../src/session-manager';

describe('health without Docker', () => {
  it('reports docker:false with a reason, and new sessions fail with 503 instead of hanging', async () => {
    const manager = new SessionManager({
      runtime: new DockerRuntime(
        join(mkdtempSync(join(tmpdir(), 'aivory-nodocker-')), 'docker.sock'),
      ),
      archives: new LocalArchiveStore(mkdtempSync(join(tmpdir(), 'aivory-archives-'))),
      limits: {
        image: 'aivory-runner:latest',
        memoryBytes: 1 << 28,
        cpus: 1,
        pidsLimit: 64,
        workspaceBytes: 1 << 26,
        tmpBytes: 1 << 24,
        readOnlyRootfs: true,
      },
      maxSessions: 2,
      idleSeconds: 1800,
      maxOutputBytes: 4096,
      warmPool: 0,
      retentionDays: 30,
      resolveTimeoutSeconds: () => 10,
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const health = await manager.health();
    expect(health).toMatchObject({
      ok: false,
      docker: false,
      image_present: false,
      runc_version: null,
      sessions: 0,
    });
    expect(health.warnings[0]).toMatch(/Docker is not reachable/);
    await expect(manager.createSession('conv')).rejects.toMatchObject({
      code: 'unavailable',
      status: 503,
    });
  });
});
