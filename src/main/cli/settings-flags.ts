/**
 * The command-line spelling of a conversation's settings and a model's defaults:
 * `--system TEXT | --system-prompt NAME_OR_ID | --clear-system`, `--temperature X`, `--top-p X`,
 * `--max-tokens N` (each also `default`, which removes the value) and `--context all|last:N|tokens:N`;
 * and how `aivory conversations show` prints them with the conversation's totals.
 */
import type {
  ConversationSettings,
  PromptTemplate,
  SamplingParameters,
  TurnRecord,
} from '../../shared/dto';
import {
  contextPolicyProblem,
  formatContextPolicy,
  parameterProblem,
  parseContextPolicy,
} from '../../shared/conversation-settings';
import { conversationSettingsSchema } from '../../shared/ipc/conversation-settings-schema';
import { AivoryError } from '../../shared/errors';
import type { PromptTemplateStore } from '../core/ports';
import { conversationTotals, resolveInstructions } from '../services/conversation-settings';
import { usageError } from './cli-errors';

/** parseArgs options for the sampling flags. */
export const SAMPLING_OPTIONS = {
  temperature: { type: 'string' },
  'top-p': { type: 'string' },
  'max-tokens': { type: 'string' },
} as const;

/** parseArgs options of `aivory conversations set`. */
export const CONVERSATION_SETTINGS_OPTIONS = {
  ...SAMPLING_OPTIONS,
  system: { type: 'string' },
  'system-prompt': { type: 'string' },
  'clear-system': { type: 'boolean', default: false },
  context: { type: 'string' },
} as const;

export interface SamplingFlags {
  temperature?: string;
  'top-p'?: string;
  'max-tokens'?: string;
}

export interface ConversationSettingsFlags extends SamplingFlags {
  system?: string;
  'system-prompt'?: string;
  'clear-system'?: boolean;
  context?: string;
}

const SAMPLING_FLAGS = [
  ['temperature', 'temperature'],
  ['top-p', 'topP'],
  ['max-tokens', 'maxOutputTokens'],
] as const;

/** Whether any sampling flag was given. */
export function hasSamplingFlags(flags: SamplingFlags): boolean {
  return SAMPLING_FLAGS.some(([flag]) => flags[flag] !== undefined);
}

/** Whether any settings flag was given (sampling, instructions or context). */
export function hasSettingsFlags(flags: ConversationSettingsFlags): boolean {
  return (
    hasSamplingFlags(flags) ||
    flags.system !== undefined ||
    flags['system-prompt'] !== undefined ||
    flags['clear-system'] === true ||
    flags.context !== undefined
  );
}

/** `current` with the sampling flags applied: a number sets, `default` removes. */
export function applySamplingFlags<T extends SamplingParameters>(
  current: T,
  flags: SamplingFlags,
): T {
  const next: T = { ...current };
  for (const [flag, field] of SAMPLING_FLAGS) {
    const text = flags[flag]?.trim();
    if (text === undefined) continue;
    if (text.toLowerCase() === 'default') {
      delete next[field];
      continue;
    }
    const value = text === '' ? Number.NaN : Number(text);
    const problem = parameterProblem(field, value);
    if (problem !== null)
      throw usageError(`--${flag} ${text}: ${problem.replace(/^\w+ /, '')} (or "default").`);
    next[field] = value;
  }
  return next;
}

/** The conversation's settings after the flags; a saved prompt is found by id or exact title. */
export function applyConversationSettingsFlags(
  current: ConversationSettings,
  flags: ConversationSettingsFlags,
  prompts: Pick<PromptTemplateStore, 'listPromptTemplates'>,
): ConversationSettings {
  const systemChoices = [
    flags.system !== undefined,
    flags['system-prompt'] !== undefined,
    flags['clear-system'] === true,
  ].filter(Boolean).length;
  if (systemChoices > 1) {
    throw usageError('Give one of --system, --system-prompt and --clear-system.');
  }
  const next: ConversationSettings = applySamplingFlags(current, flags);
  if (flags['clear-system']) delete next.systemPrompt;
  if (flags.system !== undefined) next.systemPrompt = { kind: 'text', text: flags.system };
  if (flags['system-prompt'] !== undefined) {
    const prompt = findPrompt(prompts.listPromptTemplates(), flags['system-prompt']);
    next.systemPrompt = { kind: 'prompt', promptId: prompt.id };
  }
  if (flags.context !== undefined) {
    const policy = parseContextPolicy(flags.context);
    if (policy === null) throw usageError('--context must be all, last:N or tokens:N.');
    const problem = contextPolicyProblem(policy);
    if (problem !== null) throw usageError(`--context ${flags.context}: ${problem}.`);
    if (policy.kind === 'all') delete next.contextPolicy;
    else next.contextPolicy = policy;
  }
  // The same check as the contract's (32 KB of instructions, no blank text).
  const checked = conversationSettingsSchema.safeParse(next);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw usageError(
      `Invalid settings: ${issue ? `${issue.path.join('.')} ${issue.message}` : 'refused'}.`,
    );
  }
  return checked.data;
}

