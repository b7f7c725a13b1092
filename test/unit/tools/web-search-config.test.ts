import { describe, expect, it } from 'vitest';
import { AivoryError } from '../../../src/shared/errors';
import type { SearchSettings } from '../../../src/main/services/search-config';
import { resolveSearchConfig, searchAvailability } from '../../../src/main/services/search-config';
import { settingsSchemas } from '../../../src/main/services/settings-service';
import {
  createSearchBackend,
  searchEndpointOrigin,
} from '../../../src/main/tools/search-backends/create-backend';

const defaults: SearchSettings = settingsSchemas(4096).search().parse({});

function secrets(values: Record<string, string>) {
  return {
    get: (ref: string): Promise<string | null> => Promise.resolve(values[ref] ?? null),
  };
}
const noSecrets = secrets({});

describe('resolveSearchConfig', () => {
  it('is disabled when nothing is saved and no SEARCH_* variable is set', async () => {
    const config = await resolveSearchConfig(null, {}, noSecrets);
    expect(config).toEqual({
      provider: 'disabled',
      baseUrl: '',
      engines: [],
      apiKey: null,
      source: 'environment',
      problem: null,
    });
    expect(searchAvailability(config)).toEqual({
      available: false,
      reason:
        'Web search is disabled: choose a backend in the search settings (search.provider: searxng, serper or brave) or set SEARCH_PROVIDER.',
    });
  });

  it('takes start-up defaults from SEARCH_PROVIDER / SEARCH_BASE_URL / SEARCH_API_KEY', async () => {
    const env = {
      SEARCH_PROVIDER: ' SearXNG ',
      SEARCH_BASE_URL: 'http://127.0.0.1:8888/',
      SEARCH_API_KEY: 'ignored',
    };
    // Never saved (null) and saved-but-all-defaults both leave the environment in charge.
    for (const settings of [null, defaults]) {
      const config = await resolveSearchConfig(settings, env, noSecrets);
      expect(config).toMatchObject({
        provider: 'searxng',
        baseUrl: 'http://127.0.0.1:8888/',
        apiKey: null,
        source: 'environment',
      });
      expect(searchAvailability(config)).toEqual({
        available: true,
        reason:
          "Searching with SearXNG at http://127.0.0.1:8888/ (engines: the instance's default; from SEARCH_* variables).",
      });
    }
    const serper = await resolveSearchConfig(
      null,
      { SEARCH_PROVIDER: 'serper', SEARCH_API_KEY: 'k1' },
      noSecrets,
    );
    expect(serper).toMatchObject({
      provider: 'serper',
      baseUrl: 'https://google.serper.dev',
      apiKey: 'k1',
    });
    expect(searchAvailability(serper).available).toBe(true);
  });

  it('lets saved settings win over the environment as a whole', async () => {
    const env = {
      SEARCH_PROVIDER: 'brave',
      SEARCH_API_KEY: 'env-key',
      SEARCH_BASE_URL: 'http://env.example',
    };
    const saved: SearchSettings = {
      ...defaults,
      provider: 'searxng',
      baseUrl: ' https://searx.example.com ',
      engines: 'Bing, wikipedia',
    };
    expect(await resolveSearchConfig(saved, env, noSecrets)).toEqual({
      provider: 'searxng',
      baseUrl: 'https://searx.example.com',
      engines: ['bing', 'wikipedia'],
      apiKey: null,
      source: 'settings',
      problem: null,
    });
    // A saved paid provider without a key does not borrow SEARCH_API_KEY (meant for another one).
    const serper = await resolveSearchConfig({ ...defaults, provider: 'serper' }, env, noSecrets);
    expect(serper.apiKey).toBeNull();
    expect(searchAvailability(serper)).toEqual({
      available: false,
      reason:
        'Serper needs an API key: enter it in the search settings (saved settings are used instead of SEARCH_API_KEY).',
    });
    const withKey = await resolveSearchConfig(
      { ...defaults, provider: 'serper', apiKeyRef: 'search.apiKey' },
      env,
      secrets({ 'search.apiKey': 'stored-key' }),
    );
    expect(withKey).toMatchObject({ apiKey: 'stored-key', source: 'settings' });
    expect(searchAvailability(withKey)).toEqual({
      available: true,
      reason: 'Searching with Serper (key from settings).',
    });
    // Saved "disabled" with a saved field is a decision: the environment is not used.
    const off = await resolveSearchConfig({ ...defaults, engines: 'bing' }, env, noSecrets);
    expect(off.provider).toBe('disabled');
    expect(searchAvailability(off).reason).toBe(
      'Web search is disabled in the search settings (search.provider).',
    );
  });

  it('uses the official API origin for paid providers, never a SearXNG base URL', async () => {
    const saved: SearchSettings = {
      ...defaults,
      provider: 'brave',
      baseUrl: 'http://old-searxng.example',
      apiKeyRef: 'ref',
    };
    const config = await resolveSearchConfig(saved, {}, secrets({ ref: 'brave-key' }));
    expect(config.baseUrl).toBe('https://api.search.brave.com');
    expect(searchEndpointOrigin(config)).toBe('https://api.search.brave.com');
    expect(createSearchBackend(config, { fetch }).label).toBe('Brave Search');
  });

  it('reports an unknown SEARCH_PROVIDER and an unreadable saved key', async () => {
    const unknown = await resolveSearchConfig(null, { SEARCH_PROVIDER: 'google' }, noSecrets);
    expect(searchAvailability(unknown)).toEqual({
      available: false,
      reason: 'SEARCH_PROVIDER="google" is not one of disabled, searxng, serper, brave.',
    });
    const broken = {
      get: () =>
        Promise.reject(new AivoryError('config', 'The saved secret "ref" cannot be decrypted.')),
    };
    const config = await resolveSearchConfig(
      { ...defaults, provider: 'brave', apiKeyRef: 'ref' },
      {},
      broken,
    );
    expect(searchAvailability(config)).toEqual({
      available: false,
      reason:
        'The Brave Search API key cannot be read: The saved secret "ref" cannot be decrypted.',
    });
  });
});

