/**
 * Brave Search API (paid, key required): GET <base>/res/v1/web/search?q=…&count=… with
 * `X-Subscription-Token`; results are in `web.results[]` (title/url/description/page_age), with
 * matches wrapped in <strong>, which the hit cleaner removes.
 */
import { asRecord, toHit } from './hits';
import { endpointUrl, parseJsonBody, requestText } from './http';
import { paidApiStatusError, requireKey } from './paid-api';
import type { SearchBackend, SearchHit } from './types';
import type { SearchTransport } from '../../core/ports';
import { SearchBackendError } from './types';

export const BRAVE_DEFAULT_BASE_URL = 'https://api.search.brave.com';

export interface BraveBackendOptions {
  apiKey: string | null;
  /** Overridable for tests and proxies; the app uses BRAVE_DEFAULT_BASE_URL. */
  baseUrl?: string;
  transport: SearchTransport;
}

export function createBraveBackend(options: BraveBackendOptions): SearchBackend {
  const baseUrl = options.baseUrl ?? BRAVE_DEFAULT_BASE_URL;
  const label = 'Brave Search';
  return {
    label,
    search: async (query, { topK, signal }) => {
      const apiKey = requireKey(label, options.apiKey);
      const url = endpointUrl(baseUrl, 'res/v1/web/search');
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(topK));
      const answer = await requestText(options.transport, {
        url: url.href,
        init: {
          method: 'GET',
          headers: { Accept: 'application/json', 'X-Subscription-Token': apiKey },
        },
        signal,
        target: label,
      });
      if (answer.status !== 200) {
        // Brave reports an unknown or revoked token as 422 with this code, not as 401.
        const keyRejected = answer.text.includes('SUBSCRIPTION_TOKEN_INVALID');
        throw paidApiStatusError(label, answer.status, answer.text, keyRejected);
      }
      const body = parseJsonBody(answer.text, label, 'the service may be having problems.');
      return parseBraveResults(body, topK);
    },
  };
}

/** Hits from Brave's `web.results[]`. No `web` section means no web results, not an error. */
export function parseBraveResults(body: unknown, topK: number): SearchHit[] {
  const record = asRecord(body);
  if (!record) throw new SearchBackendError('Brave Search answered JSON that is not an object.');
  const web = asRecord(record.web);
  const results = web && Array.isArray(web.results) ? web.results : [];
  const hits: SearchHit[] = [];
  for (const item of results) {
    if (hits.length >= topK) break;
    const result = asRecord(item);
    if (!result) continue;
    const hit = toHit({
      title: result.title,
      url: result.url,
      snippet: result.description,
      publishedDate: result.page_age ?? result.age,
    });
    if (hit) hits.push(hit);
  }
  return hits;
}
