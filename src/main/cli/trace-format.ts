/** Human output of a turn: the answer on stdout, a compact trace of tool calls on stderr. */
import type {
  StopReason,
  StructuredToolOutput,
  TaintReason,
  TokenUsage,
  TurnEvent,
} from '../../shared/turn-events';
import { structuredCheckText } from '../../shared/structured-check';

/** Longest arguments / result preview on a trace line. */
const PREVIEW_CHARS = 120;

export const STOP_REASON_TEXT: Record<StopReason, string> = {
  completed: 'finished',
  tool_budget_exceeded: 'tool budget exhausted: answered with the results so far',
  tool_no_progress: 'further tool calls would add nothing: answered with the results so far',
  tool_parse_failure: 'the model kept writing malformed tool calls',
  length: "the answer hit the model's output length limit",
  canceled: 'canceled',
  error: 'failed',
};

export function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}

/** Least time between two progress lines of one call in the text trace (ms). */
export const PROGRESS_LINE_INTERVAL_MS = 1000;

/**
 * Whether a `tool-progress` event is printed: at most one line a second per call (the first
 * always), so a chatty server does not scroll the answer away.
 */
export function progressThrottle(now: () => number): (event: TurnEvent) => boolean {
  let call: string | null = null;
  let lastAt = 0;
  return (event) => {
    if (event.type !== 'tool-progress') return true;
    const at = now();
    if (event.toolCallId === call && at - lastAt < PROGRESS_LINE_INTERVAL_MS) return false;
    call = event.toolCallId;
    lastAt = at;
    return true;
  };
}

/** The shortest model wait the trace mentions (the adapter's own backoffs start at 0.5 s). */
const SHOWN_WAIT_MS = 2_000;

/** The trace line for an event, or null for events that are not traced. */
export function traceLine(event: TurnEvent): string | null {
  switch (event.type) {
    case 'tool-call-end':
      return `→ ${event.name} ${preview(JSON.stringify(event.arguments))}`;
    case 'tool-result':
      return `  ${event.status === 'ok' ? '✓' : event.status === 'error' ? '✗' : '∅'} ${event.name} ${event.status} (${event.durationMs} ms): ${preview(event.output)}`;
    case 'tool-progress': {
      const count =
        event.total === undefined ? `${event.progress}` : `${event.progress}/${event.total}`;
      return `  … ${event.message === undefined ? count : `${preview(event.message)}, ${count}`}`;
    }
    case 'model-wait': {
      // A short pause before one retry (a refused connection, a 503 blip) is not worth a line:
      // a dead server's failure stays one line.
      if (event.waitMs < SHOWN_WAIT_MS) return null;
      const why = event.status === null ? 'could not be reached' : `answered HTTP ${event.status}`;
      return `  … the model server ${why}; trying again in ${Math.ceil(event.waitMs / 1000)} s (Ctrl-C stops)`;
    }
    case 'protocol-retry':
      return `  ! malformed tool call (attempt ${event.attempt}): ${preview(event.error)}`;
    case 'turn-tainted':
      return `  ! ${taintNotice(event.reasons)}`;
    case 'budget-update':
      return `  budget: total ${event.total.used}/${event.total.limit} · rounds ${event.rounds.used}/${event.rounds.limit}`;
    default:
      return null;
  }
}

/** Longest structured result the text trace prints (characters of its indented JSON). */
export const TRACE_STRUCTURED_CHARS = 2000;

/**
 * A tool result's structured content (MCP `structuredContent`) for the text trace, as the trace
 * card shows it: the check, then its JSON indented under it (cut at TRACE_STRUCTURED_CHARS).
 */
export function structuredLines(structured: StructuredToolOutput): string[] {
  const json =
    structured.json.length > TRACE_STRUCTURED_CHARS
      ? `${structured.json.slice(0, TRACE_STRUCTURED_CHARS)}\n[… ${structured.json.length - TRACE_STRUCTURED_CHARS} more characters]`
      : structured.json;
  return [
    `    structured content: ${preview(structuredCheckText(structured))}`,
    ...json.split('\n').map((line) => `      ${line}`),
  ];
}

/**
 * The one-line notice when a turn becomes tainted: what it read, and what now asks or waits.
 */
export function taintNotice(reasons: readonly TaintReason[]): string {
  const what = reasons
    .map((reason) => (reason.detail === null ? reason.tool : `${reason.tool} ${reason.detail}`))
    .join(', ');
  return `this turn read untrusted content (${preview(what)}): from now on MCP calls and fetches sending data to new sites ask first, and memories wait for your confirmation`;
}

/** The tokens a turn used, as the provider counted them: `1,234 tokens in · 56 out`. */
export function usageLine(usage: TokenUsage): string {
  const count = (tokens: number): string => tokens.toLocaleString('en-US');
  return `${count(usage.inputTokens)} tokens in · ${count(usage.outputTokens)} out`;
}

/** `type` first, as the `--json` contract promises. */
export function eventJson(event: TurnEvent): string {
  const { type, ...rest } = event;
  return JSON.stringify({ type, ...rest });
}
