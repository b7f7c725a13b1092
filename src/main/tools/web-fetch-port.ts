/**
 * The ports web_fetch and fetch_image depend on. The SSRF-guarded implementation lives in
 * src/main/adapters/fetch/ (createGuardedFetcher, createPdfTextExtractor); tests use fakes.
 */
import type { Logger } from '../core/ports';

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
export type WebResourceResult = { ok: true; resource: WebResource } | { ok: false; error: string };

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
