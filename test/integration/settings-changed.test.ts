/**
 * A long-running process (desktop, `aivory serve`) applies changed settings without a restart:
 * each turn's tools are built from the current settings, and `settingsChanged('sandbox')` makes
 * the next use pick the sandbox again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/main/composition/app-context';
import { openAppContext } from '../../src/main/composition/app-context';
import { cliEnv, makeDataDir } from '../support/run-cli';

describe('changed settings in a running app', () => {
  let context: AppContext | null = null;
  afterEach(async () => {
    await context?.close();
  });

  it('builds search and web tools from the settings of the moment, nothing kept between turns', async () => {
    context = openAppContext({ env: cliEnv(makeDataDir()) });
    const search = async () => (await context?.tools.build(['aivory_web_search'])) ?? null;
    expect(await search()).toMatchObject({
      tools: [],
      missing: [{ name: 'aivory_web_search', reason: expect.stringContaining('disabled') }],
    });
    const fetchBefore = (await context.tools.build(['web_fetch'])).tools[0];
    expect(fetchBefore?.name).toBe('web_fetch');

    context.settings.update('search', { provider: 'searxng', baseUrl: 'http://127.0.0.1:8888' });
    const searchBefore = (await search())?.tools[0];
    expect(searchBefore?.name).toBe('aivory_web_search');
    context.settings.update('search', { baseUrl: 'http://127.0.0.1:9999' });
    // No notification needed: the next build reads the new address.
    const searchAfter = (await search())?.tools[0];
    expect(searchAfter?.name).toBe('aivory_web_search');
    expect(searchAfter).not.toBe(searchBefore);

    context.settings.update('search', { provider: 'disabled' });
    expect((await search())?.tools).toEqual([]);

    context.settings.update('web', { maxBodyMegabytes: 9 });
    expect((await context.tools.build(['web_fetch'])).tools[0]).not.toBe(fetchBefore);
    // A sandbox change forgets the decision (here: still no sandbox, with its reason).
    await context.settingsChanged('sandbox');
    expect(await context.toolStatus('python_execute')).toContain('AIVORY_LOCAL_SANDBOX=0');
  });
});
