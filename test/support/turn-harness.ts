/**
 * Runs the real orchestrator for one turn and collects every event and every model request.
 * Here: the in-memory `ScriptedLlmClient` (unit tests: no sockets, requests as the core built
 * them). `http-turn-harness.ts` runs the same scripts (`llm-script.ts`) through the real OpenAI
 * adapter over HTTP to the scripted server (integration tests: requests as they went over the
 * wire).
 */
import type { ToolMode, TurnMode } from '../../src/shared/dto';
import type { TaintReason, TurnEndEvent, TurnEvent } from '../../src/shared/turn-events';
import type { LimitOverrides, TurnLimits } from '../../src/main/core/orchestrator/budgets';
import { resolveTurnLimits } from '../../src/main/core/orchestrator/budgets';
import { runTurn } from '../../src/main/core/orchestrator/run-turn';
import type {
  Approver,
  ChatMessage,
  Clock,
  LlmClient,
  LlmRequest,
  Logger,
  Tool,
} from '../../src/main/core/ports';
import type { ChatService, ResolvedModel, TurnRequest } from '../../src/main/services/chat-service';
import type { ClientScript } from './scripted-llm-client';
import { ScriptedLlmClient } from './scripted-llm-client';

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

export interface TurnRun<Request> {
  events: TurnEvent[];
  end: TurnEndEvent;
  /** What the orchestrator asked the model, in order. */
  requests: Request[];
  logger: ReturnType<typeof recordingLogger>;
}

/** A turn against the in-memory client: `requests` are the port's `LlmRequest`s. */
export interface ClientTurnRun extends TurnRun<LlmRequest> {
  llm: ScriptedLlmClient;
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
  /** What the turn starts tainted with (attached files). */
  initialTaint?: TaintReason[];
  /** Answers approval prompts. */
  approve?: Approver;
  /** The turn's clock (default: the real one). */
  clock?: Clock;
  /** The model takes images (tool result images are sent to it). */
  vision?: boolean;
}

export const SYSTEM_PROMPT = 'You are a test assistant.';

/**
 * Runs the real orchestrator against the in-memory scripted client: no sockets, and the
 * requests are the provider-neutral ones the core built.
 */
export async function runScriptedTurn(
  script: ClientScript,
  options: TurnOptions,
): Promise<ClientTurnRun> {
  const llm = new ScriptedLlmClient(script);
  const run = await driveTurn(llm, options);
  return { ...run, requests: llm.requests, llm };
}

/** Runs one turn with `llm` and collects its events (the part both transports share). */
export async function driveTurn(
  llm: LlmClient,
  options: TurnOptions,
): Promise<Omit<TurnRun<never>, 'requests'>> {
  const logger = recordingLogger();
  let counter = 0;
  const events: TurnEvent[] = [];
  const limits = {
    ...resolveTurnLimits(options.mode ?? 'normal', options.overrides),
    ...options.limits,
  };
  const turn = runTurn(
    {
      llm,
      clock: options.clock ?? { now: () => Date.now() },
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
      ...(options.initialTaint ? { initialTaint: options.initialTaint } : {}),
      ...(options.approve ? { approve: options.approve } : {}),
      ...(options.vision ? { vision: true } : {}),
    },
    options.signal ?? new AbortController().signal,
  );
  for await (const event of turn) {
    events.push(event);
    options.onEvent?.(event);
  }
  const end = events.at(-1);
  if (end?.type !== 'turn-end') throw new Error('the turn did not end with turn-end');
  return { events, end, logger };
}

/** The messages of a request the core built. */
export function requestMessages(request: LlmRequest | undefined): ChatMessage[] {
  if (!request) throw new Error('no such request');
  return request.messages;
}

/** The names of the tools a request offered (native mode); undefined when it offered none. */
export function offeredTools(request: LlmRequest | undefined): string[] | undefined {
  if (!request) throw new Error('no such request');
  return request.tools?.map((tool) => tool.name);
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

/**
 * A runner of whole chat-service turns with one model: each call runs a turn (`text` empty unless
 * given; `normal` mode) to its end and returns its events.
 */
export function chatTurnRunner(
  chat: Pick<ChatService, 'runTurn'>,
  model: ResolvedModel,
): (request: Partial<TurnRequest>) => Promise<TurnEvent[]> {
  return async (request) => {
    const events: TurnEvent[] = [];
    for await (const event of chat.runTurn(
      { text: '', model, mode: 'normal', ...request },
      new AbortController().signal,
    ))
      events.push(event);
    return events;
  };
}
