/**
 * zod schemas of the plain data the IPC contract returns (conversations, messages, models as the
 * renderer sees them, settings, library items). Views never carry a secret: API keys appear only
 * as `apiKeyMasked` (`sk-…abcd`).
 */
import { z } from 'zod';
import {
  budgetCounterSchema,
  stopReasonSchema,
  taintReasonSchema,
  tokenUsageSchema,
} from './turn-event-schema';
import { messagePartSchema } from './message-part-schema';
import { conversationSettingsSchema, modelDefaultsSchema } from './conversation-settings-schema';
import { MCP_LOG_LEVELS } from '../mcp';

/** Longest user message the composer may send (the renderer reads it from `limits.ts`). */
export { MAX_MESSAGE_CHARS, MAX_TITLE_CHARS, MAX_URL_CHARS } from './limits';
export { messagePartSchema };

/** Longest id the contract accepts (ids are short prefixes + random parts). */
export const MAX_ID_CHARS = 200;

/** An id as requests carry it. */
export const idSchema = z.string().trim().min(1).max(MAX_ID_CHARS);
/** Native function calling or prompt-mode text calls. */
export const toolModeSchema = z.enum(['native', 'prompt']);
/** Fast, normal or deep research. */
export const turnModeSchema = z.enum(['fast', 'normal', 'deep']);

/** A conversation. */
export const conversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  modelId: z.string().nullable(),
  /** The conversation's own tool switches over the model's defaults. */
  toolToggles: z.record(z.string(), z.boolean()),
  /** Its own instructions, parameters and context policy. */
  settings: conversationSettingsSchema,
  /** When it was pinned (null: not pinned). */
  pinnedAt: z.number().nullable(),
});

/** A message's life. */
export const messageStatusSchema = z.enum([
  'streaming',
  'complete',
  'canceled',
  'error',
  'interrupted',
]);

/** A stored message. */
export const messageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  parentId: z.string().nullable(),
  role: z.enum(['user', 'assistant', 'system']),
  status: messageStatusSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
  parts: z.array(messagePartSchema),
});

/** The bookkeeping of a finished turn, as the UI shows it under its message. */
export const turnSummarySchema = z.object({
  turnId: z.string(),
  messageId: z.string(),
  /** The model that wrote the answer (its name as sent), or null for older turns. */
  model: z.string().nullable(),
  /** The saved model's label (as the model picker shows it), when it still exists. */
  modelLabel: z.string().nullable().optional(),
  stopReason: z.union([stopReasonSchema, z.literal('interrupted')]),
  toolCalls: z.record(z.string(), z.number()),
  durationMs: z.number(),
  /** The turn's last budget meter (with limits); null when it called no tool or predates it. */
  budget: z
    .object({
      perTool: z.record(z.string(), budgetCounterSchema),
      total: budgetCounterSchema,
      rounds: budgetCounterSchema,
    })
    .nullable(),
  /** Tokens the turn used, when the provider reported them. */
  usage: tokenUsageSchema.nullable(),
  /** Earlier messages the context policy or window left out of the turn's request. */
  omittedMessages: z.number().int().min(0).optional(),
  /** Why the turn failed, in the words the user reads; null unless it failed. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** What tainted the turn: the call that did and what it read; null when nothing did. */
  taint: z
    .object({ toolCallId: z.string().nullable(), reasons: z.array(taintReasonSchema) })
    .nullable(),
});

/** One full-text search hit. */
export const searchHitSchema = z.object({
  conversationId: z.string(),
  messageId: z.string(),
  title: z.string(),
  /** Matched text, the hits between SNIPPET_MARK's marks (search-snippet.ts); never HTML. */
  snippet: z.string(),
});

/** A saved model as the renderer sees it: the key only masked. */
export const modelViewSchema = z.object({
  id: z.string(),
  label: z.string(),
  baseUrl: z.string(),
  model: z.string(),
  toolMode: toolModeSchema,
  contextWindow: z.number(),
  defaultTools: z.array(z.string()).nullable(),
  /** MCP service ids checked by default; null: every enabled service (the host always sets it). */
  defaultMcpServices: z.array(z.string()).nullable().optional(),
  /** Each default service by name, with 已删除 / 已停用 / 未同步 when it cannot run. */
  mcpDefaults: z
    .array(
      z.object({
        serviceId: z.string(),
        name: z.string().nullable(),
        marker: z.enum(['已删除', '已停用', '未同步']).nullable(),
      }),
    )
    .optional(),
  isDefault: z.boolean(),
  apiKeyMasked: z.string().nullable(),
  /** Takes images as input (set by the user, or from the provider's listing); the host sets it. */
  vision: z.boolean().optional(),
  /** Temperature / top_p / max output tokens for its conversations ({}: none). */
  defaults: modelDefaultsSchema.optional(),
});

