import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiHost } from '../../../src/main/host/api-handlers';
import type { AppContext } from '../../../src/main/composition/app-context';
import { openAppContext } from '../../../src/main/composition/app-context';
import { TRUSTED_ORIGIN, TRUSTED_SENDER } from '../../support/host/host-fixture';

const opened: { app: AppContext; home: string }[] = [];
afterEach(async () => {
  for (const { app, home } of opened.splice(0)) {
    await app.close();
    rmSync(home, { recursive: true, force: true });
  }
});

function openApp(): AppContext {
  const home = mkdtempSync(join(tmpdir(), 'aivory-secrets-status-'));
  const app = openAppContext({ env: { AIVORY_HOME: home, AIVORY_LOCAL_SANDBOX: '0' } });
  opened.push({ app, home });
  return app;
}

const policy = { allowedOrigins: [TRUSTED_ORIGIN] };

describe('secrets.status (how saved keys are protected, for settings)', () => {
  it('the browser host keeps keys in the owner-only secrets file', async () => {
    const host = createApiHost(openApp(), { env: {}, policy });
    expect(await host.dispatch('secrets.status', undefined, TRUSTED_SENDER)).toEqual({
      ok: true,
      value: { protection: 'file', backend: null },
    });
  });

  it("the desktop shell's safeStorage verdict is passed through, a weak keyring included", async () => {
    const host = createApiHost(openApp(), {
      env: {},
      policy,
      secretStorage: { protection: 'basic-text', backend: 'basic_text' },
    });
    expect(await host.dispatch('secrets.status', {}, TRUSTED_SENDER)).toEqual({
      ok: true,
      value: { protection: 'basic-text', backend: 'basic_text' },
    });
    const refused = await host.dispatch('secrets.status', { extra: 1 }, TRUSTED_SENDER);
    expect(refused).toMatchObject({ ok: false });
  });
});
