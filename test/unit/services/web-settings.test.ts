import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/adapters/sqlite/sqlite-store';
import { machineMemoryMiB } from '../../../src/main/adapters/machine-memory';
import { SettingsService } from '../../../src/main/services/settings-service';
import { fetchLimitsFromSettings } from '../../../src/main/composition/tool-preparation';
import { recordingLogger } from '../../support/turn-harness';

describe('settings → web (the guarded fetcher of web_fetch and fetch_image)', () => {
  it('allows any port of a public address unless the user refuses non-default ports', () => {
    const store = openStore(join(mkdtempSync(join(tmpdir(), 'aivory-web-')), 'aivory.db'));
    const settings = new SettingsService(store.settings, recordingLogger(), machineMemoryMiB());
    expect(fetchLimitsFromSettings(settings.get('web'))).toEqual({
      allowNonDefaultPorts: true,
      maxBodyBytes: 5 * 1024 * 1024,
      deadlineMs: 20_000,
    });
    settings.update('web', {
      refuseNonDefaultPorts: true,
      maxBodyMegabytes: 12,
      deadlineSeconds: 45,
    });
    expect(fetchLimitsFromSettings(settings.get('web'))).toEqual({
      allowNonDefaultPorts: false,
      maxBodyBytes: 12 * 1024 * 1024,
      deadlineMs: 45_000,
    });
    expect(() => settings.update('web', { maxBodyMegabytes: 0 })).toThrow(/maxBodyMegabytes/);
    expect(() => settings.update('web', { deadlineSeconds: 1000 })).toThrow(/deadlineSeconds/);
    store.close();
  });
});
