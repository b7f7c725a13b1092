/**
 * The tool half of a round: which calls the model made, and running them in order against the
 * budgets, skipping duplicates, with every outcome reported as an event and as a message for
 * the model (`role: "tool"` natively, `<tool_result>` / `<tool_error>` in prompt mode).
 */
import type { ToolMode } from '../../../shared/dto';
import type {
  ArtifactReference,
  StructuredToolOutput,
  TaintReason,
  ToolCallStatus,
  TurnEvent,
} from '../../../shared/turn-events';
import type {
  Approver,
  ChatImage,
  ChatMessage,
  Clock,
  IdGenerator,
  Logger,
  Tool,
  ToolOutput,
} from '../ports';
import type { BudgetTracker, TurnLimits } from './budgets';
import { canonicalJson } from './canonical-json';
import { executeTool } from './execute-tool';
import { promptModeResultMessage } from './prompt-protocol';
import { TOOL_OUTPUT_BUDGET_EXHAUSTED, TOOL_OUTPUT_SKIPPED } from './protocol-text';
import type { RoundResult } from './stream-round';
import { parseNativeArguments, parseTextCall } from './text-call-json';
import type { ToolImageBudget } from './tool-images';
import { toolImagesMessage } from './tool-images';
import type { TaintTracker } from './turn-taint';

/** One call the model asked for, with its arguments parsed (or the reason they did not parse). */
export interface PlannedCall {
  id: string;
  name: string;
  argumentsJson: string;
  parsed: { ok: true; arguments: Record<string, unknown> } | { ok: false; error: string };
  /** Whether `tool-call-start` was already emitted while streaming. */
  announced: boolean;
}

export type CallPlan =
  | { kind: 'calls'; calls: PlannedCall[]; textBody: string | null }
  | { kind: 'parse-failure'; error: string; body: string };

/** Native calls win; otherwise a call written as text (prompt mode, or recovered natively). */
export function planCalls(_toolMode: ToolMode, result: RoundResult, ids: IdGenerator): CallPlan {
  if (result.nativeCalls.length > 0) {
    return {
      kind: 'calls',
      textBody: null,
      calls: result.nativeCalls.map((call) => ({
        ...call,
        parsed: parseNativeArguments(call.argumentsJson),
        announced: true,
      })),
    };
  }
  if (result.textCall === null) return { kind: 'calls', calls: [], textBody: null };
  const parsed = parseTextCall(result.textCall);
  if (!parsed.ok) return { kind: 'parse-failure', error: parsed.error, body: result.textCall.body };
  return {
    kind: 'calls',
    textBody: result.textCall.body,
    calls: [
      {
        id: ids.next('call'),
        name: parsed.name,
        argumentsJson: JSON.stringify(parsed.arguments),
        parsed: { ok: true, arguments: parsed.arguments },
        announced: false,
      },
    ],
  };
}

export interface ToolRoundContext {
  turnId: string;
  conversationId: string;
  /** How results go back: prompt-mode wrappers or native tool messages. */
  toolMode: ToolMode;
  tools: readonly Tool[];
  /** Answers approval prompts of tools that ask (MCP). */
  approve?: Approver | undefined;
  budget: BudgetTracker;
  /** The turn's taint: read before each call, extended after each call that ran. */
  taint: TaintTracker;
  seenCalls: Set<string>;
  /**
   * Present when the model takes images: what is left of the turn's allowance of tool images
   * (`tool-images.ts`). Absent: images stay described in the result text only.
   */
  toolImages?: ToolImageBudget | undefined;
  conversation: ChatMessage[];
  limits: TurnLimits;
  rounds: number;
  clock: Clock;
  logger: Logger;
  signal: AbortSignal;
}

interface CallOutcome {
  status: ToolCallStatus;
  output: string;
  artifacts: ArtifactReference[];
  /** Set when this call tainted the turn (it was the first untrusted one to run). */
  tainted?: TaintReason[];
  /** Images the call returned, when it read untrusted content (it is in the turn's taint). */
  images?: ChatImage[];
  structured?: StructuredToolOutput;
}

/** Longest tool name echoed back in a wrapper; model-chosen names are sanitised to this. */
const MAX_ECHOED_NAME_CHARS = 64;
/** Longest invalid-arguments message a tool's check may give the model. */
const MAX_INVALID_ARGUMENTS_CHARS = 1_000;

/** Runs `calls` in order. Returns whether every call was skipped and whether the total ran out. */
export async function* runToolCalls(
  calls: readonly PlannedCall[],
  context: ToolRoundContext,
): AsyncGenerator<TurnEvent, { allSkipped: boolean; totalExhausted: boolean }> {
  const { turnId } = context;
  let skipped = 0;
  let totalExhausted = false;
  /** Natively, the user messages carrying images follow every tool message of the round. */
  const imageMessages: ChatMessage[] = [];
  for (const call of calls) {
    if (!call.announced) {
      yield { type: 'tool-call-start', turnId, toolCallId: call.id, name: call.name };
    }
    yield {
      type: 'tool-call-end',
      turnId,
      toolCallId: call.id,
      name: call.name,
      arguments: call.parsed.ok ? call.parsed.arguments : call.argumentsJson,
    };
    const startedAt = context.clock.now();
    const waited = { ms: 0 };
    const outcome = await decideAndRun(call, context, waited);
    if (outcome.status === 'skipped') skipped += 1;
    if (outcome.status === 'budget' && context.budget.totalExhausted) totalExhausted = true;
    yield {
      type: 'tool-result',
      turnId,
      toolCallId: call.id,
      name: call.name,
      status: outcome.status,
      output: outcome.output,
      // The tool's own time: not the time its approval prompt waited for the user.
      durationMs: Math.max(0, context.clock.now() - startedAt - waited.ms),
      artifacts: outcome.artifacts,
      ...(outcome.structured ? { structured: outcome.structured } : {}),
    };
    if (outcome.tainted) {
      yield { type: 'turn-tainted', turnId, toolCallId: call.id, reasons: outcome.tainted };
    }
    yield {
      type: 'budget-update',
      turnId,
      perTool: context.budget.perTool(),
      total: context.budget.total(),
      rounds: { used: context.rounds, limit: context.limits.providerRounds },
    };
    const taken =
      context.toolImages && outcome.images && outcome.images.length > 0
        ? context.toolImages.take(outcome.images)
        : null;
    const message = resultMessage(context.toolMode, call, outcome);
    if (taken !== null && message.role === 'user' && taken.images.length > 0) {
      // Prompt mode: the images ride on the `<tool_result>` message, whose text is unchanged.
      message.images = taken.images;
    } else if (taken !== null && message.role === 'tool') {
      const images = toolImagesMessage(echoName(call.name), echoName(call.id), taken);
      if (images !== null) imageMessages.push(images);
    }
    context.conversation.push(message);
  }
  context.conversation.push(...imageMessages);
  return { allSkipped: calls.length > 0 && skipped === calls.length, totalExhausted };
}

