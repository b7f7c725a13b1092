/**
 * Serper (Google results, paid, key required): POST <base>/search with `X-API-KEY` and a JSON
 * body `{ "q": … }`; results are in `organic[]` (title/link/snippet/date).
 */
import { asRecord, toHit } from './hits';
import { endpointUrl, parseJsonBody, requestText } from './http';
import { paidApiStatusError, requireKey } from './paid-api';
import type { SearchBackend, SearchHit } from './types';
import type { SearchTransport } from '../../core/ports';
import { SearchBackendError } from './types';

export const SERPER_DEFAULT_BASE_URL = 'https://google.serper.dev';

export interface SerperBackendOptions {
  apiKey: string | null;
  /** Overridable for tests and proxies; the app uses SERPER_DEFAULT_BASE_URL. */
  baseUrl?: string;
  transport: SearchTransport;
}

export function createSerperBackend(options: SerperBackendOptions): SearchBackend {
  const baseUrl = options.baseUrl ?? SERPER_DEFAULT_BASE_URL;
  const label = 'Serper';
  return {
    label,
    search: async (query, { topK, signal }) => {
      const apiKey = requireKey(label, options.apiKey);
      const answer = await requestText(options.transport, {
        url: endpointUrl(baseUrl, 'search').href,
        init: {
          method: 'POST',
          headers: {
            'X-API-KEY': apiKey,
            'Content-Type': 'application/json',
            Accept: 'application/json',
          },
          // Serper's default page is 10 organic results, the most top_k allows; no `num`, so a
          // call is always billed as one credit.
          body: JSON.stringify({ q: query }),
        },
        signal,
        target: label,
      });
      if (answer.status !== 200) throw paidApiStatusError(label, answer.status, answer.text);
      const body = parseJsonBody(answer.text, label, 'the service may be having problems.');
      return parseSerperResults(body, topK);
    },
  };
}

/** Hits from Serper's `organic[]`. A missing list means no results, not an error. */
export function parseSerperResults(body: unknown, topK: number): SearchHit[] {
  const record = asRecord(body);
  if (!record) throw new SearchBackendError('Serper answered JSON that is not an object.');
  const organic = Array.isArray(record.organic) ? record.organic : [];
  const hits: SearchHit[] = [];
  for (const item of organic) {
    if (hits.length >= topK) break;
    const result = asRecord(item);
    if (!result) continue;
    const hit = toHit({
      title: result.title,
      url: result.link,
      snippet: result.snippet,
      publishedDate: result.date,
    });
    if (hit) hits.push(hit);
  }
  return hits;
}
