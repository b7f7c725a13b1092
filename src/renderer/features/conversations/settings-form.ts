/**
 * The conversation settings dialog and the model editor's defaults as form text, and back: an
 * empty field means "the default" (not sent), anything else must be within the bounds of
 * `shared/conversation-settings.ts`. Pure, so it is unit-tested without a DOM.
 */
import type {
  ContextPolicy,
  ConversationSettings,
  SamplingParameters,
} from '../../../shared/conversation-settings';
import {
  CONTEXT_MESSAGES_RANGE,
  CONTEXT_TOKENS_RANGE,
  MAX_INSTRUCTIONS_BYTES,
  MAX_OUTPUT_TOKENS_RANGE,
  TEMPERATURE_RANGE,
  TOP_P_RANGE,
  utf8Bytes,
} from '../../../shared/conversation-settings';
import type { FieldProblem } from '../settings/form-rules';

/** The three sampling fields as typed. */
export interface SamplingText {
  temperature: string;
  topP: string;
  maxOutputTokens: string;
}

export interface SettingsText extends SamplingText {
  instructions: 'none' | 'text' | 'prompt';
  text: string;
  promptId: string;
  context: ContextPolicy['kind'];
  count: string;
  budget: string;
}

const show = (value: number | undefined): string => (value === undefined ? '' : String(value));

export function samplingText(values: SamplingParameters): SamplingText {
  return {
    temperature: show(values.temperature),
    topP: show(values.topP),
    maxOutputTokens: show(values.maxOutputTokens),
  };
}

export function settingsText(settings: ConversationSettings): SettingsText {
  const chosen = settings.systemPrompt;
  const policy = settings.contextPolicy;
  return {
    ...samplingText(settings),
    instructions: chosen === undefined ? 'none' : chosen.kind,
    text: chosen?.kind === 'text' ? chosen.text : '',
    promptId: chosen?.kind === 'prompt' ? chosen.promptId : '',
    context: policy?.kind ?? 'all',
    count: policy?.kind === 'messages' ? String(policy.count) : '20',
    budget: policy?.kind === 'tokens' ? String(policy.budget) : '8000',
  };
}

/** A decimal in [min, max]; empty is "not set". */
function decimal(
  text: string,
  range: { min: number; max: number },
): { value?: number; problem: FieldProblem | null } {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: null };
  const value = Number(trimmed);
  if (
    !/^\d*\.?\d+$/.test(trimmed) ||
    !Number.isFinite(value) ||
    value < range.min ||
    value > range.max
  ) {
    return { problem: { key: 'form.range', params: { min: range.min, max: range.max } } };
  }
  return { value, problem: null };
}

/** A whole number in [min, max]; empty is "not set" unless `required`. */
function whole(
  text: string,
  range: { min: number; max: number },
  required = false,
): { value?: number; problem: FieldProblem | null } {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: required ? { key: 'form.required' } : null };
  if (!/^\d+$/.test(trimmed)) return { problem: { key: 'form.number' } };
  const value = Number(trimmed);
  if (value < range.min || value > range.max) {
    return { problem: { key: 'form.range', params: { min: range.min, max: range.max } } };
  }
  return { value, problem: null };
}

export type FormResult<T> =
  { ok: true; value: T } | { ok: false; errors: Record<string, FieldProblem | null> };

export function parseSampling(text: SamplingText): FormResult<SamplingParameters> {
  const temperature = decimal(text.temperature, TEMPERATURE_RANGE);
  const topP = decimal(text.topP, TOP_P_RANGE);
  const maxOutputTokens = whole(text.maxOutputTokens, MAX_OUTPUT_TOKENS_RANGE);
  const errors = {
    temperature: temperature.problem,
    topP: topP.problem,
    maxOutputTokens: maxOutputTokens.problem,
  };
  if (Object.values(errors).some((problem) => problem !== null)) return { ok: false, errors };
  return {
    ok: true,
    value: {
      ...(temperature.value === undefined ? {} : { temperature: temperature.value }),
      ...(topP.value === undefined ? {} : { topP: topP.value }),
      ...(maxOutputTokens.value === undefined ? {} : { maxOutputTokens: maxOutputTokens.value }),
    },
  };
}

export function parseSettings(text: SettingsText): FormResult<ConversationSettings> {
  const sampling = parseSampling(text);
  const errors: Record<string, FieldProblem | null> = sampling.ok ? {} : { ...sampling.errors };
  let systemPrompt: ConversationSettings['systemPrompt'];
  if (text.instructions === 'text') {
    if (text.text.trim() === '') errors.text = { key: 'form.required' };
    else if (utf8Bytes(text.text) > MAX_INSTRUCTIONS_BYTES) {
      errors.text = {
        key: 'convSettings.error.tooLong',
        params: { kb: MAX_INSTRUCTIONS_BYTES / 1024 },
      };
    } else systemPrompt = { kind: 'text', text: text.text };
  } else if (text.instructions === 'prompt') {
    if (text.promptId === '') errors.promptId = { key: 'form.required' };
    else systemPrompt = { kind: 'prompt', promptId: text.promptId };
  }
  let contextPolicy: ContextPolicy | undefined;
  if (text.context === 'messages') {
    const count = whole(text.count, CONTEXT_MESSAGES_RANGE, true);
    if (count.problem) errors.count = count.problem;
    else if (count.value !== undefined) contextPolicy = { kind: 'messages', count: count.value };
  } else if (text.context === 'tokens') {
    const budget = whole(text.budget, CONTEXT_TOKENS_RANGE, true);
    if (budget.problem) errors.budget = budget.problem;
    else if (budget.value !== undefined) contextPolicy = { kind: 'tokens', budget: budget.value };
  }
  if (!sampling.ok || Object.values(errors).some((problem) => problem !== null)) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    value: {
      ...(systemPrompt === undefined ? {} : { systemPrompt }),
      ...sampling.value,
      ...(contextPolicy === undefined ? {} : { contextPolicy }),
    },
  };
}
