/**
 * The scripted model of the e2e tests, chosen by the user's message: a prompt-mode turn with two
 * tool calls (save_memory, then use_skill), a slow answer to stop, a request that fails once
 * (HTTP 401) and then succeeds, an answer cut off once and then whole, an empty answer, and a
 * plain greeting.
 */
import type { RecordedRequest, ScriptedResponse } from '../../support/scripted-llm-server';

export const TOOLS_PROMPT = 'Remember that I like green tea, then check the document skill';
export const SLOW_PROMPT = 'Tell me a very long story';
/** Answered with HTTP 401 the first time, then properly (a retry). */
export const FLAKY_PROMPT = 'Answer this after one failure';
export const FLAKY_ANSWER = 'Second time lucky.';
/** Cut off the first time (the stream closes without a finish reason or [DONE]), then whole. */
export const CUT_OFF_PROMPT = 'Explain this, even if the line drops';
export const CUT_OFF_ANSWER = 'The whole explanation arrives on the second try.';
let cutOffRequests = 0;
/** Answered with nothing at all. */
export const EMPTY_PROMPT = 'Say nothing at all';
let flakyRequests = 0;
export const FINAL_TOOLS_ANSWER =
  'Done: I saved the memory and read the **document-generation** skill.';

const SAVE_MEMORY =
  '<tool_call>{"name":"save_memory","arguments":{"memory_text":"The user likes green tea"}}</tool_call>';
const USE_SKILL =
  '<tool_call>{"name":"use_skill","arguments":{"name":"document-generation"}}</tool_call>';

type Message = { role: string; content: string };

/** The turn's own user message and how many tool results followed it. */
export function turnState(request: RecordedRequest): { text: string; toolResults: number } {
  const messages = (request.body.messages ?? []) as Message[];
  const isResult = (message: Message): boolean =>
    message.role === 'user' && /^<tool_(result|error)/.test(message.content.trim());
  let index = messages.length - 1;
  let toolResults = 0;
  while (
    index >= 0 &&
    (isResult(messages[index] as Message) || messages[index]?.role === 'assistant')
  ) {
    if (isResult(messages[index] as Message)) toolResults += 1;
    index -= 1;
  }
  return { text: messages[index]?.content ?? '', toolResults };
}

/** The scripted server's response for one request. */
export function chatScript(request: RecordedRequest): ScriptedResponse {
  const { text, toolResults } = turnState(request);
  if (text.includes(TOOLS_PROMPT)) {
    if (toolResults === 0) return { content: `Let me note that.${SAVE_MEMORY}`, delayMs: 30 };
    if (toolResults === 1) return { content: USE_SKILL, delayMs: 60 };
    return { content: FINAL_TOOLS_ANSWER, chunkSize: 4, delayMs: 40 };
  }
  if (text.includes(FLAKY_PROMPT)) {
    flakyRequests += 1;
    return flakyRequests === 1
      ? { status: 401, errorMessage: 'Incorrect API key provided' }
      : { content: FLAKY_ANSWER };
  }
  if (text.includes(CUT_OFF_PROMPT)) {
    cutOffRequests += 1;
    // Chunk 0 carries the role; chunks 1-3 the first 21 characters.
    return cutOffRequests === 1
      ? { content: CUT_OFF_ANSWER, closeAfterChunks: 4 }
      : { content: CUT_OFF_ANSWER };
  }
  if (text.includes(EMPTY_PROMPT)) return { content: '' };
  if (text.includes(SLOW_PROMPT)) {
    return { content: 'Once upon a time, '.repeat(400), chunkSize: 6, delayMs: 40 };
  }
  return { content: 'Hello from the scripted model.' };
}
