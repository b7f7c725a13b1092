/**
 * The TurnEvent union: everything a running turn reports, in order. The orchestrator yields these,
 * the chat service persists them, the CLI prints them (`--json`: one per line, `type` first) and the
 * renderer reduces them. Plain data only: every event survives structured clone and JSON.
 */

/** Why a turn ended. `tool_budget_exceeded` and `tool_no_progress` are the seed's names. */
export type StopReason =
  | 'completed'
  | 'tool_budget_exceeded'
  | 'tool_no_progress'
  | 'tool_parse_failure'
  | 'length'
  | 'canceled'
  | 'error';

/** Which kind of tool budget a final-answer round was forced by. */
export type FinalRoundCause = 'budget' | 'no-progress';

/** Status of one executed (or refused) tool call. */
export type ToolCallStatus = 'ok' | 'error' | 'skipped' | 'budget';

/** A counter with its cap; `limit` is null for uncapped tools. */
export interface BudgetCounter {
  used: number;
  limit: number | null;
}

/** A file produced by a tool and attached to the assistant message. */
export interface ArtifactReference {
  name: string;
  path: string;
  mime: string;
  size: number;
}

/** A public error: a stable code and a one-line message, never a stack. */
export interface PublicError {
  code: string;
  message: string;
}

export interface TurnStartEvent {
  type: 'turn-start';
  turnId: string;
  conversationId: string;
  messageId: string;
  model: string;
  toolMode: 'native' | 'prompt';
  mode: 'fast' | 'normal' | 'deep';
  /** Earlier messages the context policy or window left out of the request; absent: none. */
  omittedMessages?: number;
  /** The saved model that answers (its id), when the turn's model is a saved one. */
  modelId?: string;
  /**
   * One of several answers to one question, each from its own model (`TurnGroup`); absent: the
   * question's only answer.
   */
  group?: TurnGroup;
}

/**
 * Several models answering one question at once: one claim on the conversation for them all
 * (`id`, what `chat.cancel` stops them all by), each answer its own turn (`turnId`, its events,
 * its turn record) and a sibling version under the question.
 */
export interface TurnGroup {
  id: string;
  /** This answer's place among them, 0-based (the order the models were given in). */
  index: number;
  /** How many answers the question gets (2–4). */
  size: number;
}

export interface RoundStartEvent {
  type: 'round-start';
  turnId: string;
  /** 1-based provider request number within the turn. */
  round: number;
  /** True for the last, tool-less request forced by a budget or by no progress. */
  finalAnswer: boolean;
}

export interface TextDeltaEvent {
  type: 'text-delta';
  turnId: string;
  text: string;
}

export interface ReasoningDeltaEvent {
  type: 'reasoning-delta';
  turnId: string;
  text: string;
}

export interface ToolCallStartEvent {
  type: 'tool-call-start';
  turnId: string;
  toolCallId: string;
  name: string;
}

export interface ToolCallEndEvent {
  type: 'tool-call-end';
  turnId: string;
  toolCallId: string;
  name: string;
  /** The parsed arguments exactly as they will be passed to the tool. */
  arguments: unknown;
}

export interface ToolResultEvent {
  type: 'tool-result';
  turnId: string;
  toolCallId: string;
  name: string;
  status: ToolCallStatus;
  /** What the model receives as this call's output (public error text for failures). */
  output: string;
  durationMs: number;
  artifacts: ArtifactReference[];
  /** The call's structured result (an MCP tool's `structuredContent`), for the trace card. */
  structured?: StructuredToolOutput;
}

/**
 * A tool's structured result (MCP `structuredContent`) as the trace card shows it, with how it
 * compares with the tool's declared output schema.
 */
export interface StructuredToolOutput {
  /** The JSON, indented, bounded (`MAX_STRUCTURED_JSON_CHARS`, cut with a marker). */
  json: string;
  /**
   * `valid` / `invalid` against the tool's output schema; `unchecked` when the schema is too
   * large or does not compile; `none` when the tool declares no output schema.
   */
  check: 'valid' | 'invalid' | 'unchecked' | 'none';
  /** Why it does not match (one line, bounded); only for `invalid`. */
  problem?: string;
}

/** Longest structured result kept for the trace card (characters of indented JSON). */
export const MAX_STRUCTURED_JSON_CHARS = 20_000;

/**
 * A running tool's progress (an MCP server's `notifications/progress`), live only: shown on the
 * call's trace card and the CLI's trace, never stored in the message. The chat service sends at
 * most a few a second per call; `message` is one line without control characters, bounded.
 */
export interface ToolProgressEvent {
  type: 'tool-progress';
  turnId: string;
  toolCallId: string;
  /** Grows with each notification; a fraction of `total` when that is known. */
  progress: number;
  total?: number;
  message?: string;
}

export interface BudgetUpdateEvent {
  type: 'budget-update';
  turnId: string;
  perTool: Record<string, BudgetCounter>;
  total: BudgetCounter;
  rounds: BudgetCounter;
}

/** The model's tool-call JSON failed to parse; the bounded retry message went back to it. */
export interface ProtocolRetryEvent {
  type: 'protocol-retry';
  turnId: string;
  attempt: number;
  error: string;
}

/**
 * The model request failed before its answer started (a 429, a 503, a lost connection) and is
 * sent again after `waitMs`: what the server asked (`Retry-After`, at most a minute; a longer
 * wait ends the turn with "retry later") or a short backoff. `status` is the HTTP status, null for
 * a network failure. Live only, never stored; Stop ends the wait at once.
 */
export interface ModelWaitEvent {
  type: 'model-wait';
  turnId: string;
  waitMs: number;
  status: number | null;
}

/**
 * Why a turn is tainted: a tool whose result brought untrusted content (a web page, search
 * results, an MCP server's output, program output) into the turn. `detail` is what was read
 * (web_fetch: the URL), or null.
 */
export interface TaintReason {
  tool: string;
  detail: string | null;
}

/**
 * Sent once, right after the `tool-result` of the first call that tainted the turn (or first of
 * all when the user's attached files did): from here on
 * MCP calls ask, save_memory holds memories pending, and query-carrying fetches to new hosts ask.
 */
export interface TurnTaintedEvent {
  type: 'turn-tainted';
  turnId: string;
  /**
   * The call whose result tainted the turn (its trace card is marked); null when the turn started
   * tainted (the text of files attached to the user's message), announced before any call.
   */
  toolCallId: string | null;
  /** What tainted it (the first call's reasons; later ones are not announced again). */
  reasons: TaintReason[];
}

export interface TurnEndEvent {
  type: 'turn-end';
  turnId: string;
  stopReason: StopReason;
  /** The full visible answer text of the turn. */
  answer: string;
  toolCalls: Record<string, number>;
  providerRounds: number;
  durationMs: number;
  error?: PublicError;
  /** Tokens over all the turn's requests, when the provider reported them. */
  usage?: TokenUsage;
}

/** Tokens a provider counted: sent (prompt) and generated (completion, reasoning included). */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export type TurnEvent =
  | TurnStartEvent
  | RoundStartEvent
  | TextDeltaEvent
  | ReasoningDeltaEvent
  | ToolCallStartEvent
  | ToolCallEndEvent
  | ToolResultEvent
  | ToolProgressEvent
  | BudgetUpdateEvent
  | ProtocolRetryEvent
  | ModelWaitEvent
  | TurnTaintedEvent
  | TurnEndEvent;

export type TurnEventType = TurnEvent['type'];
