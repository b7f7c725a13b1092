/**
 * Stream chunks → `LlmChunk`s: reasoning (whichever field the server uses, or `<think>` tags in
 * the text) never mixed into text, tool-call deltas with their index, one `finish`.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ThinkTagSplitter } from '../../core/orchestrator/think-tag-splitter';
import type { LlmChunk } from '../../core/ports';

/** The `LlmChunk`s one streamed choice carries, in order: reasoning, text, tool calls, finish. */
export function* chunksOfChoice(
  choice: ChatCompletionChunk.Choice,
  splitter: ThinkTagSplitter,
): Generator<LlmChunk> {
  // Typed as always present, but a few servers leave it out of the final chunk.
  const delta: ChatCompletionChunk.Choice.Delta | undefined = choice.delta;
  if (delta) {
    const reasoning = readReasoning(delta);
    if (reasoning !== '') yield { type: 'reasoning', text: reasoning };
    if (typeof delta.content === 'string' && delta.content !== '') {
      const split = splitter.push(delta.content);
      if (split.reasoning !== '') yield { type: 'reasoning', text: split.reasoning };
      if (split.text !== '') yield { type: 'text', text: split.text };
    }
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      yield { type: 'text', text: delta.refusal };
    }
    for (const [position, call] of (delta.tool_calls ?? []).entries()) {
      const output: LlmChunk = {
        type: 'tool-call-delta',
        // Some servers omit the index when they send one call per delta.
        index: typeof call.index === 'number' ? call.index : position,
      };
      if (typeof call.id === 'string' && call.id !== '') output.id = call.id;
      const name = call.function?.name;
      if (typeof name === 'string' && name !== '') output.name = name;
      const argumentsDelta = call.function?.arguments;
      if (typeof argumentsDelta === 'string' && argumentsDelta !== '') {
        output.argumentsDelta = argumentsDelta;
      }
      yield output;
    }
  }
  if (choice.finish_reason) {
    yield* flushSplitter(splitter);
    yield { type: 'finish', reason: choice.finish_reason };
  }
}

/** What the splitter still holds, once the stream has ended. */
export function* flushSplitter(splitter: ThinkTagSplitter): Generator<LlmChunk> {
  const rest = splitter.finish();
  if (rest.reasoning !== '') yield { type: 'reasoning', text: rest.reasoning };
  if (rest.text !== '') yield { type: 'text', text: rest.text };
}

/**
 * Reasoning deltas are not in the SDK's types: DeepSeek and llama.cpp send `reasoning_content`,
 * OpenRouter and newer vLLM/Ollama `reasoning`. Some send both with the same text, so the first
 * one present wins.
 */
function readReasoning(delta: object): string {
  if ('reasoning_content' in delta && typeof delta.reasoning_content === 'string') {
    if (delta.reasoning_content !== '') return delta.reasoning_content;
  }
  if ('reasoning' in delta && typeof delta.reasoning === 'string') return delta.reasoning;
  return '';
}
