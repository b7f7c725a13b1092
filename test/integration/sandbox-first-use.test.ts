/**
 * Without a warm pool (the CLI) the local sandbox is decided by the cheap engine check and its
 * sidecar starts with the client's first request: resolving says "local" with no address yet,
 * the first request starts it (with a random key, made then, that every request must carry), and
 * once the manager is closed its clients start nothing again.
 * Runs against the machine's dockerd and runner image.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectSandbox } from '../../src/main/adapters/sandbox-client/sandbox-client';
import { FileSecretStore } from '../../src/main/adapters/secrets/file-secret-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { SandboxManager } from '../../src/main/services/sandbox-manager';
import { machineMemoryMiB } from '../../src/main/adapters/machine-memory';
import { SettingsService } from '../../src/main/services/settings-service';
import { recordingLogger } from '../support/turn-harness';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function manager(): SandboxManager {
  const dir = mkdtempSync(join(tmpdir(), 'aivory-sandbox-first-use-'));
  const store = openStore(join(dir, 'aivory.db'));
  const logger = recordingLogger();
  const sandbox = new SandboxManager({
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      ...(process.env.SANDBOX_IMAGE ? { SANDBOX_IMAGE: process.env.SANDBOX_IMAGE } : {}),
    },
    settings: new SettingsService(store.settings, logger, machineMemoryMiB()),
    secrets: new FileSecretStore(join(dir, 'secrets.json')),
    dataDir: dir,
    logger,
    connect: connectSandbox,
  });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  cleanups.push(async () => void (await sandbox.close()));
  return sandbox;
}

describe('a local sandbox without a warm pool', () => {
  it('is available before its sidecar runs, and the first request starts it', async () => {
    const sandbox = manager();
    const { client, status } = await sandbox.resolve();
    expect(status).toEqual({ state: 'local', url: null });
    if (!client) throw new Error('expected a client');
    expect(client.url).toBeNull();
    const health = await client.health();
    expect(health).toMatchObject({ ok: true, docker: true });
    expect(client.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The same sidecar answers the next request.
    const started = client.url;
    await client.health();
    expect(client.url).toBe(started);
    // Its key is made when it starts, not at the engine check: a request without it, or with
    // another, is refused all the same.
    expect((await fetch(`${started}/healthz`)).status).toBe(401);
    const wrong = await fetch(`${started}/healthz`, {
      headers: { authorization: `Bearer ${'x'.repeat(32)}` },
    });
    expect(wrong.status).toBe(401);
  });

  it('once closed, a client that never started starts nothing', async () => {
    const sandbox = manager();
    const { client } = await sandbox.resolve();
    if (!client) throw new Error('expected a client');
    expect(await sandbox.close()).toEqual([]);
    await expect(client.health()).rejects.toThrow(/The local sandbox was stopped/);
    expect(client.url).toBeNull();
  });
});
