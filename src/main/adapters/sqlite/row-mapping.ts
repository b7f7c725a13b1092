/**
 * Row shapes of the SQLite schema and their mapping to the shared DTOs. Reading checks what it
 * reads (enums against their allowed values, JSON columns against a schema), so a damaged or
 * foreign row fails loudly here instead of leaking a wrong type into the app.
 */
import { z } from 'zod';
import { AivoryError } from '../../../shared/errors';
import { messagePartSchema as sharedMessagePartSchema } from '../../../shared/ipc/message-part-schema';
import {
  conversationSettingsSchema,
  modelDefaultsSchema,
} from '../../../shared/ipc/conversation-settings-schema';
import type {
  Conversation,
  Memory,
  MemoryStatus,
  Message,
  MessagePart,
  MessageRole,
  MessageStatus,
  ModelConfig,
  ToolMode,
  TurnRecord,
} from '../../../shared/dto';

export interface ConversationRow {
  id: string;
  title: string;
  model_id: string | null;
  created_at: number;
  updated_at: number;
  tool_toggles: string;
  active_leaf_id: string | null;
  settings: string;
  pinned_at: number | null;
}

export interface MessageRow {
  id: string;
  conversation_id: string;
  parent_id: string | null;
  role: string;
  status: string;
  created_at: number;
  updated_at: number;
}

export interface PartRow {
  message_id: string;
  data: string;
}

export interface TurnRecordRow {
  id: string;
  conversation_id: string;
  message_id: string;
  model_id: string | null;
  stop_reason: string;
  tool_calls: string;
  provider_rounds: number;
  started_at: number;
  duration_ms: number;
  error_code: string | null;
  error_message: string | null;
  budget: string | null;
  model_name: string | null;
  usage: string | null;
  taint: string | null;
  omitted_messages: number | null;
}

export interface ModelRow {
  id: string;
  label: string;
  base_url: string;
  model: string;
  tool_mode: string;
  context_window: number;
  default_tools: string;
  default_mcp_services: string | null;
  api_key_ref: string | null;
  is_default: number;
  vision: number;
  defaults: string;
}

export interface MemoryRow {
  id: string;
  memory_text: string;
  slot: string | null;
  value: string | null;
  status: string;
  created_at: number;
  conversation_id: string | null;
  origin_turn_id: string | null;
  origin_reason: string | null;
}

const MESSAGE_ROLES: readonly MessageRole[] = ['user', 'assistant', 'system'];
const MESSAGE_STATUSES: readonly MessageStatus[] = [
  'streaming',
  'complete',
  'canceled',
  'error',
  'interrupted',
];
const STOP_REASONS: readonly TurnRecord['stopReason'][] = [
  'completed',
  'tool_budget_exceeded',
  'tool_no_progress',
  'tool_parse_failure',
  'length',
  'canceled',
  'error',
  'interrupted',
];
const TOOL_MODES: readonly ToolMode[] = ['native', 'prompt'];
const MEMORY_STATUSES: readonly MemoryStatus[] = ['ACTIVE', 'ARCHIVED', 'PENDING'];

/** The same schema the IPC contract uses: one definition of a stored part. */
const messagePartSchema: z.ZodType<MessagePart> = sharedMessagePartSchema;
const toolCallCountsSchema = z.lazy(() => z.record(z.string(), z.number()));
const turnBudgetSchema = z.lazy(() => {
  const budgetCounter = z.object({ used: z.number(), limit: z.number().nullable() });
  return z.object({
    perTool: z.record(z.string(), budgetCounter),
    total: budgetCounter,
    rounds: budgetCounter,
  });
});
const usageSchema = z.lazy(() =>
  z.object({
    inputTokens: z.number().int().min(0),
    outputTokens: z.number().int().min(0),
  }),
);
const turnTaintSchema = z.lazy(() =>
  z.object({
    toolCallId: z.string().nullable(),
    reasons: z.array(z.object({ tool: z.string(), detail: z.string().nullable() })),
  }),
);
const toolNamesSchema = z.lazy(() => z.array(z.string()));

function damaged(column: string): AivoryError {
  return new AivoryError(
    'internal',
    `The stored value of ${column} is not valid; the database may be damaged.`,
  );
}

