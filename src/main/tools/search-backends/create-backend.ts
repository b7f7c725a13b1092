/**
 * Builds the backend a configuration names. Callers check `searchAvailability` first: asking
 * for a backend of a disabled configuration is a programming error and throws.
 */
import { BRAVE_DEFAULT_BASE_URL, createBraveBackend } from './brave';
import { createSearxngBackend } from './searxng';
import { createSerperBackend, SERPER_DEFAULT_BASE_URL } from './serper';
import type { SearchBackend, SearchBackendConfig } from './types';
import type { SearchTransport } from '../../core/ports';

export function createSearchBackend(
  config: SearchBackendConfig,
  transport: SearchTransport,
): SearchBackend {
  switch (config.provider) {
    case 'searxng':
      return createSearxngBackend({ baseUrl: config.baseUrl, engines: config.engines, transport });
    case 'serper':
      return createSerperBackend({ apiKey: config.apiKey, baseUrl: config.baseUrl, transport });
    case 'brave':
      return createBraveBackend({ apiKey: config.apiKey, baseUrl: config.baseUrl, transport });
    case 'disabled':
      throw new Error('web search is disabled; check searchAvailability before building a backend');
  }
}

/** The API origin of a paid provider, or null for providers whose address the user gives. */
export function defaultBaseUrl(provider: SearchBackendConfig['provider']): string | null {
  if (provider === 'serper') return SERPER_DEFAULT_BASE_URL;
  if (provider === 'brave') return BRAVE_DEFAULT_BASE_URL;
  return null;
}

/**
 * The one origin the backend talks to: what the app's restricted fetcher must allow (and the
 * only one). Null when the configuration has no usable base URL.
 */
export function searchEndpointOrigin(config: SearchBackendConfig): string | null {
  if (config.provider === 'disabled' || !URL.canParse(config.baseUrl)) return null;
  return new URL(config.baseUrl).origin;
}
