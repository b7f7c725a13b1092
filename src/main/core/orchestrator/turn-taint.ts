/**
 * The turn's taint (docs/architecture/turn-taint.md): once a call of a tool whose output is
 * untrusted (`Tool.untrustedOutput`: web pages, search results, MCP output, program output) has
 * run, successfully or not, the turn is tainted for the rest of it, with the reasons in order —
 * unless the call says it read nothing (`ToolOutput.untrustedSources` empty: refused first).
 * Pure bookkeeping; what tightens is up to the tools, which read `ToolContext.taint`.
 */
import type { TaintReason } from '../../../shared/turn-events';
import type { Logger, Tool, ToolOutput, TurnTaint } from '../ports';

/** Longest `detail` kept (a web_fetch URL argument is at most this long). */
export const MAX_TAINT_DETAIL_CHARS = 8192;

export class TaintTracker {
  private readonly reasons: TaintReason[] = [];
  private readonly seen = new Set<string>();

  /** `initial`: what the turn read before any call (attached files); may be empty. */
  constructor(initial: readonly TaintReason[] = []) {
    this.add(initial.map((reason) => ({ tool: reason.tool, detail: clip(reason.detail) })));
  }

  get tainted(): boolean {
    return this.reasons.length > 0;
  }

  /** What the next call is given: a frozen copy. */
  snapshot(): TurnTaint {
    return Object.freeze({
      tainted: this.tainted,
      reasons: Object.freeze(this.reasons.map((reason) => Object.freeze({ ...reason }))),
    });
  }

  /**
   * Records that `tool` ran with `args`. Returns the reasons when this call is the one that
   * tainted the turn (so the caller announces it once), otherwise null.
   */
  record(
    tool: Tool,
    args: Record<string, unknown>,
    output: ToolOutput,
    logger: Logger,
  ): TaintReason[] | null {
    if (!tool.untrustedOutput) return null;
    const read = output.untrustedSources;
    if (read?.length === 0) return null;
    const wasTainted = this.tainted;
    const reasons = read ? sourceReasons(tool, read) : reasonsOf(tool, args, logger);
    const added = this.add(reasons);
    return !wasTainted && this.tainted ? added : null;
  }

  /** Adds the reasons not seen before; returns those. */
  private add(reasons: readonly TaintReason[]): TaintReason[] {
    const added = reasons.filter((reason) => {
      const key = `${reason.tool}\u0000${reason.detail ?? ''}`;
      if (this.seen.has(key)) return false;
      this.seen.add(key);
      return true;
    });
    this.reasons.push(...added);
    return added;
  }
}

function reasonsOf(tool: Tool, args: Record<string, unknown>, logger: Logger): TaintReason[] {
  let sources: string[] = [];
  try {
    sources = tool.untrustedOutput?.sources?.(args) ?? [];
  } catch (failure) {
    // The taint still counts; only its detail is lost.
    logger.warn('tool taint sources failed', { tool: tool.name, error: String(failure) });
  }
  return sourceReasons(tool, sources);
}

function sourceReasons(tool: Tool, sources: readonly string[]): TaintReason[] {
  if (sources.length === 0) return [{ tool: tool.name, detail: null }];
  return sources.map((source) => ({ tool: tool.name, detail: clip(String(source)) }));
}

function clip(detail: string | null): string | null {
  return detail === null ? null : detail.slice(0, MAX_TAINT_DETAIL_CHARS);
}
