/**
 * zod schemas of the TurnEvent union (`../turn-events.ts`), so the event channel of the IPC
 * contract has a schema like every other payload. `test/unit/host/ipc-contract.test.ts` checks
 * at type level that the inferred type equals `TurnEvent`.
 */
import { z } from 'zod';
import {
  artifactReferenceSchema,
  structuredToolOutputSchema,
  toolCallStatusSchema,
} from './message-part-schema';

export { artifactReferenceSchema, structuredToolOutputSchema, toolCallStatusSchema };

/** A counter with its cap; `limit` is null for uncapped tools. */
export const budgetCounterSchema = z.object({
  used: z.number(),
  limit: z.number().nullable(),
});

/** `{ code, message }`: what crosses a boundary instead of an exception. */
export const publicErrorSchema = z.object({ code: z.string(), message: z.string() });

/** Why a turn ended. */
export const stopReasonSchema = z.enum([
  'completed',
  'tool_budget_exceeded',
  'tool_no_progress',
  'tool_parse_failure',
  'length',
  'canceled',
  'error',
]);

const turnStart = z.object({
  type: z.literal('turn-start'),
  turnId: z.string(),
  conversationId: z.string(),
  messageId: z.string(),
  model: z.string(),
  toolMode: z.enum(['native', 'prompt']),
  mode: z.enum(['fast', 'normal', 'deep']),
  omittedMessages: z.number().int().min(0).optional(),
  modelId: z.string().optional(),
  group: z
    .object({
      id: z.string(),
      index: z.number().int().min(0),
      size: z.number().int().min(2),
    })
    .optional(),
});

const roundStart = z.object({
  type: z.literal('round-start'),
  turnId: z.string(),
  round: z.number(),
  finalAnswer: z.boolean(),
});

const textDelta = z.object({ type: z.literal('text-delta'), turnId: z.string(), text: z.string() });

const reasoningDelta = z.object({
  type: z.literal('reasoning-delta'),
  turnId: z.string(),
  text: z.string(),
});

const toolCallStart = z.object({
  type: z.literal('tool-call-start'),
  turnId: z.string(),
  toolCallId: z.string(),
  name: z.string(),
});

const toolCallEnd = z.object({
  type: z.literal('tool-call-end'),
  turnId: z.string(),
  toolCallId: z.string(),
  name: z.string(),
  arguments: z.unknown(),
});

const toolResult = z.object({
  type: z.literal('tool-result'),
  turnId: z.string(),
  toolCallId: z.string(),
  name: z.string(),
  status: toolCallStatusSchema,
  output: z.string(),
  durationMs: z.number(),
  artifacts: z.array(artifactReferenceSchema),
  structured: structuredToolOutputSchema.optional(),
});

const toolProgress = z.object({
  type: z.literal('tool-progress'),
  turnId: z.string(),
  toolCallId: z.string(),
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().max(500).optional(),
});

const budgetUpdate = z.object({
  type: z.literal('budget-update'),
  turnId: z.string(),
  perTool: z.record(z.string(), budgetCounterSchema),
  total: budgetCounterSchema,
  rounds: budgetCounterSchema,
});

const protocolRetry = z.object({
  type: z.literal('protocol-retry'),
  turnId: z.string(),
  attempt: z.number(),
  error: z.string(),
});

const modelWait = z.object({
  type: z.literal('model-wait'),
  turnId: z.string(),
  waitMs: z.number(),
  status: z.number().nullable(),
});

/** What tainted a turn: a tool and what it read (web_fetch: the URL). */
export const taintReasonSchema = z.object({ tool: z.string(), detail: z.string().nullable() });

const turnTainted = z.object({
  type: z.literal('turn-tainted'),
  turnId: z.string(),
  toolCallId: z.string().nullable(),
  reasons: z.array(taintReasonSchema),
});

/** Tokens a provider counted (see TokenUsage). */
export const tokenUsageSchema = z.object({ inputTokens: z.number(), outputTokens: z.number() });

const turnEnd = z.object({
  type: z.literal('turn-end'),
  turnId: z.string(),
  stopReason: stopReasonSchema,
  answer: z.string(),
  toolCalls: z.record(z.string(), z.number()),
  providerRounds: z.number(),
  durationMs: z.number(),
  error: publicErrorSchema.optional(),
  usage: tokenUsageSchema.optional(),
});

/** Every event a running turn reports; discriminated by `type`. */
export const turnEventSchema = z.discriminatedUnion('type', [
  turnStart,
  roundStart,
  textDelta,
  reasoningDelta,
  toolCallStart,
  toolCallEnd,
  toolResult,
  toolProgress,
  budgetUpdate,
  protocolRetry,
  modelWait,
  turnTainted,
  turnEnd,
]);
