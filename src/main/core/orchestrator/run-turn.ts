/**
 * The turn loop: provider request → tool calls → results → … → answer, bounded by the seed's
 * budgets. Pure: everything outside comes through ports, everything that happens goes out as a
 * TurnEvent. A tool failure is data (a tool error result), never a throw.
 */
import type { ToolMode } from '../../../shared/dto';
import { isAbortError, toPublicError } from '../../../shared/errors';
import type {
  FinalRoundCause,
  PublicError,
  StopReason,
  TaintReason,
  TokenUsage,
  TurnEvent,
} from '../../../shared/turn-events';
import type {
  Approver,
  ChatMessage,
  Clock,
  IdGenerator,
  LlmClient,
  LlmRequest,
  Logger,
  Tool,
} from '../ports';
import type { TurnLimits } from './budgets';
import { BudgetTracker } from './budgets';
import type { PlannedCall } from './tool-round';
import { planCalls, runToolCalls } from './tool-round';
import {
  FINAL_ANSWER_BUDGET_INSTRUCTION,
  FINAL_ANSWER_NO_PROGRESS_INSTRUCTION,
  formatParseRetry,
  PROMPT_STOP_SEQUENCE,
} from './protocol-text';
import { promptModeAssistantContent, withPromptPreamble } from './prompt-protocol';
import type { RoundResult } from './stream-round';
import type { OutputAllowance } from './stream-round';
import { MAX_TURN_OUTPUT_CHARS, streamRound } from './stream-round';
import { NATIVE_RECOVERY_MARKERS, PROMPT_MARKERS } from './tool-call-stream-parser';
import { ToolImageBudget } from './tool-images';
import { TaintTracker } from './turn-taint';

/** Retries after call JSON that does not parse (seed: 格式错误最多重试两次), consecutive. */
export const MAX_PARSE_RETRIES = 2;

/** Rounds in a row whose every call was skipped before the turn is ended as no progress. */
export const NO_PROGRESS_ROUNDS = 2;

export interface TurnInput {
  turnId: string;
  conversationId: string;
  model: string;
  toolMode: ToolMode;
  /** System prompt, history and the new user message, in order. */
  messages: ChatMessage[];
  /** The tools enabled for this turn. */
  tools: Tool[];
  limits: TurnLimits;
  /** Answers approval prompts (MCP tools); absent: calls that need approval are refused. */
  approve?: Approver;
  /**
   * Untrusted content the turn starts with (the text of files attached to the user's message):
   * the turn is tainted from its first call, announced by a `turn-tainted` without a call.
   */
  initialTaint?: readonly TaintReason[];
  /**
   * The model takes images: images in tool results (MCP) are sent to it, bounded
   * (`tool-images.ts`); otherwise it reads only their description in the result text.
   */
  vision?: boolean;
}

export interface TurnDependencies {
  llm: LlmClient;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}

interface TurnState {
  conversation: ChatMessage[];
  budget: BudgetTracker;
  /** Whether untrusted content has entered the turn (docs/architecture/turn-taint.md). */
  taint: TaintTracker;
  seenCalls: Set<string>;
  /** The turn's allowance of tool images; null for a model without vision. */
  toolImages: ToolImageBudget | null;
  roundsUsed: number;
  finalCause: FinalRoundCause | null;
  parseFailures: number;
  skippedRounds: number;
  /** Each round's visible text, filled while it streams (kept when a stream is cut). */
  roundTexts: { text: string }[];
  /** What the model may still send this turn (`MAX_TURN_OUTPUT_CHARS`). */
  outputAllowance: OutputAllowance;
  /** Tokens of the requests whose provider reported them; null while none did. */
  usage: TokenUsage | null;
}

