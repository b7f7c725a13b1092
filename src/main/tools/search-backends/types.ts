/**
 * The seam between aivory_web_search and the services that answer it (SearXNG, Serper, Brave).
 * Backends turn one query into ranked hits or throw a `SearchBackendError` whose message is
 * written for the user and the model (it names the backend and what to fix).
 */

/** One search result, already cleaned of HTML tags and entities. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  /** The engine that found it, when the backend says (SearXNG does). */
  engine?: string;
  /** When the page was published, as the backend reported it (ISO date or e.g. "2 days ago"). */
  publishedDate?: string;
}

export interface SearchOptions {
  /** Hits wanted; backends return at most this many. */
  topK: number;
  /** The turn's abort signal; aborting it rejects with the signal's reason, not a backend error. */
  signal: AbortSignal;
}

export interface SearchBackend {
  /** Human-readable name used in messages, e.g. "SearXNG at http://127.0.0.1:8080". */
  readonly label: string;
  search(query: string, options: SearchOptions): Promise<SearchHit[]>;
}

/**
 * Fifteen seconds: public SearXNG engines answer in 1–5 s and the instance itself gives up on
 * slow engines after a few seconds; anything slower is a dead or overloaded backend. It stays
 * below the tool's own timeout so the user sees which backend was slow.
 */
export const DEFAULT_SEARCH_DEADLINE_MS = 15_000;

/**
 * Two MiB: a SearXNG page of results with infoboxes is typically 20–200 KiB, Serper and Brave
 * answers are smaller. More than this is not a search answer, and reading it would only burn
 * memory.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** An expected failure of a search backend; the message is safe to show and says what to do. */
export class SearchBackendError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SearchBackendError';
  }
}

/** The backends the seed offers; `disabled` means the tool is not offered to models at all. */
export type SearchProvider = 'disabled' | 'searxng' | 'serper' | 'brave';

/** What a backend needs to be built; `services/search-config.ts` resolves it from settings/env. */
export interface SearchBackendConfig {
  provider: SearchProvider;
  /** SearXNG: the instance root. Serper/Brave: the API origin (their official one in the app). */
  baseUrl: string;
  /** SearXNG engine names, already normalised; empty means the instance's defaults. */
  engines: readonly string[];
  /** Serper/Brave key; null when none is configured. */
  apiKey: string | null;
}
