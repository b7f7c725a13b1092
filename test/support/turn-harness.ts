/**
 * Runs the real orchestrator through the real OpenAI adapter against the scripted HTTP server,
 * and collects every event and every request, so tests assert on what really went over the wire.
 */
import type { ToolMode, TurnMode } from '../../src/shared/dto';
import type { TurnEndEvent, TurnEvent } from '../../src/shared/turn-events';
import { OpenAiLlmClient } from '../../src/main/adapters/openai/openai-llm-client';
import type { LimitOverrides, TurnLimits } from '../../src/main/core/orchestrator/budgets';
import { resolveTurnLimits } from '../../src/main/core/orchestrator/budgets';
import { runTurn } from '../../src/main/core/orchestrator/run-turn';
import type { ChatMessage, Logger, Tool } from '../../src/main/core/ports';
import type { RecordedRequest, Script, ScriptedLlmServer } from './scripted-llm-server';
import { startScriptedLlmServer } from './scripted-llm-server';

export interface LogEntry {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

export function recordingLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    entries.push({ level, message, ...(fields ? { fields } : {}) });
  };
  return {
    entries,
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };
}

export interface TurnRun {
  events: TurnEvent[];
  end: TurnEndEvent;
  requests: RecordedRequest[];
  logger: ReturnType<typeof recordingLogger>;
  server: ScriptedLlmServer;
}

export interface TurnOptions {
  toolMode: ToolMode;
  tools: Tool[];
  mode?: TurnMode;
  limits?: Partial<TurnLimits>;
  overrides?: LimitOverrides;
  messages?: ChatMessage[];
  signal?: AbortSignal;
  /** Called with each event as it arrives (e.g. to abort mid-turn). */
  onEvent?: (event: TurnEvent) => void;
}

export const SYSTEM_PROMPT = 'You are a test assistant.';

export async function runScriptedTurn(script: Script, options: TurnOptions): Promise<TurnRun> {
  const server = await startScriptedLlmServer(script);
  try {
    const logger = recordingLogger();
    let counter = 0;
    const events: TurnEvent[] = [];
    const limits = {
      ...resolveTurnLimits(options.mode ?? 'normal', options.overrides),
      ...options.limits,
    };
    const turn = runTurn(
      {
        llm: new OpenAiLlmClient({ baseUrl: server.baseUrl, apiKey: null, maxRetries: 0 }),
        clock: { now: () => Date.now() },
        ids: { next: (prefix) => `${prefix}_${++counter}` },
        logger,
      },
      {
        turnId: 'turn_1',
        conversationId: 'conv_1',
        model: 'scripted-model',
        toolMode: options.toolMode,
        messages: options.messages ?? [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: 'Hello' },
        ],
        tools: options.tools,
        limits,
      },
      options.signal ?? new AbortController().signal,
    );
    for await (const event of turn) {
      events.push(event);
      options.onEvent?.(event);
    }
    const end = events.at(-1);
    if (end?.type !== 'turn-end') throw new Error('the turn did not end with turn-end');
    return {
      events,
      end,
      requests: server.requests.filter((request) => request.path.endsWith('/chat/completions')),
      logger,
      server,
    };
  } finally {
    await server.close();
  }
}

/** The messages array of a recorded request. */
export function requestMessages(
  request: RecordedRequest | undefined,
): { role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown }[] {
  const messages = request?.body.messages;
  if (!Array.isArray(messages)) throw new Error('request has no messages');
  return messages as { role: string; content?: unknown }[];
}

export function textOf(events: readonly TurnEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
}

export function eventsOfType<T extends TurnEvent['type']>(
  events: readonly TurnEvent[],
  type: T,
): Extract<TurnEvent, { type: T }>[] {
  return events.filter((event): event is Extract<TurnEvent, { type: T }> => event.type === type);
}

/** A prompt-mode reply that calls `name` with `args`, preceded by `text`. */
export function promptCall(name: string, args: unknown, text = ''): { content: string } {
  return { content: `${text}<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>` };
}