describe('searchAvailability for SearXNG', () => {
  it.each([
    ['', "SearXNG needs the instance's base URL: set SEARCH_BASE_URL."],
    [
      'searx.example.com',
      'The SearXNG base URL (SEARCH_BASE_URL) "searx.example.com" is not a URL (expected e.g. https://searx.example.com).',
    ],
    [
      'ftp://searx.example.com',
      'The SearXNG base URL (SEARCH_BASE_URL) must start with http:// or https://.',
    ],
    [
      'https://user:pw@searx.example.com',
      'The SearXNG base URL (SEARCH_BASE_URL) must not contain a user name or password.',
    ],
  ])('refuses base URL %j', async (baseUrl, reason) => {
    const config = await resolveSearchConfig(
      null,
      { SEARCH_PROVIDER: 'searxng', SEARCH_BASE_URL: baseUrl },
      noSecrets,
    );
    expect(searchAvailability(config)).toEqual({ available: false, reason });
  });

  it('needs no key, names the engines, and gives the origin to allow', async () => {
    const saved: SearchSettings = {
      ...defaults,
      provider: 'searxng',
      baseUrl: 'http://127.0.0.1:8888/searxng',
      engines: 'bing wikipedia',
    };
    const config = await resolveSearchConfig(saved, {}, noSecrets);
    expect(searchAvailability(config)).toEqual({
      available: true,
      reason:
        'Searching with SearXNG at http://127.0.0.1:8888/searxng (engines: bing, wikipedia; from settings).',
    });
    expect(searchEndpointOrigin(config)).toBe('http://127.0.0.1:8888');
    expect(createSearchBackend(config, { fetch }).label).toBe(
      'SearXNG at http://127.0.0.1:8888/searxng',
    );
  });

  it('refuses to build a backend for a disabled configuration', async () => {
    const config = await resolveSearchConfig(null, {}, noSecrets);
    expect(() => createSearchBackend(config, { fetch })).toThrow(/disabled/);
    expect(searchEndpointOrigin(config)).toBeNull();
  });
});
