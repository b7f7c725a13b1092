/**
 * One provider request: streams text and reasoning out as events while it collects the round's
 * tool calls, native (API deltas) or written as text (prompt mode, or recovered in native mode).
 */
import { AivoryError } from '../../../shared/errors';
import type { TokenUsage, TurnEvent } from '../../../shared/turn-events';
import type { ChatToolCall, IdGenerator, LlmChunk, LlmClient, LlmRequest } from '../ports';
import type { CallMarker, RawTextCall } from './tool-call-stream-parser';
import { ToolCallStreamParser } from './tool-call-stream-parser';

export interface RoundResult {
  /** Visible text of this round (markup removed). */
  text: string;
  nativeCalls: ChatToolCall[];
  textCall: RawTextCall | null;
  finishReason: string | null;
  /** Tokens of this request, when the provider reported them. */
  usage: TokenUsage | null;
}

/**
 * The most a turn's model output may hold, in characters: its text (tool-call markup included),
 * reasoning and native tool-call arguments, over all its rounds. Far above any model's output
 * limit (a 128k-token answer is ~500,000 characters), so only a server that streams without end
 * reaches it; without it a 50 MB answer was held, stored and sent to the page whole (858 MB of
 * memory at its peak, issue 37, finding 11).
 */
export const MAX_TURN_OUTPUT_CHARS = 2_000_000;

/** What is left of a turn's `MAX_TURN_OUTPUT_CHARS`, shared by its rounds. */
export interface OutputAllowance {
  remaining: number;
}

/** The answer's end when a turn's output passed `MAX_TURN_OUTPUT_CHARS`: what came is kept. */
export function outputTooLongError(): AivoryError {
  return new AivoryError(
    'provider',
    `The model's answer passed ${MAX_TURN_OUTPUT_CHARS.toLocaleString('en-US')} characters, the most Aivory keeps of one answer, and was stopped there; what arrived is kept. If the model repeats itself without end, ask again or try another model.`,
  );
}

interface PendingNativeCall {
  id: string;
  name: string;
  argumentsJson: string;
  announced: boolean;
}

/**
 * Streams `request` and yields text/reasoning/tool-call-start events; returns what the round
 * produced. Throws what the LLM client throws (connection, auth, abort).
 */
export async function* streamRound(
  llm: LlmClient,
  request: LlmRequest,
  options: {
    turnId: string;
    markers: readonly CallMarker[];
    ids: IdGenerator;
    signal: AbortSignal;
    /** Receives the visible text as it streams, so it survives a stream cut by an error. */
    visible: { text: string };
    /** The turn's output allowance; the round throws `outputTooLongError` past it. */
    allowance: OutputAllowance;
  },
): AsyncGenerator<TurnEvent, RoundResult> {
  const { turnId } = options;
  const parser = new ToolCallStreamParser(options.markers);
  const pending = new Map<number, PendingNativeCall>();
  const sink = options.visible;
  let finishReason: string | null = null;
  let usage: TokenUsage | null = null;

  const { allowance } = options;
  for await (const chunk of llm.stream(request, options.signal)) {
    // Counted before it is kept: leaving the loop ends the model's request.
    allowance.remaining -= outputLength(chunk);
    if (allowance.remaining < 0) throw outputTooLongError();
    if (chunk.type === 'text') {
      const visible = parser.push(chunk.text);
      if (visible !== '') {
        sink.text += visible;
        yield { type: 'text-delta', turnId, text: visible };
      }
    } else if (chunk.type === 'reasoning') {
      if (chunk.text !== '') yield { type: 'reasoning-delta', turnId, text: chunk.text };
    } else if (chunk.type === 'tool-call-delta') {
      let call = pending.get(chunk.index);
      if (!call) {
        call = { id: '', name: '', argumentsJson: '', announced: false };
        pending.set(chunk.index, call);
      }
      if (chunk.id && call.id === '') call.id = chunk.id;
      if (chunk.name && call.name === '') call.name = chunk.name;
      if (chunk.argumentsDelta) call.argumentsJson += chunk.argumentsDelta;
      if (!call.announced && call.name !== '') {
        if (call.id === '') call.id = options.ids.next('call');
        call.announced = true;
        yield { type: 'tool-call-start', turnId, toolCallId: call.id, name: call.name };
      }
    } else if (chunk.type === 'usage') {
      usage = { inputTokens: chunk.inputTokens, outputTokens: chunk.outputTokens };
    } else if (chunk.type === 'retry-wait') {
      yield { type: 'model-wait', turnId, waitMs: chunk.waitMs, status: chunk.status };
    } else {
      finishReason = chunk.reason;
    }
  }

  const end = parser.finish();
  if (end.text !== '') {
    sink.text += end.text;
    yield { type: 'text-delta', turnId, text: end.text };
  }
  const nativeCalls = [...pending.entries()]
    .sort(([left], [right]) => left - right)
    .map(([, call]) => call)
    .filter((call) => call.name !== '')
    .map((call) => ({ id: call.id, name: call.name, argumentsJson: call.argumentsJson }));
  return { text: sink.text, nativeCalls, textCall: end.call, finishReason, usage };
}

/** The characters of model output a chunk carries. */
function outputLength(chunk: LlmChunk): number {
  if (chunk.type === 'text' || chunk.type === 'reasoning') return chunk.text.length;
  if (chunk.type === 'tool-call-delta') {
    return (
      (chunk.argumentsDelta?.length ?? 0) + (chunk.name?.length ?? 0) + (chunk.id?.length ?? 0)
    );
  }
  return 0;
}
