/**
 * Ports: the only way core code reaches the outside world. Adapters implement them; tests use
 * fakes. Nothing here imports an SDK or does I/O.
 */
import type {
  Conversation,
  Memory,
  MemoryStatus,
  Message,
  MessagePart,
  MessageStatus,
  ModelConfig,
  PromptTemplate,
  Skill,
  SkillAsset,
  TurnRecord,
} from '../../shared/dto';
import type { ArtifactReference } from '../../shared/turn-events';

/** A provider-neutral chat message, as sent to an LLM. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ChatToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A native tool call as the provider reported it; `argumentsJson` is the raw JSON text. */
export interface ChatToolCall {
  id: string;
  name: string;
  argumentsJson: string;
}

/** A function definition offered to a provider in native mode. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface LlmRequest {
  model: string;
  messages: ChatMessage[];
  /** Native-mode function definitions; absent in prompt mode and in final-answer rounds. */
  tools?: ToolSpec[];
  /** Stop sequences; prompt mode sends exactly `</tool_call>`. */
  stop?: string[];
}

/** One streamed piece of a provider response. Reasoning is never mixed into `text`. */
export type LlmChunk =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call-delta'; index: number; id?: string; name?: string; argumentsDelta?: string }
  | { type: 'finish'; reason: string | null };

export interface LlmClient {
  /** Streams one completion. Aborting `signal` ends the HTTP request and the iteration. */
  stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmChunk>;
}

/** What a tool returns. `isError` results reach the model as `<tool_error>` with this text. */
export interface ToolOutput {
  content: string;
  isError?: boolean;
  artifacts?: ArtifactReference[];
}

/** What a tool asks the user before a call that needs approval (MCP tools). */
export interface ApprovalRequest {
  /** The model-facing name, e.g. `files__write_file`. */
  toolName: string;
  service: string;
  tool: string;
  /** Exactly what will be sent. */
  arguments: Record<string, unknown>;
  conversationId: string | null;
  /** The server's own hints (untrusted, shown as such). */
  readOnlyHint: boolean;
  destructiveHint: boolean;
}

/** once: this call; conversation: this tool for the rest of the conversation; always: saved. */
export type ApprovalAnswer = 'once' | 'conversation' | 'always' | 'deny';

/** Asks the user; resolves 'deny' when the signal aborts or nobody can answer. */
export type Approver = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;

/** The narrow context a tool runs in: its conversation, the turn's abort signal, its ports. */
export interface ToolContext {
  /** Null when a tool runs outside a conversation (`aivory tool`). */
  conversationId: string | null;
  signal: AbortSignal;
  logger: Logger;
  /** Present when a user can answer approval prompts (UI, interactive CLI, or a CLI policy). */
  approve?: Approver;
}

/** A built-in or MCP tool. `description` and `inputSchema` are what the model sees, verbatim. */
export interface Tool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Longest a single call may run before it fails with the public timeout text. */
  timeoutMs: number;
  /**
   * Checks arguments before execution. Returns a message for the model when they are invalid,
   * so it can correct the call; null when they are fine.
   */
  validate?(args: unknown): string | null;
  execute(args: unknown, context: ToolContext): Promise<ToolOutput>;
}

export interface Clock {
  now(): number;
}

export interface IdGenerator {
  next(prefix: string): string;
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Secrets (API keys) by reference. Implementations never log values. */
export interface SecretStore {
  get(ref: string): Promise<string | null>;
  set(ref: string, value: string): Promise<void>;
  delete(ref: string): Promise<void>;
}

export interface MessagePatch {
  status?: MessageStatus;
  parts?: MessagePart[];
}

/** A file to attach to a skill, with its bytes. */
export interface SkillAssetInput {
  name: string;
  mime: string;
  data: Uint8Array;
}

/** A new user skill with its assets, written in one transaction. */
export interface NewSkill {
  name: string;
  icon: string;
  whenToUse: string;
  instructions: string;
  assets: SkillAssetInput[];
}

/** Fields of a skill to change; `name` renames it (its assets follow). */
export type SkillPatch = Partial<Pick<Skill, 'name' | 'icon' | 'whenToUse' | 'instructions'>>;

export type PromptTemplatePatch = Partial<Pick<PromptTemplate, 'title' | 'body' | 'tags'>>;

export interface MemoryPatch {
  memoryText?: string;
  status?: MemoryStatus;
}

/** Persistence. One adapter (SQLite) implements it; the chat service is its main user. */
export interface Store {
  createConversation(input: { id: string; title: string; modelId: string | null }): Conversation;
  getConversation(id: string): Conversation | null;
  listConversations(): Conversation[];
  renameConversation(id: string, title: string): void;
  setConversationToolToggles(id: string, toggles: Record<string, boolean>): void;
  deleteConversation(id: string): void;

  /** Inserts a message; a `streaming` one is owned by this process until it is finished. */
  createMessage(input: {
    id: string;
    conversationId: string;
    role: Message['role'];
    status: MessageStatus;
    parts: MessagePart[];
  }): Message;
  /** Replaces the parts and/or status of a message in one transaction. */
  updateMessage(id: string, patch: MessagePatch): void;
  listMessages(conversationId: string): Message[];
  getMessage(id: string): Message | null;

  saveTurnRecord(record: TurnRecord): void;
  listTurnRecords(conversationId: string): TurnRecord[];

  saveMemory(input: Omit<Memory, 'createdAt' | 'status'> & { status?: Memory['status'] }): Memory;
  listMemories(): Memory[];
  getMemory(id: string): Memory | null;
  /** Changes the text and/or status; throws `not-found` when the memory does not exist. */
  updateMemory(id: string, patch: MemoryPatch): Memory;
  /** Returns false when there was no such memory. */
  deleteMemory(id: string): boolean;

  /** The user's skills (never the built-in one), by name, each with its asset metadata. */
  listSkills(): Skill[];
  getSkill(name: string): Skill | null;
  /** Inserts a skill and its assets in one transaction; a taken name is `invalid-input`. */
  createSkill(input: NewSkill): Skill;
  /** Throws `not-found` for an unknown skill and `invalid-input` when renaming onto a taken name. */
  updateSkill(name: string, patch: SkillPatch): Skill;
  /** Deletes the skill with its assets; returns false when there was no such skill. */
  deleteSkill(name: string): boolean;
  /** Adds an asset, or replaces the skill's asset of the same name. Throws `not-found`. */
  putSkillAsset(skillName: string, asset: SkillAssetInput): SkillAsset;
  /** The asset's bytes, or null when the skill or the asset does not exist. */
  readSkillAsset(skillName: string, assetName: string): Uint8Array | null;
  deleteSkillAsset(skillName: string, assetName: string): boolean;

  listPromptTemplates(): PromptTemplate[];
  getPromptTemplate(id: string): PromptTemplate | null;
  createPromptTemplate(
    input: Pick<PromptTemplate, 'id' | 'title' | 'body' | 'tags'>,
  ): PromptTemplate;
  /** Throws `not-found` when the template does not exist. */
  updatePromptTemplate(id: string, patch: PromptTemplatePatch): PromptTemplate;
  deletePromptTemplate(id: string): boolean;

  getSetting(key: string): unknown;
  setSetting(key: string, value: unknown): void;

  listModels(): ModelConfig[];
  saveModel(model: ModelConfig): void;
  deleteModel(id: string): void;

  getToolAvailability(): Record<string, boolean>;
  setToolAvailability(name: string, enabled: boolean): void;
}
