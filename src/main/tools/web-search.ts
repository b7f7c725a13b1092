/**
 * aivory_web_search: searches the public web through the configured backend (SearXNG, Serper or
 * Brave). Definition verbatim from the seed (docs/seeds/000_67077f376ad9eee3.txt, the first entry
 * under 注入提示词的内置工具定义); checked by a test. The tool is only built when
 * `searchAvailability` says the configuration is usable, so a disabled backend never reaches a
 * model.
 */
import type { Tool, ToolContext, ToolOutput } from '../core/ports';
import { builtInArgumentCheck } from './arguments/argument-check';
import type { QueryOutcome } from './search-backends/format-results';
import { formatSearchResults } from './search-backends/format-results';
import type { SearchBackend } from './search-backends/types';
import { DEFAULT_SEARCH_DEADLINE_MS, SearchBackendError } from './search-backends/types';

export const WEB_SEARCH_NAME = 'aivory_web_search';

export const WEB_SEARCH_DESCRIPTION =
  'Search the public web for current information. Use query for one search or queries to batch several known searches into one tool call. Returns titled snippets with URLs.';

export const WEB_SEARCH_SCHEMA_JSON =
  '{"type":"object","properties":{"query":{"type":"string","description":"One search query. Use either query or queries."},"queries":{"type":"array","items":{"type":"string"},"maxItems":5,"description":"Up to 5 independent search queries. Prefer this when several searches are known in advance."},"top_k":{"type":"integer","minimum":1,"maximum":10,"description":"Maximum results per query."}}}';

/** The schema's `maxItems`. */
export const MAX_QUERIES = 5;
/** The schema's `top_k` range, and the default when the model leaves it out. */
export const MIN_TOP_K = 1;
export const MAX_TOP_K = 10;
export const DEFAULT_TOP_K = 5;
/**
 * Search engines ignore everything past a few hundred characters (Google stops at 32 words);
 * a longer "query" is a pasted document and is refused so the model rewrites it.
 */
export const MAX_QUERY_CHARS = 500;
/**
 * About 3k tokens for the whole answer: enough for 5 queries × 5 hits with 300-character
 * snippets, small enough that a batch of searches does not crowd out the conversation.
 */
export const MAX_OUTPUT_CHARS = 12_000;

export interface WebSearchToolOptions {
  backend: SearchBackend;
  /** Total run time allowed; must exceed the backend's own deadline so its message is seen. */
  timeoutMs?: number;
  /** Output bound; tests lower it. */
  maxOutputChars?: number;
}

/** Validated arguments: the distinct queries in first-seen order, and hits per query. */
export interface SearchRequest {
  queries: string[];
  topK: number;
}

const checkSchema = builtInArgumentCheck(WEB_SEARCH_SCHEMA_JSON, {
  properties: {
    query: { nonBlank: true },
    queries: {
      minItems: 1,
      items: { nonBlank: true },
      messages: { minItems: '"queries" must contain at least one query' },
    },
  },
});

/**
 * Checks and normalises arguments: the seed's schema (each query a non-empty string, at most
 * MAX_QUERIES of them, `top_k` an integer in range), then exactly one of `query`/`queries` (null
 * counts as absent) and each query within MAX_QUERY_CHARS once spaces are collapsed. Queries
 * identical after trimming and collapsing spaces are kept once.
 */
export function parseSearchArguments(
  args: unknown,
): { ok: true; request: SearchRequest } | { ok: false; message: string } {
  const fail = (message: string) => ({ ok: false as const, message });
  const invalid = checkSchema(args);
  if (invalid !== null) return fail(invalid);
  const record = Object.fromEntries(Object.entries(args ?? {}));
  const query = record.query ?? undefined;
  const queries = record.queries ?? undefined;
  if (query !== undefined && queries !== undefined) {
    return fail('use either "query" (one search) or "queries" (several), not both');
  }
  if (query === undefined && queries === undefined) {
    return fail(`provide "query" (one search) or "queries" (up to ${MAX_QUERIES} searches)`);
  }
  // The schema has checked the types: strings (non-blank), an array of them, an integer.
  const texts = Array.isArray(queries) ? queries.map(String) : [String(query)];
  const distinct = new Set<string>();
  for (const [index, text] of texts.entries()) {
    const field = queries === undefined ? '"query"' : `"queries[${index}]"`;
    const normalised = text.trim().replace(/\s+/g, ' ');
    if (normalised.length > MAX_QUERY_CHARS) {
      return fail(`${field} is longer than ${MAX_QUERY_CHARS} characters; search for key terms`);
    }
    distinct.add(normalised);
  }
  const topK = Number(record.top_k ?? DEFAULT_TOP_K);
  return { ok: true, request: { queries: [...distinct.values()], topK } };
}

export function createWebSearchTool(options: WebSearchToolOptions): Tool {
  return {
    name: WEB_SEARCH_NAME,
    description: WEB_SEARCH_DESCRIPTION,
    inputSchema: JSON.parse(WEB_SEARCH_SCHEMA_JSON) as Record<string, unknown>,
    // Queries run concurrently, so one backend deadline bounds the call; the margin lets the
    // backend's own "did not answer" message arrive before the generic timeout text.
    timeoutMs: options.timeoutMs ?? DEFAULT_SEARCH_DEADLINE_MS + 5_000,
    validate: (args) => {
      const parsed = parseSearchArguments(args);
      return parsed.ok ? null : parsed.message;
    },
    // Search results are untrusted content (titles and snippets written by anyone).
    untrustedOutput: {},
    execute: (args, context) => run(options, args, context),
  };
}

/**
 * Runs every distinct query concurrently. A backend failure is reported in that query's section
 * and does not affect the others; the result is an error only when every query failed.
 */
async function run(
  options: WebSearchToolOptions,
  args: unknown,
  context: ToolContext,
): Promise<ToolOutput> {
  const parsed = parseSearchArguments(args);
  if (!parsed.ok) return { content: `Invalid arguments: ${parsed.message}.`, isError: true };
  const { queries, topK } = parsed.request;
  const outcomes = await Promise.all(
    queries.map((query) => searchOne(options.backend, query, topK, context)),
  );
  const failed = outcomes.filter((outcome) => 'error' in outcome);
  if (queries.length === 1 && failed[0] && 'error' in failed[0]) {
    return { content: failed[0].error, isError: true };
  }
  return {
    content: formatSearchResults(outcomes, options.maxOutputChars ?? MAX_OUTPUT_CHARS),
    isError: failed.length === outcomes.length,
  };
}

async function searchOne(
  backend: SearchBackend,
  query: string,
  topK: number,
  context: ToolContext,
): Promise<QueryOutcome> {
  try {
    return { query, hits: await backend.search(query, { topK, signal: context.signal }) };
  } catch (error) {
    if (!(error instanceof SearchBackendError)) throw error;
    context.logger.warn('web search failed', { backend: backend.label, error: error.message });
    return { query, error: error.message };
  }
}