/** Returns `value` as one of `allowed`, or throws when the stored text is not one of them. */
function pickEnum<T extends string>(allowed: readonly T[], value: string, column: string): T {
  const match = allowed.find((candidate) => candidate === value);
  if (match === undefined) throw damaged(column);
  return match;
}

/** Parses a JSON column and checks it against `schema`; throws a damage error otherwise. */
function parseJsonColumn<T>(schema: z.ZodType<T>, text: string, column: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw damaged(column);
  }
  const result = schema.safeParse(value);
  if (!result.success) throw damaged(column);
  return result.data;
}

export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    modelId: row.model_id,
    toolToggles: parseJsonColumn(TOOL_TOGGLES, row.tool_toggles, 'conversations.tool_toggles'),
    settings: parseJsonColumn(conversationSettingsSchema, row.settings, 'conversations.settings'),
    pinnedAt: row.pinned_at,
  };
}

const TOOL_TOGGLES = z.lazy(() => z.record(z.string(), z.boolean()));

/** Builds a message from its row and its parts, which the caller passes in position order. */
export function toMessage(row: MessageRow, parts: MessagePart[]): Message {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    parentId: row.parent_id,
    role: pickEnum(MESSAGE_ROLES, row.role, 'messages.role'),
    status: pickEnum(MESSAGE_STATUSES, row.status, 'messages.status'),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    parts,
  };
}

export function toMessagePart(row: PartRow): MessagePart {
  return parseJsonColumn(messagePartSchema, row.data, 'message_parts.data');
}

export function toTurnRecord(row: TurnRecordRow): TurnRecord {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    messageId: row.message_id,
    modelId: row.model_id,
    stopReason: pickEnum(STOP_REASONS, row.stop_reason, 'turn_records.stop_reason'),
    toolCalls: parseJsonColumn(toolCallCountsSchema, row.tool_calls, 'turn_records.tool_calls'),
    providerRounds: row.provider_rounds,
    startedAt: row.started_at,
    durationMs: row.duration_ms,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    modelName: row.model_name,
    usage:
      row.usage === null ? null : parseJsonColumn(usageSchema, row.usage, 'turn_records.usage'),
    budget:
      row.budget === null
        ? null
        : parseJsonColumn(turnBudgetSchema, row.budget, 'turn_records.budget'),
    taint:
      row.taint === null ? null : parseJsonColumn(turnTaintSchema, row.taint, 'turn_records.taint'),
    ...(row.omitted_messages === null ? {} : { omittedMessages: row.omitted_messages }),
  };
}

export function toModelConfig(row: ModelRow): ModelConfig {
  return {
    id: row.id,
    label: row.label,
    baseUrl: row.base_url,
    model: row.model,
    toolMode: pickEnum(TOOL_MODES, row.tool_mode, 'models.tool_mode'),
    contextWindow: row.context_window,
    defaultTools: parseJsonColumn(
      toolNamesSchema.nullable(),
      row.default_tools,
      'models.default_tools',
    ),
    ...(row.default_mcp_services === null
      ? {}
      : {
          defaultMcpServices: parseJsonColumn(
            toolNamesSchema,
            row.default_mcp_services,
            'models.default_mcp_services',
          ),
        }),
    apiKeyRef: row.api_key_ref,
    isDefault: row.is_default === 1,
    ...(row.vision === 1 ? { vision: true } : {}),
    ...modelDefaultsOf(row.defaults),
  };
}

/** `defaults` only when the model has some (`{}` stored: none). */
function modelDefaultsOf(text: string): Pick<ModelConfig, 'defaults'> {
  const defaults = parseJsonColumn(modelDefaultsSchema, text, 'models.defaults');
  return Object.keys(defaults).length === 0 ? {} : { defaults };
}

export function toMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    memoryText: row.memory_text,
    slot: row.slot,
    value: row.value,
    status: pickEnum(MEMORY_STATUSES, row.status, 'memories.status'),
    createdAt: row.created_at,
    conversationId: row.conversation_id,
    origin:
      row.origin_reason === null ? null : { turnId: row.origin_turn_id, reason: row.origin_reason },
  };
}
