/**
 * MCP sampling for a turn (or `aivory mcp call`): a server asks the user's model for a completion
 * during a call. The sampler built here asks the user first (`McpSamplingAsk`: the desktop's card,
 * the CLI's prompt) unless the service is always allowed (`SamplingAlwaysAllow`, the setting
 * `mcp.samplingAlwaysAllow`), then calls the model through the turn's own `LlmClient` with only the
 * server's system prompt and messages — no tools, no app system prompt, no conversation — and
 * reports the tokens (`onUsage`, added to the turn's usage). Budget: a turn answers at most
 * `MAX_SAMPLING_PER_TURN` requests and none once its tool-call budget is spent (`refusal`). The
 * completion goes back to the server only: it enters the turn only as part of the tool's result,
 * which is untrusted tool output like any other.
 */
import type {
  LlmClient,
  Logger,
  McpSampler,
  McpSampling,
  McpSamplingAnswer,
  McpSamplingDecision,
  McpSamplingPrompt,
  ChatMessage,
  Tool,
  ToolContext,
} from '../core/ports';

/** Most sampling requests one turn (or one `aivory mcp call`) answers. */
export const MAX_SAMPLING_PER_TURN = 8;

/** Asks the user whether the server may use the model; 'deny' when the signal aborts. */
export type McpSamplingAsk = (
  prompt: McpSamplingPrompt,
  signal: AbortSignal,
) => Promise<McpSamplingDecision>;

/** The services the user always lets sample (by id), remembered across runs. */
export interface SamplingAlwaysAllow {
  has(serviceId: string): boolean;
  add(serviceId: string): void;
}

export interface SamplerOptions {
  llm: LlmClient;
  /** The model that answers (the conversation's, or the default). */
  model: string;
  /** Asks the user; absent: every request is refused. */
  ask: McpSamplingAsk | undefined;
  alwaysAllow: SamplingAlwaysAllow | undefined;
  /** Why no more requests may run now (the turn's budget is spent), else null. */
  refusal?: () => string | null;
  /** The provider's token count of each completion. */
  onUsage?: (usage: { inputTokens: number; outputTokens: number }) => void;
  logger?: Logger;
}

export function createSampler(options: SamplerOptions): McpSampler {
  let answered = 0;
  return async (request, signal) => {
    const refused = options.refusal?.() ?? null;
    if (refused !== null) return decline(refused);
    if (answered >= MAX_SAMPLING_PER_TURN)
      return decline(`at most ${MAX_SAMPLING_PER_TURN} sampling requests per turn`);
    // No one to ask (a non-interactive run, `--sampling deny`): refused, always-allowed or not.
    if (options.ask === undefined) return decline('sampling is off for this run');
    if (options.alwaysAllow?.has(request.serviceId) !== true) {
      const decision = await options.ask(promptOf(request, options.model), signal);
      if (decision === 'deny' || signal.aborted) return decline('denied');
      if (decision === 'always') options.alwaysAllow?.add(request.serviceId);
    }
    answered += 1;
    return complete(options, request, signal);
  };
}

/** What the user is shown: the request as plain data, who asks and which model answers. */
function promptOf(request: McpSampling, model: string): McpSamplingPrompt {
  return {
    service: request.service,
    model,
    systemPrompt: request.systemPrompt,
    messages: request.messages,
    maxTokens: request.maxTokens,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.stopSequences ? { stopSequences: request.stopSequences } : {}),
  };
}

async function complete(
  options: SamplerOptions,
  request: McpSampling,
  signal: AbortSignal,
): Promise<McpSamplingAnswer> {
  const messages: ChatMessage[] = [
    ...(request.systemPrompt === ''
      ? []
      : [{ role: 'system' as const, content: request.systemPrompt }]),
    ...request.messages.map((message) => ({ role: message.role, content: message.text })),
  ];
  let text = '';
  let finish: string | null = null;
  try {
    // No tools: the request never carries a tool list.
    for await (const chunk of options.llm.stream(
      {
        model: options.model,
        messages,
        maxOutputTokens: request.maxTokens,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.stopSequences ? { stop: request.stopSequences } : {}),
      },
      signal,
    )) {
      if (chunk.type === 'text') text += chunk.text;
      else if (chunk.type === 'finish') finish = chunk.reason;
      else if (chunk.type === 'usage')
        options.onUsage?.({ inputTokens: chunk.inputTokens, outputTokens: chunk.outputTokens });
    }
  } catch (error) {
    options.logger?.warn('MCP sampling: the model failed', {
      service: request.service,
      error: error instanceof Error ? error.message : String(error),
    });
    return decline('the model failed');
  }
  return {
    action: 'accept',
    text,
    model: options.model,
    stopReason: finish === 'length' ? 'maxTokens' : 'endTurn',
  };
}

function decline(reason: string): McpSamplingAnswer {
  return { action: 'decline', reason };
}

/** `tool` whose calls carry `sample`; the tool itself unchanged when there is none. */
export function withSampler(tool: Tool, sample: McpSampler | undefined): Tool {
  if (sample === undefined) return tool;
  const execute = (args: unknown, context: ToolContext) =>
    tool.execute(args, { ...context, sample });
  return Object.defineProperty(Object.create(tool) as Tool, 'execute', { value: execute });
}
