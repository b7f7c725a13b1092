import { mkdtempSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineMemoryMiB } from '../../src/main/adapters/machine-memory';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { SettingsService } from '../../src/main/services/settings-service';
import { recordingLogger } from '../support/turn-harness';

function service(machineMiB = machineMemoryMiB()) {
  const store = openStore(join(mkdtempSync(join(tmpdir(), 'aivory-settings-')), 'aivory.db'));
  const logger = recordingLogger();
  return { store, logger, settings: new SettingsService(store.settings, logger, machineMiB) };
}

describe('SettingsService', () => {
  it('returns schema defaults for unset keys', () => {
    const { settings, store } = service();
    expect(settings.get('sandbox')).toEqual({
      baseUrl: '',
      apiKeyRef: null,
      execTimeoutSeconds: 120,
      idleReapSeconds: 1800,
      memoryMiB: 2048,
      runtime: 'auto',
    });
    expect(settings.get('search').provider).toBe('disabled');
    store.close();
  });

  it('a stored field that no longer fits costs only that field, not the group', () => {
    const { settings, store, logger } = service();
    store.settings.setSetting('search', {
      provider: 'searxng',
      baseUrl: 'javascript:alert(1)',
      engines: 'duckduckgo',
      apiKeyRef: 'search.key',
    });
    expect(settings.get('search')).toMatchObject({
      provider: 'searxng',
      baseUrl: '',
      engines: 'duckduckgo',
      apiKeyRef: 'search.key',
    });
    expect(logger.entries.map((entry) => entry.message)).toContain(
      'stored settings do not fit the schema; those fields use their defaults',
    );
    store.close();
  });

  it('validates the merged value and names the bad field', () => {
    const { settings, store } = service();
    expect(settings.update('sandbox', { execTimeoutSeconds: 300 }).execTimeoutSeconds).toBe(300);
    expect(() => settings.update('sandbox', { execTimeoutSeconds: 5 })).toThrow(
      /^Invalid setting sandbox\.execTimeoutSeconds: /,
    );
    expect(() => settings.update('sandbox', { idleReapSeconds: 100_000 })).toThrow(
      /sandbox\.idleReapSeconds/,
    );
    expect(settings.get('sandbox').execTimeoutSeconds).toBe(300);
    expect(store.settings.getSetting('sandbox')).toMatchObject({ execTimeoutSeconds: 300 });
    store.close();
  });

  it("sandbox.memoryMiB: 512 MiB at least, at most the machine's memory, with a clear message", () => {
    const { settings, store } = service();
    const machineMiB = Math.floor(totalmem() / (1024 * 1024));
    expect(settings.update('sandbox', { memoryMiB: 1024 }).memoryMiB).toBe(1024);
    expect(() => settings.update('sandbox', { memoryMiB: 256 })).toThrow(
      /^Invalid setting sandbox\.memoryMiB: /,
    );
    expect(() => settings.update('sandbox', { memoryMiB: machineMiB + 1 })).toThrow(
      `Invalid setting sandbox.memoryMiB: must be at most this machine's memory (${machineMiB} MiB).`,
    );
    expect(() => settings.update('sandbox', { memoryMiB: 1536.5 })).toThrow(/sandbox\.memoryMiB/);
    expect(settings.get('sandbox').memoryMiB).toBe(1024);
    store.close();
  });

  it('sandbox.memoryMiB follows the memory it is handed: bound and default on a small machine', () => {
    const { settings, store } = service(1536);
    expect(settings.get('sandbox').memoryMiB).toBe(1536);
    expect(settings.update('sandbox', { memoryMiB: 1536 }).memoryMiB).toBe(1536);
    expect(() => settings.update('sandbox', { memoryMiB: 1537 })).toThrow(
      "Invalid setting sandbox.memoryMiB: must be at most this machine's memory (1536 MiB).",
    );
    store.close();
    const large = service(65_536);
    expect(large.settings.get('sandbox').memoryMiB).toBe(2048);
    expect(large.settings.update('sandbox', { memoryMiB: 65_536 }).memoryMiB).toBe(65_536);
    large.store.close();
  });

  it('ui.theme: light, dark or system (the default, also for a value stored before it existed)', () => {
    const { settings, store } = service();
    store.settings.setSetting('ui', { language: 'zh-CN' });
    expect(settings.get('ui')).toEqual({ language: 'zh-CN', theme: 'system' });
    expect(settings.update('ui', { theme: 'dark' })).toEqual({ language: 'zh-CN', theme: 'dark' });
    expect(() => settings.update('ui', { theme: 'sepia' as 'dark' })).toThrow(/ui\.theme/);
    store.close();
  });

  it('falls back to defaults (and logs) for the stored values that no longer fit', () => {
    const { settings, store, logger } = service();
    store.settings.setSetting('ui', { language: 'klingon' });
    expect(settings.get('ui')).toEqual({ language: 'system', theme: 'system' });
    store.settings.setSetting('ui', { language: 'en', theme: 'sepia' });
    expect(settings.get('ui')).toEqual({ language: 'en', theme: 'system' });
    expect(
      logger.entries.some((entry) => entry.level === 'warn' && entry.fields?.key === 'ui'),
    ).toBe(true);
    store.close();
  });
});
