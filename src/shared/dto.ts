/**
 * Plain data that crosses a boundary (store ↔ services ↔ CLI/renderer). No classes, no Dates:
 * times are epoch milliseconds.
 */
import type {
  ArtifactReference,
  StopReason,
  StructuredToolOutput,
  TaintReason,
  TokenUsage,
  ToolCallStatus,
} from './turn-events';
import type { ConversationSettings, ModelDefaults } from './conversation-settings';

export type {
  ContextPolicy,
  ConversationInstructions,
  ConversationSettings,
  ModelDefaults,
  SamplingParameters,
} from './conversation-settings';

export type ToolMode = 'native' | 'prompt';
export type TurnMode = 'fast' | 'normal' | 'deep';

export interface Conversation {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  modelId: string | null;
  /**
   * The conversation's own tool switches (the third availability layer): true adds a tool the
   * model's defaults leave out, false removes one; tools switched off globally stay off.
   */
  toolToggles: Record<string, boolean>;
  /** Its own instructions, parameters and context policy (`conversation-settings.ts`); {} : none. */
  settings: ConversationSettings;
  /** When the user pinned it (ms since the epoch); pinned conversations head the list. */
  pinnedAt: number | null;
}

/**
 * A message's life: `streaming` while a turn writes it; then `complete`, `canceled`, `error`, or
 * `interrupted` when the process that wrote it died before the turn ended.
 */
export type MessageStatus = 'streaming' | 'complete' | 'canceled' | 'error' | 'interrupted';
export type MessageRole = 'user' | 'assistant' | 'system';

/** One ordered part of a message. */
export type MessagePart =
  | { kind: 'text'; text: string }
  /** `durationMs`: from its first word to what followed it (absent: saved before it was kept). */
  | { kind: 'reasoning'; text: string; durationMs?: number }
  | { kind: 'tool-call'; toolCallId: string; name: string; arguments: unknown }
  | {
      kind: 'tool-result';
      toolCallId: string;
      name: string;
      status: ToolCallStatus;
      output: string;
      durationMs: number;
      /** An MCP tool's structured result, for the trace card (absent: none). */
      structured?: StructuredToolOutput;
    }
  | { kind: 'artifact'; artifact: ArtifactReference }
  /** A file the user attached to their message (a copy under the data directory). */
  | { kind: 'attachment'; attachment: ArtifactReference };

export type MessagePartKind = MessagePart['kind'];

export interface Message {
  id: string;
  conversationId: string;
  /**
   * The message this one follows (null: the conversation's first). Messages form a tree: a
   * regenerated answer is a sibling of the answer it replaces, an edited question a sibling of
   * the question; the conversation shows one path through it (`listMessages`).
   */
  parentId: string | null;
  role: MessageRole;
  status: MessageStatus;
  createdAt: number;
  updatedAt: number;
  parts: MessagePart[];
}

/** The bookkeeping of one finished (or interrupted) turn. */
export interface TurnRecord {
  id: string;
  conversationId: string;
  messageId: string;
  modelId: string | null;
  /** The model name the requests carried (e.g. `qwen3:8b`), or null for older records. */
  modelName: string | null;
  stopReason: StopReason | 'interrupted';
  toolCalls: Record<string, number>;
  providerRounds: number;
  startedAt: number;
  durationMs: number;
  errorCode: string | null;
  /** The failed turn's public message (what the user reads), or null. */
  errorMessage: string | null;
  /** The turn's last budget meter (counts with their limits), or null. */
  budget: TurnBudgetRecord | null;
  /** Earlier messages the context policy or window left out of the request; absent: none or unknown. */
  omittedMessages?: number;
  /** Tokens the turn used, when the provider reported them; null otherwise. */
  usage: TokenUsage | null;
  /** What tainted the turn (docs/architecture/turn-taint.md), or null when nothing did. */
  taint: TurnTaintRecord | null;
}

/** A budget meter as stored: each counter's use and limit (null: no limit). */
export interface TurnBudgetRecord {
  perTool: Record<string, { used: number; limit: number | null }>;
  total: { used: number; limit: number | null };
  rounds: { used: number; limit: number | null };
}

/** The call that tainted a turn (null: the user's attached files did) and what it read. */
export interface TurnTaintRecord {
  toolCallId: string | null;
  reasons: TaintReason[];
}

/** A model the user configured. The API key lives in the SecretStore under `apiKeyRef`. */
export interface ModelConfig {
  id: string;
  label: string;
  baseUrl: string;
  model: string;
  toolMode: ToolMode;
  contextWindow: number;
  /** Tools checked by default for this model; null means every available tool. */
  defaultTools: string[] | null;
  /** MCP service ids checked by default for this model; null or absent: every enabled service. */
  defaultMcpServices?: string[] | null;
  apiKeyRef: string | null;
  isDefault: boolean;
  /** Takes images as input; absent: false. */
  vision?: boolean;
  /** Temperature / top_p / max output tokens for its conversations; absent: none set. */
  defaults?: ModelDefaults;
}

/**
 * ACTIVE memories go into system prompts; ARCHIVED ones are kept but left out; PENDING ones were
 * saved in a turn that had read untrusted content and wait for the user to confirm them.
 */
export type MemoryStatus = 'ACTIVE' | 'ARCHIVED' | 'PENDING';

/** Where a memory saved in a tainted turn came from: its turn and what tainted that turn. */
export interface MemoryOrigin {
  turnId: string | null;
  /** E.g. `web_fetch https://example.com/page`; several reasons joined with `; `. */
  reason: string;
}

export interface Memory {
  id: string;
  memoryText: string;
  slot: string | null;
  value: string | null;
  status: MemoryStatus;
  createdAt: number;
  conversationId: string | null;
  /** Set for memories saved in a tainted turn (kept after confirmation); null otherwise. */
  origin: MemoryOrigin | null;
}

/** A file attached to a skill (stored with it; its bytes are read separately). */
export interface SkillAsset {
  name: string;
  mime: string;
  /** Bytes. */
  size: number;
  createdAt: number;
}

/**
 * A reusable how-to the model loads with `use_skill`. `name` is its identity; `whenToUse` is the
 * one-sentence trigger injected into the system prompt's skills index. `builtIn` marks the reserved
 * read-only skill that ships with the app (a user skill of the same name overrides it).
 */
export interface Skill {
  name: string;
  icon: string;
  whenToUse: string;
  /** Markdown. */
  instructions: string;
  assets: SkillAsset[];
  builtIn: boolean;
  createdAt: number;
  updatedAt: number;
}

/** A prompt template of the user's personal library; `{{variable}}` placeholders are filled in. */
export interface PromptTemplate {
  id: string;
  title: string;
  body: string;
  tags: string[];
  createdAt: number;
  updatedAt: number;
}

/** A template with the names of its `{{variable}}` placeholders, in order of first use. */
export interface PromptTemplateWithVariables extends PromptTemplate {
  variables: string[];
}
