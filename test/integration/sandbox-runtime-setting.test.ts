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
import { FileSecretStore } from '../../src/main/adapters/secrets/file-secret-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { SANDBOX_NOT_CONFIGURED, SandboxManager } from '../../src/main/services/sandbox-manager';
import { SettingsService } from '../../src/main/services/settings-service';
import { recordingLogger } from '../support/turn-harness';

describe('sandbox.runtime setting', () => {
  it('is validated, and runsc on an engine without it makes the local sandbox unavailable with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aivory-runtime-setting-'));
    const store = openStore(join(dir, 'aivory.db'));
    const logger = recordingLogger();
    const settings = new SettingsService(store.settings, logger);
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
});
