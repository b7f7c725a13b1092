/**
 * web_fetch: fetches up to four pages concurrently through the SSRF-guarded fetcher and returns
 * each page's main content as Markdown with its title and final URL, in the order asked.
 * Definition verbatim from the seed (docs/seeds/000_67077f376ad9eee3.txt); checked by a test.
 * One failing URL does not fail the others: each gets its own error line.
 *
 * In a tainted turn (docs/architecture/turn-taint.md) a URL to a new host that carries a query
 * string asks first (tainted-fetch-gate.ts).
 */
import type {
  PdfTextExtractor,
  Tool,
  ToolContext,
  ToolOutput,
  WebResourceFetcher,
} from '../core/ports';
import { builtInArgumentCheck } from './arguments/argument-check';
import { USER_APPROVAL_WAIT_MS } from '../core/ports';
import { taintedFetchGate } from './tainted-fetch-gate';
import { checkPageMediaType, PAGE_ACCEPT, readPage } from './web-page-content';

export const WEB_FETCH_NAME = 'web_fetch';

export const WEB_FETCH_DESCRIPTION =
  'Fetch the main text content of web pages. Use url for one page or urls to batch several known pages into one tool call. SSRF-guarded: internal IPs are blocked.';

export const WEB_FETCH_SCHEMA_JSON =
  '{"type":"object","properties":{"url":{"type":"string","description":"One web URL. Use either url or urls."},"urls":{"type":"array","items":{"type":"string"},"maxItems":4,"description":"Up to 4 web URLs to fetch in one tool call."}}}';

/** The seed's maxItems. */
export const MAX_WEB_FETCH_URLS = 4;
/** Characters of one page the model sees; the rest is cut with a marker. */
export const MAX_PAGE_CHARS = 20_000;
/** Characters of a whole batch: four pages share it, so a batch costs at most two pages. */
export const MAX_BATCH_CHARS = 40_000;
/** Longest URL argument accepted by validation (the fetcher has its own, equal limit). */
const MAX_URL_ARGUMENT_CHARS = 8192;
/** The fetch deadline (20 s) plus PDF extraction (15 s) plus margin. */
const DEFAULT_TIMEOUT_MS = 45_000;

export interface WebFetchDependencies {
  fetcher: WebResourceFetcher;
  pdf: PdfTextExtractor;
  maxPageChars?: number;
  maxBatchChars?: number;
  timeoutMs?: number;
}

export function createWebFetchTool(dependencies: WebFetchDependencies): Tool {
  return {
    name: WEB_FETCH_NAME,
    description: WEB_FETCH_DESCRIPTION,
    inputSchema: JSON.parse(WEB_FETCH_SCHEMA_JSON) as Record<string, unknown>,
    timeoutMs: (dependencies.timeoutMs ?? DEFAULT_TIMEOUT_MS) + USER_APPROVAL_WAIT_MS,
    validate: (args) => {
      const urls = requestedUrls(args);
      return typeof urls === 'string' ? urls : null;
    },
    // A page is untrusted content: fetching one taints the turn, one reason per URL.
    untrustedOutput: {
      sources: (args) => {
        const urls = requestedUrls(args);
        return typeof urls === 'string' ? [] : urls;
      },
    },
    execute: async (args, context) => {
      const urls = requestedUrls(args);
      if (typeof urls === 'string') return { content: urls, isError: true, untrustedSources: [] };
      return run(dependencies, urls, context);
    },
  };
}

const checkSchema = builtInArgumentCheck(WEB_FETCH_SCHEMA_JSON, {
  properties: {
    url: { maxLength: MAX_URL_ARGUMENT_CHARS },
    urls: {
      items: { maxLength: MAX_URL_ARGUMENT_CHARS },
      messages: {
        maxItems: `at most ${MAX_WEB_FETCH_URLS} URLs per call; split them over several calls`,
      },
    },
  },
});