/** Runs one turn and yields its events; the last event is always `turn-end`. */
export async function* runTurn(
  dependencies: TurnDependencies,
  input: TurnInput,
  signal: AbortSignal,
): AsyncGenerator<TurnEvent, void> {
  const { clock, logger } = dependencies;
  const startedAt = clock.now();
  const state: TurnState = {
    conversation: [...input.messages],
    budget: new BudgetTracker(
      input.limits,
      input.tools.map((tool) => tool.name),
    ),
    taint: new TaintTracker(input.initialTaint ?? []),
    seenCalls: new Set(),
    toolImages: input.vision === true ? new ToolImageBudget() : null,
    roundsUsed: 0,
    finalCause: null,
    parseFailures: 0,
    skippedRounds: 0,
    roundTexts: [],
    outputAllowance: { remaining: MAX_TURN_OUTPUT_CHARS },
    usage: null,
  };
  let stopReason: StopReason;
  let error: PublicError | undefined;

  if (state.taint.tainted) {
    yield {
      type: 'turn-tainted',
      turnId: input.turnId,
      toolCallId: null,
      reasons: state.taint.snapshot().reasons.map((reason) => ({ ...reason })),
    };
  }
  try {
    for (;;) {
      if (signal.aborted) {
        stopReason = 'canceled';
        break;
      }
      state.roundsUsed += 1;
      const finalRound = state.finalCause !== null;
      const request = buildRequest(input, state);
      yield {
        type: 'round-start',
        turnId: input.turnId,
        round: state.roundsUsed,
        finalAnswer: finalRound,
      };
      const visible = { text: '' };
      state.roundTexts.push(visible);
      const result = yield* streamRound(dependencies.llm, request, {
        turnId: input.turnId,
        markers: input.toolMode === 'prompt' ? PROMPT_MARKERS : NATIVE_RECOVERY_MARKERS,
        ids: dependencies.ids,
        signal,
        visible,
        allowance: state.outputAllowance,
      });
      if (result.usage !== null) {
        state.usage = {
          inputTokens: (state.usage?.inputTokens ?? 0) + result.usage.inputTokens,
          outputTokens: (state.usage?.outputTokens ?? 0) + result.usage.outputTokens,
        };
      }

      if (finalRound) {
        // Whatever the model did in the last round (answered, or tried another call that the
        // parser hid), no new loop starts; the turn records why it was forced to end.
        stopReason =
          state.finalCause === 'no-progress' ? 'tool_no_progress' : 'tool_budget_exceeded';
        break;
      }
      const plan = planCalls(input.toolMode, result, dependencies.ids);
      if (plan.kind === 'parse-failure') {
        state.parseFailures += 1;
        yield {
          type: 'protocol-retry',
          turnId: input.turnId,
          attempt: state.parseFailures,
          error: plan.error,
        };
        if (state.parseFailures > MAX_PARSE_RETRIES) {
          stopReason = 'tool_parse_failure';
          break;
        }
        state.conversation.push(
          { role: 'assistant', content: promptModeAssistantContent(result.text, plan.body) },
          { role: 'user', content: formatParseRetry(plan.error) },
        );
        if (state.roundsUsed >= input.limits.providerRounds - 1) state.finalCause = 'budget';
        continue;
      }
      state.parseFailures = 0;
      if (plan.calls.length === 0) {
        stopReason = result.finishReason === 'length' ? 'length' : 'completed';
        break;
      }
      state.conversation.push(assistantMessage(input.toolMode, result, plan.calls, plan.textBody));
      const outcome = yield* runToolCalls(plan.calls, {
        turnId: input.turnId,
        conversationId: input.conversationId,
        toolMode: plan.textBody !== null && input.toolMode === 'prompt' ? 'prompt' : 'native',
        tools: input.tools,
        approve: input.approve,
        budget: state.budget,
        taint: state.taint,
        seenCalls: state.seenCalls,
        ...(state.toolImages ? { toolImages: state.toolImages } : {}),
        conversation: state.conversation,
        limits: input.limits,
        rounds: state.roundsUsed,
        clock,
        logger,
        signal,
      });
      if (signal.aborted) {
        stopReason = 'canceled';
        break;
      }
      state.skippedRounds = outcome.allSkipped ? state.skippedRounds + 1 : 0;
      if (state.skippedRounds >= NO_PROGRESS_ROUNDS) state.finalCause = 'no-progress';
      else if (outcome.totalExhausted || state.budget.totalExhausted) state.finalCause = 'budget';
      else if (state.roundsUsed >= input.limits.providerRounds - 1) state.finalCause = 'budget';
    }
  } catch (thrown) {
    if (signal.aborted || isAbortError(thrown)) {
      stopReason = 'canceled';
    } else {
      stopReason = 'error';
      error = toPublicError(thrown);
      logger.error('turn failed', { turnId: input.turnId, error: String(thrown) });
    }
  }

  yield {
    type: 'turn-end',
    turnId: input.turnId,
    stopReason,
    answer: state.roundTexts
      .map((round) => round.text.trim())
      .filter((text) => text !== '')
      .join('\n\n'),
    toolCalls: state.budget.counts(),
    providerRounds: state.roundsUsed,
    durationMs: clock.now() - startedAt,
    ...(error ? { error } : {}),
    ...(state.usage ? { usage: state.usage } : {}),
  };
}

/** The request for the next round: tools allowed now, or none (plus the instruction) when final. */
function buildRequest(input: TurnInput, state: TurnState): LlmRequest {
  if (state.finalCause !== null) {
    state.conversation.push({
      role: 'user',
      content:
        state.finalCause === 'budget'
          ? FINAL_ANSWER_BUDGET_INSTRUCTION
          : FINAL_ANSWER_NO_PROGRESS_INSTRUCTION,
    });
    return { model: input.model, messages: [...state.conversation] };
  }
  const specs = input.tools
    .filter((tool) => !state.budget.isCapped(tool.name))
    .map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    }));
  if (input.toolMode === 'prompt') {
    return {
      model: input.model,
      messages: withPromptPreamble(state.conversation, specs),
      ...(specs.length > 0 ? { stop: [PROMPT_STOP_SEQUENCE] } : {}),
    };
  }
  return {
    model: input.model,
    messages: [...state.conversation],
    ...(specs.length > 0 ? { tools: specs } : {}),
  };
}

/** How the assistant's calling message enters the history sent back to the provider. */
function assistantMessage(
  toolMode: ToolMode,
  result: RoundResult,
  calls: PlannedCall[],
  textBody: string | null,
): ChatMessage {
  if (toolMode === 'prompt' && textBody !== null) {
    return { role: 'assistant', content: promptModeAssistantContent(result.text, textBody) };
  }
  return {
    role: 'assistant',
    content: result.text,
    toolCalls: calls.map((call) => ({
      id: call.id,
      name: call.name,
      argumentsJson: call.argumentsJson,
    })),
  };
}
