/**
 * The effective web-search configuration, following the seed (联网搜索): start-up defaults come
 * from SEARCH_PROVIDER / SEARCH_API_KEY / SEARCH_BASE_URL; once search settings are saved, the
 * stored settings win as a whole (no field-by-field mixing, so a key meant for one provider is
 * never sent to another). `searchAvailability` decides whether aivory_web_search is offered at
 * all and says why not, for the settings page and `aivory doctor`.
 */
import { AivoryError } from '../../shared/errors';
import { checkHttpUrl } from '../../shared/http-url';
import type { SecretStore } from '../core/ports';
import { defaultBaseUrl } from '../tools/search-backends/create-backend';
import { normaliseEngines } from '../tools/search-backends/searxng';
import type { SearchBackendConfig, SearchProvider } from '../tools/search-backends/types';
import type { Settings } from './settings-service';

export type SearchSettings = Settings['search'];

export interface SearchConfig extends SearchBackendConfig {
  /** Where it came from: the saved settings, or the SEARCH_* environment (also when unset). */
  source: 'settings' | 'environment';
  /** Why it cannot be used despite a provider being chosen (bad SEARCH_PROVIDER, unreadable key). */
  problem: string | null;
}

export interface SearchAvailability {
  available: boolean;
  /** One sentence for settings and `aivory doctor`: what is used, or what to fix. */
  reason: string;
}

const PROVIDERS: readonly SearchProvider[] = ['disabled', 'searxng', 'serper', 'brave'];

const PROVIDER_NAMES: Record<SearchProvider, string> = {
  disabled: 'Web search',
  searxng: 'SearXNG',
  serper: 'Serper',
  brave: 'Brave Search',
};

/**
 * Resolves the configuration. `settings` is the stored `search` record, or null when it was never
 * saved; a record with nothing but default values counts as not saved, so SEARCH_* still apply.
 * The API key is read from `secrets` (settings) or SEARCH_API_KEY (environment), and only for
 * the providers that use one.
 */
export async function resolveSearchConfig(
  settings: SearchSettings | null,
  env: Record<string, string | undefined>,
  secrets: Pick<SecretStore, 'get'>,
): Promise<SearchConfig> {
  if (settings !== null && isSaved(settings)) {
    const { provider } = settings;
    const config: SearchConfig = {
      provider,
      baseUrl: defaultBaseUrl(provider) ?? settings.baseUrl.trim(),
      engines: provider === 'searxng' ? normaliseEngines(settings.engines) : [],
      apiKey: null,
      source: 'settings',
      problem: null,
    };
    if (usesKey(provider) && settings.apiKeyRef) {
      try {
        config.apiKey = (await secrets.get(settings.apiKeyRef)) || null;
      } catch (error) {
        if (!(error instanceof AivoryError)) throw error;
        config.problem = `The ${PROVIDER_NAMES[provider]} API key cannot be read: ${error.message}`;
      }
    }
    return config;
  }
  const rawProvider = env.SEARCH_PROVIDER?.trim().toLowerCase() ?? '';
  const provider = PROVIDERS.find((candidate) => candidate === (rawProvider || 'disabled'));
  const problem = provider
    ? null
    : `SEARCH_PROVIDER="${rawProvider.slice(0, 40)}" is not one of ${PROVIDERS.join(', ')}.`;
  const chosen = provider ?? 'disabled';
  return {
    provider: chosen,
    baseUrl: defaultBaseUrl(chosen) ?? env.SEARCH_BASE_URL?.trim() ?? '',
    engines: [],
    apiKey: usesKey(chosen) ? env.SEARCH_API_KEY?.trim() || null : null,
    source: 'environment',
    problem,
  };
}

/**
 * Whether aivory_web_search may be offered, and why (not). SearXNG needs an http(s) base URL
 * without credentials in it; Serper and Brave need a key (the seed's 搜索总是“不可用” check).
 */
export function searchAvailability(config: SearchConfig): SearchAvailability {
  const name = PROVIDER_NAMES[config.provider];
  const fromSettings = config.source === 'settings';
  if (config.problem !== null) return { available: false, reason: config.problem };
  if (config.provider === 'disabled') {
    return {
      available: false,
      reason: fromSettings
        ? 'Web search is disabled in the search settings (search.provider).'
        : 'Web search is disabled: choose a backend in the search settings (search.provider: searxng, serper or brave) or set SEARCH_PROVIDER.',
    };
  }
  if (config.provider === 'searxng') {
    const where = fromSettings ? 'search.baseUrl in the search settings' : 'SEARCH_BASE_URL';
    if (config.baseUrl === '') {
      return { available: false, reason: `SearXNG needs the instance's base URL: set ${where}.` };
    }
    const invalid = invalidBaseUrl(config.baseUrl);
    if (invalid) return { available: false, reason: `The SearXNG base URL (${where}) ${invalid}.` };
    const engines =
      config.engines.length > 0 ? config.engines.join(', ') : "the instance's default";
    return {
      available: true,
      reason: `Searching with SearXNG at ${config.baseUrl} (engines: ${engines}; from ${fromSettings ? 'settings' : 'SEARCH_* variables'}).`,
    };
  }
  if (!config.apiKey) {
    return {
      available: false,
      reason: fromSettings
        ? `${name} needs an API key: enter it in the search settings (saved settings are used instead of SEARCH_API_KEY).`
        : `${name} needs an API key: set SEARCH_API_KEY or enter it in the search settings.`,
    };
  }
  return {
    available: true,
    reason: `Searching with ${name} (key from ${fromSettings ? 'settings' : 'SEARCH_API_KEY'}).`,
  };
}

function isSaved(settings: SearchSettings): boolean {
  return (
    settings.provider !== 'disabled' ||
    settings.baseUrl.trim() !== '' ||
    settings.engines.trim() !== '' ||
    settings.apiKeyRef !== null
  );
}

function usesKey(provider: SearchProvider): boolean {
  return provider === 'serper' || provider === 'brave';
}

/** Why a base URL cannot be used, or null when it can. */
function invalidBaseUrl(baseUrl: string): string | null {
  const verdict = checkHttpUrl(baseUrl);
  if (verdict.ok) return null;
  if (verdict.problem === 'invalid')
    return `"${baseUrl}" is not a URL (expected e.g. https://searx.example.com)`;
  if (verdict.problem === 'scheme') return 'must start with http:// or https://';
  return 'must not contain a user name or password';
}