/** A model given by AIVORY_BASE_URL / AIVORY_MODEL at start-up (skips the first-run screen). */
export const environmentModelSchema = z.object({
  baseUrl: z.string(),
  model: z.string(),
  toolMode: toolModeSchema,
  apiKeyMasked: z.string().nullable(),
});

/** A local OpenAI-compatible server found by probing its default port. */
export const discoveredServerSchema = z.object({
  name: z.string(),
  baseUrl: z.string(),
  models: z.array(z.string()),
});

/** The result of checking a model server. */
export const connectionCheckSchema = z.object({
  ok: z.boolean(),
  /** Models the server lists (empty when it could not be reached). */
  models: z.array(z.string()),
  /** Whether the requested model is among them (null when no model was named). */
  modelListed: z.boolean().nullable(),
  /** Why the check failed, written for the user. */
  error: z.string().nullable(),
  /** What the provider states about its listed models (only models it says something about). */
  capabilities: z.array(
    z.object({
      id: z.string(),
      vision: z.boolean().nullable(),
      tools: z.boolean().nullable(),
      reasoning: z.boolean().nullable(),
    }),
  ),
  /** The server listed more models than are kept (see model-listing.ts). */
  truncated: z.boolean(),
});

/** A tool's availability. */
export const toolStatusSchema = z.object({
  name: z.string(),
  /** Registered and switched on: offered to models. */
  available: z.boolean(),
  /** The global switch (settings → tools). */
  enabled: z.boolean(),
  /** Why it is not available, or null. */
  reason: z.string().nullable(),
});

/** A saved memory. */
export const memorySchema = z.object({
  id: z.string(),
  memoryText: z.string(),
  slot: z.string().nullable(),
  value: z.string().nullable(),
  /** PENDING: saved after the turn read untrusted content; waits for `memories.confirm`. */
  status: z.enum(['ACTIVE', 'ARCHIVED', 'PENDING']),
  createdAt: z.number(),
  conversationId: z.string().nullable(),
  /** Where a memory saved in a tainted turn came from. */
  origin: z.object({ turnId: z.string().nullable(), reason: z.string() }).nullable(),
});

/** A skill as lists show it. */
export const skillSummarySchema = z.object({
  name: z.string(),
  icon: z.string(),
  whenToUse: z.string(),
  builtIn: z.boolean(),
  assetCount: z.number(),
  updatedAt: z.number(),
});

/** A prompt template with its variables. */
export const promptTemplateSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  tags: z.array(z.string()),
  variables: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** A settings group whose key lives in the secret store: the reference becomes a mask. */
const maskedKey = { apiKeyMasked: z.string().nullable() };

/** Every setting the renderer may read; `apiKeyRef` never leaves the main process. */
export const settingsViewSchema = z.object({
  search: z.object({
    provider: z.enum(['disabled', 'searxng', 'serper', 'brave']),
    baseUrl: z.string(),
    engines: z.string(),
    ...maskedKey,
  }),
  sandbox: z.object({
    baseUrl: z.string(),
    execTimeoutSeconds: z.number(),
    idleReapSeconds: z.number(),
    memoryMiB: z.number(),
    runtime: z.enum(['runc', 'runsc', 'auto']),
    ...maskedKey,
  }),
  images: z.object({
    provider: z.enum(['disabled', 'openai']),
    baseUrl: z.string(),
    model: z.string(),
    ...maskedKey,
  }),
  chat: z.object({ defaultMode: turnModeSchema }),
  /** web_fetch / fetch_image limits. */
  web: z.object({
    refuseNonDefaultPorts: z.boolean(),
    maxBodyMegabytes: z.number(),
    deadlineSeconds: z.number(),
  }),
  /** stdio MCP services are allowed (they run a local command). */
  mcp: z.object({
    allowLocalCommands: z.boolean(),
    logLevel: z.enum(MCP_LOG_LEVELS),
    serviceLogLevels: z.record(z.string(), z.enum(MCP_LOG_LEVELS)),
    samplingAlwaysAllow: z.array(z.string()),
    oauthClientMetadataUrl: z.string(),
  }),
  ui: z.object({
    language: z.enum(['system', 'zh-CN', 'en']),
    theme: z.enum(['system', 'light', 'dark']),
  }),
});
