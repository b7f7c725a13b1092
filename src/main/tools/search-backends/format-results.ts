/**
 * The text aivory_web_search returns: per query a heading, then numbered hits
 * (`title — url` and an indented snippet), or the reason the query failed. The whole text is
 * bounded; when hits must be left out, the best-ranked hits of every query are kept first and a
 * marker says how many were dropped.
 */
import { shorten } from './clean-text';
import type { SearchHit } from './types';

export type QueryOutcome =
  { query: string; hits: readonly SearchHit[] } | { query: string; error: string };

/** A title longer than this is a page's whole heading line; the start identifies it. */
const MAX_TITLE_CHARS = 150;
/** Enough of a snippet to judge relevance; web_fetch exists for the full page. */
const MAX_SNIPPET_CHARS = 300;
/** Room kept for the cut marker, so the marked text still fits in `maxChars`. */
const MARKER_RESERVE = 100;

/**
 * Formats the outcomes in order within `maxChars`. Headings and failure reasons are always
 * shown (they are short: queries and backend messages are bounded); hits are admitted rank by
 * rank across queries (every query's first hit, then every second hit…) until the next one
 * would not fit.
 */
export function formatSearchResults(outcomes: readonly QueryOutcome[], maxChars: number): string {
  const rendered = outcomes.map((outcome) =>
    'hits' in outcome ? outcome.hits.map((hit, index) => renderHit(hit, index + 1)) : [],
  );
  const budget = maxChars - MARKER_RESERVE;
  let used = outcomes.reduce((total, outcome) => total + renderHead(outcome).length + 2, 0);
  const admitted = outcomes.map(() => 0);
  const deepest = Math.max(0, ...rendered.map((hits) => hits.length));
  let full = false;
  for (let rank = 0; rank < deepest && !full; rank += 1) {
    for (const [group, hits] of rendered.entries()) {
      const hit = hits[rank];
      if (hit === undefined) continue;
      if (used + hit.length + 1 > budget) {
        full = true;
        break;
      }
      used += hit.length + 1;
      admitted[group] = rank + 1;
    }
  }
  const sections = outcomes.map((outcome, group) => {
    const hits = rendered[group]?.slice(0, admitted[group]) ?? [];
    return [renderHead(outcome), ...hits].join('\n');
  });
  const total = rendered.reduce((sum, hits) => sum + hits.length, 0);
  const shown = admitted.reduce((sum, count) => sum + count, 0);
  if (shown < total) {
    sections.push(
      `[… output limit of ${maxChars} characters reached: ${total - shown} more results not shown …]`,
    );
  }
  return sections.join('\n\n');
}

function renderHead(outcome: QueryOutcome): string {
  const heading = `## ${outcome.query}`;
  if ('error' in outcome) return `${heading}\nSearch failed: ${outcome.error}`;
  return outcome.hits.length === 0 ? `${heading}\nNo results.` : heading;
}

function renderHit(hit: SearchHit, position: number): string {
  const published = hit.publishedDate ? ` (${shorten(hit.publishedDate, 40)})` : '';
  const title = `${position}. ${shorten(hit.title, MAX_TITLE_CHARS)} — ${hit.url}${published}`;
  return hit.snippet === '' ? title : `${title}\n   ${shorten(hit.snippet, MAX_SNIPPET_CHARS)}`;
}
