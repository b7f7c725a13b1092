/**
 * The zod schemas of a conversation's settings and a model's defaults (`../conversation-settings.ts`
 * holds the types and bounds). The contract, the store's row mapping and the CLI check with them.
 */
import { z } from 'zod';
import { formatBytes } from '../byte-size';
import type { ContextPolicy, ConversationSettings, ModelDefaults } from '../conversation-settings';
import {
  CONTEXT_MESSAGES_RANGE,
  CONTEXT_TOKENS_RANGE,
  MAX_INSTRUCTIONS_BYTES,
  MAX_OUTPUT_TOKENS_RANGE,
  TEMPERATURE_RANGE,
  TOP_P_RANGE,
  utf8Bytes,
} from '../conversation-settings';

/** As `dto-schemas.ts` MAX_ID_CHARS (that module imports this one). */
const MAX_ID_CHARS = 200;

export const contextPolicySchema: z.ZodType<ContextPolicy> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('all') }).strict(),
    z
      .object({
        kind: z.literal('messages'),
        count: z.number().int().min(CONTEXT_MESSAGES_RANGE.min).max(CONTEXT_MESSAGES_RANGE.max),
      })
      .strict(),
    z
      .object({
        kind: z.literal('tokens'),
        budget: z.number().int().min(CONTEXT_TOKENS_RANGE.min).max(CONTEXT_TOKENS_RANGE.max),
      })
      .strict(),
  ]),
);

/** The conversation's own instructions: at most 32 KB of text, or a saved prompt's id. */
export const instructionsSchema = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('text'),
        text: z
          .string()
          // Cheap bound first, so a huge string is refused without counting its bytes.
          .max(MAX_INSTRUCTIONS_BYTES)
          .refine((text) => text.trim() !== '', 'must not be blank')
          .refine(
            (text) => utf8Bytes(text) <= MAX_INSTRUCTIONS_BYTES,
            `must be at most ${formatBytes(MAX_INSTRUCTIONS_BYTES)}`,
          ),
      })
      .strict(),
    z
      .object({ kind: z.literal('prompt'), promptId: z.string().trim().min(1).max(MAX_ID_CHARS) })
      .strict(),
  ]),
);

export const conversationSettingsSchema: z.ZodType<ConversationSettings> = z.lazy(() =>
  z
    .object({
      systemPrompt: instructionsSchema.optional(),
      temperature: z.number().min(TEMPERATURE_RANGE.min).max(TEMPERATURE_RANGE.max).optional(),
      topP: z.number().min(TOP_P_RANGE.min).max(TOP_P_RANGE.max).optional(),
      maxOutputTokens: z
        .number()
        .int()
        .min(MAX_OUTPUT_TOKENS_RANGE.min)
        .max(MAX_OUTPUT_TOKENS_RANGE.max)
        .optional(),
      contextPolicy: contextPolicySchema.optional(),
    })
    .strict(),
);

/** A model's defaults: the same fields as a conversation's settings. */
export const modelDefaultsSchema: z.ZodType<ModelDefaults> = conversationSettingsSchema;
