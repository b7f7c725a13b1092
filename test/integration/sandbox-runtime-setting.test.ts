/**
 * `sandbox.runtime` reaches the local sidecar: runsc on an engine that does not list it leaves the
 * sandbox unavailable with the reason (what `aivory doctor` and the status line show), instead of
 * failing at the first python_execute. Runs against the machine's dockerd (CI does not register
 * runsc with it; sandbox/test/gvisor.test.ts covers a dockerd that does).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectSandbox } from '../../src/main/adapters/sandbox-client/sandbox-client';
import { FileSecretStore } from '../../src/main/adapters/secrets/file-secret-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { SANDBOX_NOT_CONFIGURED, SandboxManager } from '../../src/main/services/sandbox-manager';
import { machineMemoryMiB } from '../../src/main/adapters/machine-memory';
import { SettingsService } from '../../src/main/services/settings-service';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';
import { recordingLogger } from '../support/turn-harness';

describe('sandbox.runtime setting', () => {
  it('is validated, and runsc on an engine without it makes the local sandbox unavailable with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aivory-runtime-setting-'));
    const store = openStore(join(dir, 'aivory.db'));
    const logger = recordingLogger();
    const settings = new SettingsService(store.settings, logger, machineMemoryMiB());
    try {
      expect(() => settings.update('sandbox', { runtime: 'kata' } as never)).toThrow(
        /sandbox\.runtime/,
      );
      settings.update('sandbox', { runtime: 'runsc' });
      const manager = new SandboxManager({
        env: { PATH: process.env.PATH, HOME: dir },
        settings,
        secrets: new FileSecretStore(join(dir, 'secrets.json')),
        dataDir: dir,
        logger,
        connect: connectSandbox,
      });
      const { client, status } = await manager.resolve();
      expect(client).toBeNull();
      expect(status).toMatchObject({ state: 'unavailable' });
      if (status.state !== 'unavailable') throw new Error('expected unavailable');
      expect(status.reason).toContain(`${SANDBOX_NOT_CONFIGURED}: `);
      expect(status.reason).toMatch(/set to runsc \(gVisor\) but docker \S+ does not list it/);
      await manager.close();
    } finally {
      store.close();
    }
  });

  it('aivory doctor names the engine, runtime and isolation, or why the chosen runtime cannot run', async () => {
    const home = makeDataDir();
    const missing = await runCli(
      ['doctor'],
      cliEnv(home, { AIVORY_LOCAL_SANDBOX: '1', SANDBOX_RUNTIME: 'runsc' }),
    );
    expect(missing.stdout).toMatch(
      /✗ tool python_execute: 请先配置沙盒: The sandbox runtime is set to runsc \(gVisor\) but docker \S+ does not list it/,
    );
    const local = await runCli(['doctor'], cliEnv(home, { AIVORY_LOCAL_SANDBOX: '1' }));
    expect(local.stdout).toMatch(
      /✓ tool python_execute: available — local sandbox at http:\/\/127\.0\.0\.1:\d+: docker ok, engine docker \d\S*, image \S+, runtime runc — container \(namespaces on the host kernel\)/,
    );
  }, 120_000);
});
