/**
 * The web ports. web_fetch and fetch_image fetch model-chosen URLs through `WebResourceFetcher`
 * (the SSRF-guarded implementation lives in src/main/adapters/fetch/: createGuardedFetcher,
 * createPdfTextExtractor); the search backends reach the configured origin through
 * `SearchTransport` (createEndpointFetcher); MCP's address rules resolve names through
 * `HostResolver`. Tests use fakes.
 */
import type { Logger } from './system';

/** Per-request overrides of the fetcher's limits (e.g. a larger cap for images). */
export interface WebFetchLimitOverrides {
  maxBodyBytes?: number;
  deadlineMs?: number;
}

export interface WebResourceRequest {
  url: string;
  /** The turn's signal: aborting it cancels the fetch, which then rejects with its reason. */
  signal: AbortSignal;
  /** The Accept header. */
  accept: string;
  /**
   * Judges the response's media type (lower-case essence, `''` when absent) before any of the
   * body is read: a refusal message for the model, or null to go on.
   */
  checkMediaType(mediaType: string): string | null;
  limits?: WebFetchLimitOverrides;
  /** Refusals are logged here (the model only sees the message). */
  logger?: Logger;
}

export interface WebResource {
  /** Where the content came from after redirects. */
  finalUrl: string;
  status: number;
  /** Lower-case media type essence from Content-Type, `''` when absent. */
  mediaType: string;
  /** The Content-Type charset parameter, lower-case, or null. */
  charset: string | null;
  /** The decoded (decompressed) body. */
  body: Uint8Array;
}

/**
 * Expected failures (refused URL or address, limits, HTTP errors, unreachable hosts) come back
 * as `{ ok: false, error }` with a message for the model; only cancellation rejects.
 */
export type WebResourceResult =
  | { ok: true; resource: WebResource }
  | {
      ok: false;
      error: string;
      /**
       * True when the address rules refused the URL before any request left (its own scheme,
       * host or addresses; not a redirect, whose answer was read): the server wrote nothing the
       * model reads, so the call read no untrusted content.
       */
      refusedBeforeRequest?: true;
    };

export interface WebResourceFetcher {
  fetch(request: WebResourceRequest): Promise<WebResourceResult>;
}

export type PdfTextResult =
  | { ok: true; pages: string[]; totalPages: number; title: string | null }
  | { ok: false; error: string };

/** Extracts the text layer of a PDF, bounded in time and memory. */
export interface PdfTextExtractor {
  extractText(bytes: Uint8Array, signal: AbortSignal): Promise<PdfTextResult>;
}

/** One A or AAAA answer. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Name resolution as a port, so tests can answer with their own addresses (and change their
 * answer between calls, as a DNS-rebinding attacker would).
 */
export interface HostResolver {
  /** Every A and AAAA answer for `hostname`. Rejects (e.g. ENOTFOUND) when there are none. */
  resolve(hostname: string, signal: AbortSignal): Promise<ResolvedAddress[]>;
}

/**
 * The HTTP client search backends use, shaped like the global `fetch`. The app passes a fetcher
 * that may reach exactly the configured origin; tests pass one that reaches loopback servers.
 */
export type SearchFetch = (url: string, init: RequestInit) => Promise<Response>;

/** How a search backend talks HTTP: the fetcher plus the limits every request is held to. */
export interface SearchTransport {
  fetch: SearchFetch;
  /** Whole-request deadline (connect, headers and body). Defaults to DEFAULT_SEARCH_DEADLINE_MS. */
  deadlineMs?: number;
  /** Largest response body read. Defaults to DEFAULT_MAX_RESPONSE_BYTES. */
  maxResponseBytes?: number;
}