/** The URLs asked for (`url` then `urls`, duplicates dropped), or a message for the model. */
export function requestedUrls(args: unknown): string[] | string {
  const invalid = checkSchema(args);
  if (invalid !== null) return invalid;
  const record = Object.fromEntries(Object.entries(args ?? {}));
  const url: unknown = record.url ?? undefined;
  const list: unknown = record.urls ?? undefined;
  const urls = [
    ...(typeof url === 'string' ? [url] : []),
    ...(Array.isArray(list) ? list.map(String) : []),
  ];
  const unique = [...new Set(urls.map((item) => item.trim()).filter((item) => item !== ''))];
  if (unique.length === 0) return 'give "url" (one web URL) or "urls" (up to 4)';
  if (unique.length > MAX_WEB_FETCH_URLS) {
    return `at most ${MAX_WEB_FETCH_URLS} URLs per call (got ${unique.length}); split them over several calls`;
  }
  return unique;
}

type PageOutcome =
  | { url: string; ok: true; finalUrl: string; title: string | null; text: string }
  | { url: string; ok: false; error: string; refused?: true };

async function run(
  dependencies: WebFetchDependencies,
  urls: string[],
  context: ToolContext,
): Promise<ToolOutput> {
  const outcomes = await Promise.all(urls.map((url) => fetchPage(dependencies, url, context)));
  const perPage = Math.min(
    dependencies.maxPageChars ?? MAX_PAGE_CHARS,
    Math.floor((dependencies.maxBatchChars ?? MAX_BATCH_CHARS) / urls.length),
  );
  const sections = outcomes.map((outcome, index) => {
    const heading =
      urls.length > 1 ? `=== ${index + 1} of ${urls.length}: ${outcome.url} ===\n` : '';
    if (!outcome.ok) return `${heading}Could not fetch ${outcome.url}: ${outcome.error}`;
    const lines = [`Title: ${outcome.title ?? '(none)'}`, `URL: ${outcome.finalUrl}`];
    const body =
      outcome.text.trim() === ''
        ? '(the page has no readable text)'
        : truncate(outcome.text, perPage);
    return `${heading}${lines.join('\n')}\n\n${body}`;
  });
  return {
    content: sections.join('\n\n'),
    isError: outcomes.every((outcome) => !outcome.ok),
    // The turn's taint names the addresses requested, not those refused before any request (by
    // the approval gate or the address rules): nothing was read from them, and a refused host
    // must not count as one the turn already sent data to.
    untrustedSources: outcomes
      .filter((outcome) => outcome.ok || outcome.refused !== true)
      .map((outcome) => outcome.url),
  };
}

async function fetchPage(
  dependencies: WebFetchDependencies,
  url: string,
  context: ToolContext,
): Promise<PageOutcome> {
  const gate = taintedFetchGate(WEB_FETCH_NAME, url, context);
  const refusal = gate === null ? null : await gate;
  if (refusal !== null) return { url, ok: false, error: refusal, refused: true };
  const result = await dependencies.fetcher.fetch({
    url,
    signal: context.signal,
    accept: PAGE_ACCEPT,
    checkMediaType: checkPageMediaType,
    logger: context.logger,
  });
  if (!result.ok) {
    // Refused by the address rules before any request: like the gate's refusal, nothing read.
    return result.refusedBeforeRequest
      ? { url, ok: false, error: result.error, refused: true }
      : { url, ok: false, error: result.error };
  }
  const page = await readPage(result.resource, dependencies.pdf, context.signal);
  if ('error' in page) return { url, ok: false, error: page.error };
  return { url, ok: true, finalUrl: result.resource.finalUrl, title: page.title, text: page.text };
}

/** Cuts `text` to `limit` characters (never inside a surrogate pair) and says so. */
export function truncate(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  const total = text.length.toLocaleString('en-US');
  return `${text.slice(0, end)}\n\n[… truncated: showing the first ${end.toLocaleString('en-US')} of ${total} characters …]`;
}
