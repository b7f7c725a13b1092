/**
 * A long-running process (desktop, `aivory serve`) applies changed settings without a restart:
 * the tools built from a settings group are dropped and rebuilt at the next preparation.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/main/services/app-context';
import { openAppContext } from '../../src/main/services/app-context';
import { cliEnv, makeDataDir } from '../support/run-cli';

describe('AppContext.settingsChanged', () => {
  let context: AppContext | null = null;
  afterEach(async () => {
    await context?.close();
  });

  it('rebuilds search and web tools from the new settings at the next turn', async () => {
    context = openAppContext({ env: cliEnv(makeDataDir()) });
    await context.prepareTools();
    expect(context.tools.get('aivory_web_search')).toBeUndefined();
    const fetchBefore = context.tools.get('web_fetch');
    expect(fetchBefore).toBeDefined();

    context.settings.update('search', { provider: 'searxng', baseUrl: 'http://127.0.0.1:8888' });
    await context.prepareTools();
    const searchBefore = context.tools.get('aivory_web_search');
    expect(searchBefore).toBeDefined();
    context.settings.update('search', { baseUrl: 'http://127.0.0.1:9999' });
    await context.prepareTools();
    // Without the notification the registry keeps what it built from the old address…
    expect(context.tools.get('aivory_web_search')).toBe(searchBefore);
    await context.settingsChanged('search');
    await context.prepareTools();
    // …with it, the tool is built again from the new one.
    expect(context.tools.get('aivory_web_search')).toBeDefined();
    expect(context.tools.get('aivory_web_search')).not.toBe(searchBefore);

    context.settings.update('search', { provider: 'disabled' });
    await context.settingsChanged('search');
    await context.prepareTools();
    expect(context.tools.get('aivory_web_search')).toBeUndefined();

    context.settings.update('web', { maxBodyMegabytes: 9 });
    await context.settingsChanged('web');
    await context.prepareTools();
    expect(context.tools.get('web_fetch')).toBeDefined();
    expect(context.tools.get('web_fetch')).not.toBe(fetchBefore);
    // A sandbox change forgets the decision (here: still no sandbox, with its reason).
    await context.settingsChanged('sandbox');
    expect(await context.toolStatus('python_execute')).toContain('AIVORY_LOCAL_SANDBOX=0');
  });
});