function findPrompt(prompts: readonly PromptTemplate[], nameOrId: string): PromptTemplate {
  const wanted = nameOrId.trim();
  const match =
    prompts.find((prompt) => prompt.id === wanted) ??
    prompts.find((prompt) => prompt.title === wanted) ??
    prompts.find((prompt) => prompt.title.toLowerCase() === wanted.toLowerCase());
  if (!match) {
    throw new AivoryError(
      'not-found',
      `No saved prompt named "${wanted}" (aivory prompts list shows them).`,
    );
  }
  return match;
}

const show = (value: number | undefined, fallback: number | undefined): string =>
  value !== undefined
    ? String(value)
    : fallback !== undefined
      ? `${fallback} (model default)`
      : 'default (not sent)';

/** Every setting, with what an unset one falls back to (`aivory conversations set`). */
export function describeConversationSettings(
  settings: ConversationSettings,
  modelDefaults: ConversationSettings | undefined,
  prompts: Pick<PromptTemplateStore, 'getPromptTemplate'>,
): string {
  const modelInstructions =
    settings.systemPrompt === undefined && modelDefaults?.systemPrompt !== undefined
      ? `${describeInstructions({ systemPrompt: modelDefaults.systemPrompt }, prompts)} (model default)`
      : null;
  const modelContext =
    settings.contextPolicy === undefined && modelDefaults?.contextPolicy !== undefined
      ? `${formatContextPolicy(modelDefaults.contextPolicy)} (model default)`
      : null;
  return `${[
    `system prompt: ${modelInstructions ?? describeInstructions(settings, prompts)}`,
    `temperature: ${show(settings.temperature, modelDefaults?.temperature)}`,
    `top_p: ${show(settings.topP, modelDefaults?.topP)}`,
    `max tokens: ${show(settings.maxOutputTokens, modelDefaults?.maxOutputTokens)}`,
    `context: ${modelContext ?? formatContextPolicy(settings.contextPolicy)}`,
  ].join('\n')}\n`;
}

/**
 * The lines `aivory conversations show` prints under the title: the conversation's own settings
 * (only those set, on one line) and its totals from the turn records.
 */
export function describeConversationSummary(
  settings: ConversationSettings,
  prompts: Pick<PromptTemplateStore, 'getPromptTemplate'>,
  records: readonly TurnRecord[],
): string {
  const own = [
    settings.systemPrompt === undefined
      ? null
      : `system prompt: ${describeInstructions(settings, prompts)}`,
    settings.temperature === undefined ? null : `temperature ${settings.temperature}`,
    settings.topP === undefined ? null : `top_p ${settings.topP}`,
    settings.maxOutputTokens === undefined ? null : `max tokens ${settings.maxOutputTokens}`,
    settings.contextPolicy === undefined
      ? null
      : `context ${formatContextPolicy(settings.contextPolicy)}`,
  ].filter((part) => part !== null);
  const totals = conversationTotals(records);
  const unreported =
    totals.turnsWithoutUsage > 0 ? ` (${totals.turnsWithoutUsage} unreported)` : '';
  const lines = [
    ...(own.length === 0 ? [] : [`settings: ${own.join('; ')}`]),
    `turns: ${totals.turns} · models: ${totals.models.length === 0 ? '-' : totals.models.join(', ')} · tokens: ${totals.inputTokens} in, ${totals.outputTokens} out${unreported}`,
  ];
  return lines.map((line) => `  ${line}\n`).join('');
}

function describeInstructions(
  settings: ConversationSettings,
  prompts: Pick<PromptTemplateStore, 'getPromptTemplate'>,
): string {
  const chosen = settings.systemPrompt;
  if (chosen === undefined) return 'none';
  if (chosen.kind === 'text')
    return `own text (${chosen.text.length} characters): ${oneLine(chosen.text)}`;
  const resolved = resolveInstructions(settings, prompts);
  return resolved.promptMissing
    ? `saved prompt ${chosen.promptId}, deleted: turns run without instructions`
    : `saved prompt "${resolved.promptTitle ?? ''}" (${chosen.promptId})`;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