async function decideAndRun(
  call: PlannedCall,
  context: ToolRoundContext,
  waited: { ms: number },
): Promise<CallOutcome> {
  const error = (output: string): CallOutcome => ({ status: 'error', output, artifacts: [] });
  if (!call.parsed.ok) return error(`Invalid tool arguments: ${call.parsed.error}`);
  const tool = context.tools.find((candidate) => candidate.name === call.name);
  const key = `${call.name}\u0000${canonicalJson(call.parsed.arguments)}`;
  if (context.seenCalls.has(key)) {
    return { status: 'skipped', output: TOOL_OUTPUT_SKIPPED, artifacts: [] };
  }
  if (!tool) {
    context.seenCalls.add(key);
    const available = context.tools.map((candidate) => candidate.name).join(', ') || 'none';
    return error(`Unknown tool "${echoName(call.name)}". Available tools: ${available}.`);
  }
  const verdict = context.budget.check(tool.name);
  if (verdict !== 'allowed') {
    return { status: 'budget', output: TOOL_OUTPUT_BUDGET_EXHAUSTED, artifacts: [] };
  }
  const invalid = checkArguments(tool, call.parsed.arguments, context.logger);
  if (invalid !== null) {
    context.seenCalls.add(key);
    return error(`Invalid tool arguments: ${invalid}`);
  }
  context.seenCalls.add(key);
  context.budget.record(tool.name);
  const execution = await executeTool(tool, call.parsed.arguments, {
    conversationId: context.conversationId,
    turnId: context.turnId,
    taint: context.taint.snapshot(),
    signal: context.signal,
    logger: context.logger,
    approve: timedApprover(context, waited),
  });
  // Whatever the outcome (an error page, a failed program still printed something), the call ran.
  const tainted = context.taint.record(
    tool,
    call.parsed.arguments,
    execution.output,
    context.logger,
  );
  return {
    status: execution.outcome === 'ok' ? 'ok' : 'error',
    output: execution.output.content,
    artifacts: execution.output.artifacts ?? [],
    ...(tainted ? { tainted } : {}),
    ...(imagesOf(tool, execution.output) ?? {}),
    ...(execution.output.structured ? { structured: execution.output.structured } : {}),
  };
}

/**
 * The call's images, only when the call counts as having read untrusted content (the same rule
 * as `TaintTracker.record`): images never reach the model without tainting the turn.
 */
function imagesOf(tool: Tool, output: ToolOutput): { images: ChatImage[] } | null {
  const images = output.images ?? [];
  if (images.length === 0 || !tool.untrustedOutput) return null;
  if (output.untrustedSources?.length === 0) return null;
  return { images };
}

/**
 * The tool's own argument check, bounded. A check that throws is a bug on our side, not the
 * model's: it is logged and the call goes ahead (the tool still checks what it uses).
 */
function checkArguments(tool: Tool, args: Record<string, unknown>, logger: Logger): string | null {
  let invalid: string | null;
  try {
    invalid = tool.validate?.(args) ?? null;
  } catch (failure) {
    logger.warn('tool argument check failed', { tool: tool.name, error: String(failure) });
    return null;
  }
  if (invalid === null || invalid.length <= MAX_INVALID_ARGUMENTS_CHARS) return invalid;
  return `${invalid.slice(0, MAX_INVALID_ARGUMENTS_CHARS - 1)}…`;
}

function resultMessage(toolMode: ToolMode, call: PlannedCall, outcome: CallOutcome): ChatMessage {
  if (toolMode === 'prompt') {
    return {
      role: 'user',
      content: promptModeResultMessage(
        echoName(call.name),
        outcome.output,
        outcome.status === 'error',
      ),
    };
  }
  return { role: 'tool', toolCallId: call.id, content: outcome.output };
}

/** A model-chosen name made safe to echo inside an attribute or a sentence. */
function echoName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, MAX_ECHOED_NAME_CHARS);
}

/** The turn's approver, adding the time each prompt waits to `waited` (none: undefined). */
function timedApprover(
  context: ToolRoundContext,
  waited: { ms: number },
): ToolRoundContext['approve'] {
  const approve = context.approve;
  if (!approve) return undefined;
  return async (request, signal) => {
    const askedAt = context.clock.now();
    try {
      return await approve(request, signal);
    } finally {
      waited.ms += context.clock.now() - askedAt;
    }
  };
}
