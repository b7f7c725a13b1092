/**
 * A turn's effective settings: the conversation's own over the model's defaults over none
 * (`effectiveSampling`; instructions and the context policy the same way), its instructions (own text or a saved prompt, which may have been
 * deleted since: then none, said in the log, the dialog and `aivory conversations show`), and
 * the section those instructions add to the system prompt, after the main prompt's own text.
 */
import type {
  ContextPolicy,
  ConversationSettings,
  ModelDefaults,
  SamplingParameters,
  TurnRecord,
} from '../../shared/dto';
import { effectiveSampling } from '../../shared/conversation-settings';
import type { PromptTemplateStore } from '../core/ports';

export interface TurnSettings {
  sampling: SamplingParameters;
  /** The conversation's instructions as text; null when it has none (or its prompt is gone). */
  instructions: string | null;
  /** The saved prompt the settings name no longer exists (the turn runs without instructions). */
  promptMissing: boolean;
  contextPolicy: ContextPolicy | undefined;
}

/** The instructions of `settings`: own text, a saved prompt's body, or null (missing prompt). */
export function resolveInstructions(
  settings: ConversationSettings,
  prompts: Pick<PromptTemplateStore, 'getPromptTemplate'> | undefined,
): { text: string | null; promptMissing: boolean; promptTitle: string | null } {
  const chosen = settings.systemPrompt;
  if (chosen === undefined) return { text: null, promptMissing: false, promptTitle: null };
  if (chosen.kind === 'text') return { text: chosen.text, promptMissing: false, promptTitle: null };
  const prompt = prompts?.getPromptTemplate(chosen.promptId) ?? null;
  if (prompt === null) return { text: null, promptMissing: true, promptTitle: null };
  return { text: prompt.body, promptMissing: false, promptTitle: prompt.title };
}

export function resolveTurnSettings(
  settings: ConversationSettings,
  modelDefaults: ModelDefaults | undefined,
  prompts: Pick<PromptTemplateStore, 'getPromptTemplate'> | undefined,
): TurnSettings {
  // Instructions and the context policy: the conversation's own, else the model's.
  const chosen =
    settings.systemPrompt === undefined && modelDefaults?.systemPrompt !== undefined
      ? { systemPrompt: modelDefaults.systemPrompt }
      : settings;
  const instructions = resolveInstructions(chosen, prompts);
  const contextPolicy = settings.contextPolicy ?? modelDefaults?.contextPolicy;
  return {
    sampling: effectiveSampling(settings, modelDefaults),
    instructions: instructions.text,
    promptMissing: instructions.promptMissing,
    contextPolicy,
  };
}

export const INSTRUCTIONS_OPEN = '<conversation_instructions>';
export const INSTRUCTIONS_CLOSE = '</conversation_instructions>';

/**
 * The system prompt with the conversation's instructions appended as a delimited section; the
 * main prompt's text comes first, unchanged. The user wrote them, so they are instructions (unlike
 * saved facts or tool output); only the section's own closing tag is escaped inside them.
 */
export function withConversationInstructions(
  systemPrompt: string,
  instructions: string | null,
): string {
  if (instructions === null || instructions.trim() === '') return systemPrompt;
  const body = instructions.trim().replace(/<(\s*\/?\s*conversation_instructions)/gi, '&lt;$1');
  return [
    systemPrompt,
    '',
    `The user set these instructions for this conversation, between ${INSTRUCTIONS_OPEN} and ${INSTRUCTIONS_CLOSE}. Follow them unless they conflict with the rules above.`,
    INSTRUCTIONS_OPEN,
    body,
    INSTRUCTIONS_CLOSE,
  ].join('\n');
}

/** What a conversation's info shows: counts and token totals from its turn records. */
export interface ConversationTotals {
  turns: number;
  /** Model names its turns used, in order of first use. */
  models: string[];
  inputTokens: number;
  outputTokens: number;
  /** Turns whose provider reported no usage (their tokens are not in the totals). */
  turnsWithoutUsage: number;
}

export function conversationTotals(records: readonly TurnRecord[]): ConversationTotals {
  const models: string[] = [];
  let inputTokens = 0;
  let outputTokens = 0;
  let turnsWithoutUsage = 0;
  for (const record of records) {
    if (record.modelName !== null && !models.includes(record.modelName)) {
      models.push(record.modelName);
    }
    if (record.usage === null) turnsWithoutUsage += 1;
    else {
      inputTokens += record.usage.inputTokens;
      outputTokens += record.usage.outputTokens;
    }
  }
  return { turns: records.length, models, inputTokens, outputTokens, turnsWithoutUsage };
}
