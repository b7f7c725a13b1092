/**
 * MCP sampling, client side (`sampling/createMessage`, MCP 2025-11-25): the capability the client
 * declares (only when someone can answer; never `sampling.tools` — the client's model is never
 * given a server's tools), and the handler that turns the server's request into a plain
 * `McpSamplingRequest` — text messages only (an image or audio part is described as "[image]" /
 * "[audio]"), the server's text stripped of control and format characters and bounded, max tokens
 * clamped — hands it to `onSample`, and sends back the model's text. A refusal (the user denied,
 * nobody to ask, the budget is spent) is a JSON-RPC error, as the spec's "User rejected sampling
 * request". `includeContext` is ignored: no other context is ever included ("none").
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { Client, ClientCapabilities, CreateMessageResult } from '@modelcontextprotocol/client';
import { MAX_SAMPLING_TOKENS } from '../../../shared/mcp-sampling';
import type {
  McpSamplingAnswer,
  McpSamplingMessage,
  McpSamplingRequest,
} from '../../../shared/mcp-sampling';
import { openQuestions } from './mcp-elicitation';
import { keepingLines } from '../../../shared/untrusted-text';

/** Most messages one request may carry. */
export const MAX_SAMPLING_MESSAGES = 50;
/** Most characters of server text (system prompt and messages together). */
export const MAX_SAMPLING_CHARS = 100_000;
const MAX_STOP_SEQUENCES = 4;
const MAX_STOP_CHARS = 100;
/** The JSON-RPC code the SDK's examples use for "User rejected sampling request". */
export const SAMPLING_REJECTED_CODE = -1;

/** What the client offers: sampling without tools, only when asked. */
export function samplingCapability(options: { sampling: boolean }): ClientCapabilities {
  return options.sampling ? { sampling: {} } : {};
}

/** Answers the server's `sampling/createMessage` through `onSample` (see the file comment). */
export function offerSampling(
  client: Client,
  onSample: (request: McpSamplingRequest, signal: AbortSignal) => Promise<McpSamplingAnswer>,
): void {
  const open = openQuestions(client);
  client.setRequestHandler('sampling/createMessage', async (request, context) => {
    const asked = normaliseSampling(request.params);
    // The user is asked (and the model then answers): the call's idle deadline waits.
    const answered = open.ask();
    let answer: McpSamplingAnswer;
    try {
      answer = await onSample(asked, context.mcpReq.signal);
    } catch {
      answer = { action: 'decline', reason: 'the sampling request failed' };
    } finally {
      answered();
    }
    return resultFor(answer);
  });
}

/** The answer as sent: the model's text, or the refusal as an error. */
export function resultFor(answer: McpSamplingAnswer): CreateMessageResult {
  if (answer.action !== 'accept')
    throw new ProtocolError(
      SAMPLING_REJECTED_CODE,
      `User rejected sampling request: ${answer.reason}`,
    );
  return {
    role: 'assistant',
    content: { type: 'text', text: answer.text },
    model: answer.model,
    stopReason: answer.stopReason,
  };
}

/** The server's request as plain, bounded data; a protocol error when it cannot be used. */
export function normaliseSampling(params: unknown): McpSamplingRequest {
  const record = asRecord(params);
  const rawMessages = Array.isArray(record.messages) ? record.messages : [];
  if (rawMessages.length === 0) refuse('no messages');
  if (rawMessages.length > MAX_SAMPLING_MESSAGES)
    refuse(`${rawMessages.length} messages; at most ${MAX_SAMPLING_MESSAGES} are taken`);
  let budget = MAX_SAMPLING_CHARS;
  const take = (text: string): string => {
    const cleaned = clean(text);
    const chars = [...cleaned];
    if (chars.length > budget) refuse(`more than ${MAX_SAMPLING_CHARS} characters of text`);
    budget -= chars.length;
    return cleaned;
  };
  const systemPrompt = take(typeof record.systemPrompt === 'string' ? record.systemPrompt : '');
  const messages: McpSamplingMessage[] = rawMessages.map((raw) => {
    const message = asRecord(raw);
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    if (message.role !== 'user' && message.role !== 'assistant') refuse('a message has no role');
    const parts = Array.isArray(message.content) ? message.content : [message.content];
    return { role, text: take(parts.map(partText).join('\n')) };
  });
  const maxTokens =
    typeof record.maxTokens === 'number' && Number.isFinite(record.maxTokens)
      ? Math.min(MAX_SAMPLING_TOKENS, Math.max(1, Math.floor(record.maxTokens)))
      : MAX_SAMPLING_TOKENS;
  const temperature =
    typeof record.temperature === 'number' &&
    Number.isFinite(record.temperature) &&
    record.temperature >= 0 &&
    record.temperature <= 2
      ? { temperature: record.temperature }
      : {};
  const stops = Array.isArray(record.stopSequences)
    ? record.stopSequences
        .filter((item): item is string => typeof item === 'string' && item !== '')
        .slice(0, MAX_STOP_SEQUENCES)
        .map((item) => [...item].slice(0, MAX_STOP_CHARS).join(''))
    : [];
  return {
    systemPrompt,
    messages,
    maxTokens,
    ...temperature,
    ...(stops.length > 0 ? { stopSequences: stops } : {}),
  };
}

/** A content part as text: text as is, anything else described by its type only. */
function partText(raw: unknown): string {
  const part = asRecord(raw);
  if (part.type === 'text') return typeof part.text === 'string' ? part.text : '';
  if (part.type === 'image') return '[image]';
  if (part.type === 'audio') return '[audio]';
  if (part.type === 'tool_use' || part.type === 'tool_result')
    refuse('tool use in sampling is not supported');
  return '[unsupported content]';
}

/** Untrusted text: hidden characters out (newlines kept), line ends unified. */
function clean(text: string): string {
  return keepingLines(text, { tabs: true }).trim();
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function refuse(why: string): never {
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unsupported sampling request: ${why}`);
}
