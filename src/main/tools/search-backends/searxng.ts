/**
 * SearXNG (self-hosted, no key): GET <base>/search?q=…&format=json[&engines=a,b]. The instance
 * must allow the json format (search.formats in its settings.yml), otherwise it answers 403.
 */
import { cleanText } from './clean-text';
import { asRecord, toHit } from './hits';
import { errorDetail, parseJsonBody, requestText } from './http';
import type { SearchBackend, SearchHit } from './types';
import type { SearchTransport } from '../../core/ports';
import { SearchBackendError } from './types';

export interface SearxngBackendOptions {
  /** The instance root, e.g. https://searx.example.com or http://127.0.0.1:8888/searxng/. */
  baseUrl: string;
  /** Engine names sent as `engines`; empty uses the instance's default engines. */
  engines: readonly string[];
  transport: SearchTransport;
}

/**
 * The seed's engine list ("逗号/空格分隔"): split on commas when there is one (SearXNG engine
 * names may contain spaces, e.g. "google news"), otherwise on whitespace. Lowercased, because
 * SearXNG compares engine names exactly and they are all lowercase; duplicates dropped.
 */
export function normaliseEngines(input: string): string[] {
  const separator = input.includes(',') ? /,/ : /\s+/;
  const names = input
    .split(separator)
    .map((name) => name.trim().replace(/\s+/g, ' ').toLowerCase())
    .filter((name) => name !== '');
  return [...new Set(names)];
}

/**
 * The search URL for an instance root. A base pasted with its `/search` path, a query string or
 * a fragment still works: those parts are dropped.
 */
export function searxngSearchUrl(baseUrl: string, query: string, engines: readonly string[]): URL {
  const url = new URL(baseUrl);
  url.search = '';
  url.hash = '';
  const root = url.pathname.replace(/\/search\/?$/, '').replace(/\/*$/, '/');
  url.pathname = `${root}search`;
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'json');
  if (engines.length > 0) url.searchParams.set('engines', engines.join(','));
  return url;
}

/** The root shown in messages: the base URL without credentials, query or trailing slash. */
function displayBase(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function createSearxngBackend(options: SearxngBackendOptions): SearchBackend {
  const label = `SearXNG at ${displayBase(options.baseUrl)}`;
  return {
    label,
    search: async (query, { topK, signal }) => {
      const url = searxngSearchUrl(options.baseUrl, query, options.engines);
      const answer = await requestText(options.transport, {
        url: url.href,
        init: { method: 'GET', headers: { Accept: 'application/json' } },
        signal,
        target: label,
      });
      if (answer.status !== 200) throw statusError(label, answer.status, answer.text);
      const body = parseJsonBody(
        answer.text,
        label,
        'check that the base URL is the SearXNG instance root and that nothing (a login page, a proxy) stands in front of it.',
      );
      return parseSearxngResults(body, label, topK);
    },
  };
}

function statusError(label: string, status: number, text: string): SearchBackendError {
  if (status === 403) {
    return new SearchBackendError(
      `${label} refused the JSON format (HTTP 403). Enable it in SearXNG's settings.yml: add "json" under search.formats (formats: [html, json]), then restart SearXNG.`,
    );
  }
  if (status === 429) {
    return new SearchBackendError(
      `${label} refused the request as too many (HTTP 429): its bot limiter is on. For a private instance set server.limiter: false in settings.yml.`,
    );
  }
  if (status === 404) {
    return new SearchBackendError(
      `${label} has no search endpoint (HTTP 404); the base URL should be the instance root, e.g. https://searx.example.com.`,
    );
  }
  const detail = errorDetail(text);
  return new SearchBackendError(`${label} answered HTTP ${status}${detail ? `: ${detail}` : ''}.`);
}

/**
 * Hits from SearXNG's JSON answer (`results[]` with title/url/content/engine/publishedDate).
 * An empty answer caused by failing engines is an error naming them, so the user can fix the
 * engine list instead of wondering why nothing is ever found.
 */
export function parseSearxngResults(body: unknown, label: string, topK: number): SearchHit[] {
  const record = asRecord(body);
  if (!record || !Array.isArray(record.results)) {
    throw new SearchBackendError(`${label} answered JSON without a "results" list; is it SearXNG?`);
  }
  const hits: SearchHit[] = [];
  for (const item of record.results) {
    if (hits.length >= topK) break;
    const result = asRecord(item);
    if (!result) continue;
    const hit = toHit({
      title: result.title,
      url: result.url,
      snippet: result.content,
      engine: result.engine,
      publishedDate: result.publishedDate,
    });
    if (hit) hits.push(hit);
  }
  if (hits.length === 0) {
    const failed = unresponsiveEngines(record.unresponsive_engines);
    if (failed.length > 0) {
      throw new SearchBackendError(
        `${label} found nothing because its engines failed: ${failed.join(', ')}. Try other engines in the SearXNG engine list.`,
      );
    }
  }
  return hits;
}

/** `unresponsive_engines` is a list of [name, reason] pairs; "name (reason)" for each. */
function unresponsiveEngines(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.slice(0, 8).flatMap((entry: unknown) => {
    if (!Array.isArray(entry)) return [];
    const [name, reason] = entry.map((part: unknown) =>
      typeof part === 'string' ? cleanText(part) : '',
    );
    if (!name) return [];
    return [reason ? `${name} (${reason})` : name];
  });
}
