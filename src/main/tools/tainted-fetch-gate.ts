/**
 * The gate of a tainted turn (docs/architecture/turn-taint.md) on the built-in tools that open a
 * model-chosen address (web_fetch, fetch_image): a URL that carries a query string to a host no
 * such call of this turn requested before could be an injected page sending data out, so the user
 * is asked through the turn's Approver; with nobody to ask, or a denial, it is refused with a
 * line the model reads.
 */
import { USER_APPROVAL_WAIT_MS } from '../core/ports';
import type { ApprovalAnswer, ToolContext } from '../core/ports';
import type { TaintReason } from '../../shared/turn-events';

/** The tools whose taint reasons name hosts the turn already sent requests to. */
const FETCHING_TOOLS: ReadonlySet<string> = new Set(['web_fetch', 'fetch_image']);

/** Why a fetch needs the user's approval in a tainted turn (the approval card and CLI show it). */
export const TAINTED_FETCH_REASON =
  'this page was found after reading untrusted content and would send data in its address';

/**
 * Null, at once, when `toolName` may open `url` without asking (the turn is not tainted, the URL
 * carries no query, or its host was requested earlier in the turn): the caller goes straight on,
 * in the same tick. Otherwise the user's decision: null when allowed, else the refusal.
 */
export function taintedFetchGate(
  toolName: string,
  url: string,
  context: ToolContext,
): Promise<string | null> | null {
  const taint = context.taint;
  if (taint?.tainted !== true || !needsApproval(url, taint.reasons)) return null;
  return askUser(toolName, url, context, taint.reasons);
}

async function askUser(
  toolName: string,
  url: string,
  context: ToolContext,
  reasons: readonly TaintReason[],
): Promise<string | null> {
  if (!context.approve) {
    return `not fetched: ${TAINTED_FETCH_REASON}, and nobody could be asked (non-interactive run: use --approve all, or fetch the address without its query)`;
  }
  let answer: ApprovalAnswer;
  const signal = AbortSignal.any([context.signal, AbortSignal.timeout(USER_APPROVAL_WAIT_MS)]);
  try {
    answer = await context.approve(
      {
        kind: 'web-fetch',
        toolName,
        service: 'built-in',
        tool: toolName,
        arguments: { url },
        conversationId: context.conversationId,
        readOnlyHint: false,
        destructiveHint: false,
        reason: `${TAINTED_FETCH_REASON.charAt(0).toUpperCase()}${TAINTED_FETCH_REASON.slice(1)}.`,
        taint: reasons,
      },
      signal,
    );
  } catch {
    answer = 'deny';
  }
  return answer === 'deny' ? `not fetched: the user denied it (${TAINTED_FETCH_REASON})` : null;
}

/** A URL with a non-empty query to a host no fetching call of the turn requested before. */
function needsApproval(url: string, reasons: readonly TaintReason[]): boolean {
  const target = hostAndQuery(url);
  if (target === null || target.query === '') return false;
  return !reasons.some(
    (reason) =>
      FETCHING_TOOLS.has(reason.tool) &&
      reason.detail !== null &&
      hostAndQuery(reason.detail)?.host === target.host,
  );
}

/** The host (lower case, as URL parsing gives it) and the query without `?`; null if unparsable. */
function hostAndQuery(url: string): { host: string; query: string } | null {
  try {
    const parsed = new URL(url);
    return { host: parsed.hostname, query: parsed.search.replace(/^\?/, '') };
  } catch {
    return null;
  }
}
