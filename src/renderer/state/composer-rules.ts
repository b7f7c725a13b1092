/**
 * Pure rules of the composer's pickers: the model choices (saved models and the model given by
 * AIVORY_* at start-up), what a tool switch stores, and where an inserted prompt goes.
 */
import type { InvokeResponse } from '../../shared/ipc-contract';
import { CUSTOM_PRESET_ID, presetForBaseUrl } from '../../shared/provider-presets';

type ModelList = InvokeResponse<'models.list'>;
/** One tool row of `conversations.tools`. */
export type ConversationTool = InvokeResponse<'conversations.tools'>['tools'][number];

/** One entry of the model picker; `id` null is "the default" (environment, else saved default). */
export interface ModelChoice {
  id: string | null;
  /** The model name shown (labels are the user's own text, shown as typed). */
  label: string;
  /** Which i18n wording applies: the default entry, a saved model, or the saved default. */
  kind: 'automatic' | 'saved';
  /** The provider's model id (what answers record as their model). */
  model: string;
  /** The provider's name (a preset's, else the server's host and port). */
  provider: string;
  /** Takes images; null when not known (the environment model). */
  vision: boolean | null;
  toolMode: 'native' | 'prompt';
  /** Tokens of context; null when not known. */
  contextWindow: number | null;
}

/** A provider's models in the picker, in list order. */
export interface ModelGroup {
  provider: string;
  /** The default entry's group (its heading is translated). */
  automatic: boolean;
  items: ModelChoice[];
}

/** The provider's name for a base URL: a preset's, else its host and port. */
export function providerName(baseUrl: string): string {
  const preset = presetForBaseUrl(baseUrl);
  if (preset.id !== CUSTOM_PRESET_ID) return preset.name;
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/**
 * The choices that match `query` (every word, in the label, the model id or the provider, any
 * case), grouped by provider in first-seen order; the default entry is a group of its own.
 */
export function groupModelChoices(choices: readonly ModelChoice[], query: string): ModelGroup[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  const groups: ModelGroup[] = [];
  for (const choice of choices) {
    const haystack = `${choice.label} ${choice.model} ${choice.provider}`.toLowerCase();
    if (!words.every((word) => haystack.includes(word))) continue;
    const automatic = choice.kind === 'automatic';
    let group = groups.find(
      (item) => item.automatic === automatic && (automatic || item.provider === choice.provider),
    );
    if (!group) {
      group = { provider: choice.provider, automatic, items: [] };
      groups.push(group);
    }
    group.items.push(choice);
  }
  return groups;
}

/** A context size as people write it: 8K (8,192), 128K (128,000 or 131,072), 1M. */
export function contextLabel(tokens: number): string {
  const scaled = (unit: number, binary: number, suffix: string): string => {
    const value = tokens % unit !== 0 && tokens % binary === 0 ? tokens / binary : tokens / unit;
    return `${Number.isInteger(value) ? value : value.toFixed(1).replace(/\.0$/, '')}${suffix}`;
  };
  if (tokens >= 1_000_000) return scaled(1_000_000, 1_048_576, 'M');
  if (tokens >= 1000) return scaled(1000, 1024, 'K');
  return String(tokens);
}

/**
 * The default first (the environment model when one was given, else the saved default model),
 * then every saved model by its label.
 */
export function modelChoices(list: ModelList): ModelChoice[] {
  const savedDefault = list.models.find((model) => model.isDefault) ?? null;
  const environment = list.environmentModel;
  const choices: ModelChoice[] = [];
  if (environment !== null) {
    choices.push({
      id: null,
      label: environment.model,
      kind: 'automatic',
      model: environment.model,
      provider: providerName(environment.baseUrl),
      vision: null,
      toolMode: environment.toolMode,
      contextWindow: null,
    });
  } else if (savedDefault !== null) {
    choices.push({ ...savedChoice(savedDefault), id: null, kind: 'automatic' });
  }
  for (const model of list.models) choices.push(savedChoice(model));
  return choices;
}

function savedChoice(model: ModelList['models'][number]): ModelChoice {
  return {
    id: model.id,
    label: model.label,
    kind: 'saved',
    model: model.model,
    provider: providerName(model.baseUrl),
    vision: model.vision ?? null,
    toolMode: model.toolMode,
    contextWindow: model.contextWindow > 0 ? model.contextWindow : null,
  };
}

/**
 * What checking or unchecking a tool stores for the conversation: null (no switch of its own)
 * when the new state is the model's default anyway, else the explicit on/off.
 */
export function toggleValue(tool: ConversationTool, checked: boolean): boolean | null {
  return checked === tool.defaultOn ? null : checked;
}

/** The composer text after inserting `inserted`: appended on its own paragraph. */
export function insertIntoComposer(current: string, inserted: string): string {
  if (current.trim() === '') return inserted;
  return `${current.replace(/\s+$/, '')}\n\n${inserted}`;
}
