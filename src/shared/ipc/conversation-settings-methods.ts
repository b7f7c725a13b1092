/**
 * A conversation's settings dialog: its instructions (own text or a saved prompt), temperature /
 * top_p / max output tokens, context policy, with the model's defaults to show as placeholders
 * and the conversation's info (counts and token totals from its turn records).
 */
import { z } from 'zod';
import { idSchema } from './dto-schemas';
import { conversationSettingsSchema, modelDefaultsSchema } from './conversation-settings-schema';

export {
  contextPolicySchema,
  conversationSettingsSchema,
  instructionsSchema,
  modelDefaultsSchema,
} from './conversation-settings-schema';

/** What the dialog shows. */
export const conversationSettingsViewSchema = z.object({
  settings: conversationSettingsSchema,
  /** The defaults of the conversation's model (its saved model; {} for none or an unsaved one). */
  modelDefaults: modelDefaultsSchema,
  /** The model those defaults come from (its label), or null. */
  modelLabel: z.string().nullable(),
  /** The saved prompts the instructions may name. */
  prompts: z.array(z.object({ id: z.string(), title: z.string() })),
  /** The settings name a saved prompt that was deleted: turns run without instructions. */
  promptMissing: z.boolean(),
  info: z.object({
    createdAt: z.number(),
    messages: z.number(),
    turns: z.number(),
    models: z.array(z.string()),
    inputTokens: z.number(),
    outputTokens: z.number(),
    /** Turns whose provider reported no token counts (not in the totals). */
    turnsWithoutUsage: z.number(),
  }),
});

export type ConversationSettingsView = z.infer<typeof conversationSettingsViewSchema>;

/** The methods, spread into `invokeContract`. */
export const conversationSettingsMethods = {
  'conversations.settings': {
    request: z.object({ id: idSchema }).strict(),
    response: conversationSettingsViewSchema,
  },
  /** Replaces the conversation's settings as a whole ({}: every field back to the default). */
  'conversations.setSettings': {
    request: z.object({ id: idSchema, settings: conversationSettingsSchema }).strict(),
    response: conversationSettingsViewSchema,
  },
};
