/**
 * The guarded fetcher's limits. Each one bounds something a hostile or broken server controls;
 * every value is a default the caller (settings, a tool) may override per fetcher or request.
 */

export interface FetchLimits {
  /** Largest body after decompression; the compressed body is held to the same cap. */
  maxBodyBytes: number;
  /** Everything — resolving, connecting, every redirect hop, the body — ends by this. */
  deadlineMs: number;
  /** Longest wait for a response's headers after a request is sent. */
  headersTimeoutMs: number;
  /** Largest response header block. */
  maxHeaderBytes: number;
  /** Redirects followed before giving up. */
  maxRedirects: number;
  /** Ports other than 80/443 are refused unless this is on. */
  allowNonDefaultPorts: boolean;
}

/**
 * 5 MB decoded: far more text than a model reads (pages are cut to tens of thousands of
 * characters), small enough to parse in the main process, and the cap that stops a 50 KB gzip
 * bomb from becoming 50 MB in memory.
 */
export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
/**
 * 20 s overall: an idle timeout alone lets a server drip one byte every few seconds forever;
 * this is the wall-clock bound for one fetch including all redirects.
 */
export const DEFAULT_DEADLINE_MS = 20_000;
/** 10 s for headers: a server that has not started answering by then is not going to. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** 32 KB of headers: twice Node's default, room for large cookies and CSPs, bounds memory. */
export const DEFAULT_MAX_HEADER_BYTES = 32 * 1024;
/** 5 redirects: what real sites need (http→https→www→locale); more is a loop or an attack. */
export const DEFAULT_MAX_REDIRECTS = 5;

export const DEFAULT_FETCH_LIMITS: Readonly<FetchLimits> = {
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  deadlineMs: DEFAULT_DEADLINE_MS,
  headersTimeoutMs: DEFAULT_HEADERS_TIMEOUT_MS,
  maxHeaderBytes: DEFAULT_MAX_HEADER_BYTES,
  maxRedirects: DEFAULT_MAX_REDIRECTS,
  allowNonDefaultPorts: false,
};

/** `20 s`, `1.5 s`. */
export function formatDuration(milliseconds: number): string {
  return `${trimNumber(milliseconds / 1000)} s`;
}

function trimNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, '');
}
