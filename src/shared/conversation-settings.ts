/**
 * A conversation's own instructions and parameters, a model's defaults for the same parameters,
 * and their bounds. Plain data and pure checks (no zod: the renderer bundle uses the limits too);
 * the contract's schemas are in `ipc/conversation-settings-methods.ts`.
 */

/** Which earlier messages a turn replays (after that, the model's context window still trims). */
export type ContextPolicy =
  | { kind: 'all' }
  /** Only the last `count` earlier messages. */
  | { kind: 'messages'; count: number }
  /** Earlier messages, newest first, while their estimated tokens fit `budget`. */
  | { kind: 'tokens'; budget: number };

/** Sampling parameters sent with each request; an absent one is not sent (the server decides). */
export interface SamplingParameters {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
}

/** The conversation's instructions: its own text, or a saved prompt (library) by id. */
export type ConversationInstructions =
  { kind: 'text'; text: string } | { kind: 'prompt'; promptId: string };

/** A conversation's settings; every field absent means the model's default (or none). */
export interface ConversationSettings extends SamplingParameters {
  systemPrompt?: ConversationInstructions;
  /** Absent: every earlier message (within the context window). */
  contextPolicy?: ContextPolicy;
}

/**
 * A model's defaults for its conversations, the same fields (the model editor, `aivory models add
 * --temperature … --system … --context …`): a conversation's own value wins field by field.
 */
export type ModelDefaults = ConversationSettings;

export const TEMPERATURE_RANGE = { min: 0, max: 2 } as const;
export const TOP_P_RANGE = { min: 0, max: 1 } as const;
export const MAX_OUTPUT_TOKENS_RANGE = { min: 1, max: 1_000_000 } as const;
/** A conversation's own instructions: at most 32 KB of UTF-8. */
export const MAX_INSTRUCTIONS_BYTES = 32 * 1024;
export const CONTEXT_MESSAGES_RANGE = { min: 1, max: 1000 } as const;
export const CONTEXT_TOKENS_RANGE = { min: 256, max: 10_000_000 } as const;

/** UTF-8 length without Buffer or TextEncoder assumptions (the renderer uses it too). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * Why `value` is not a valid value of `field`, or null when it is. Messages name the field and the
 * bound, e.g. `temperature must be a number from 0 to 2`.
 */
export function parameterProblem(
  field: 'temperature' | 'topP' | 'maxOutputTokens',
  value: number,
): string | null {
  if (field === 'maxOutputTokens') {
    const { min, max } = MAX_OUTPUT_TOKENS_RANGE;
    return Number.isInteger(value) && value >= min && value <= max
      ? null
      : `maxOutputTokens must be a whole number from ${min} to ${max.toLocaleString('en-US')}`;
  }
  const { min, max } = field === 'temperature' ? TEMPERATURE_RANGE : TOP_P_RANGE;
  return Number.isFinite(value) && value >= min && value <= max
    ? null
    : `${field} must be a number from ${min} to ${max}`;
}

/** Why a context policy is out of bounds, or null. */
export function contextPolicyProblem(policy: ContextPolicy): string | null {
  if (policy.kind === 'all') return null;
  if (policy.kind === 'messages') {
    const { min, max } = CONTEXT_MESSAGES_RANGE;
    return Number.isInteger(policy.count) && policy.count >= min && policy.count <= max
      ? null
      : `contextPolicy.count must be a whole number from ${min} to ${max}`;
  }
  const { min, max } = CONTEXT_TOKENS_RANGE;
  return Number.isInteger(policy.budget) && policy.budget >= min && policy.budget <= max
    ? null
    : `contextPolicy.budget must be a whole number from ${min} to ${max.toLocaleString('en-US')}`;
}

/** The sampling parameters of a turn: the conversation's own over the model's defaults. */
export function effectiveSampling(
  conversation: SamplingParameters,
  model: ModelDefaults | undefined,
): SamplingParameters {
  const pick = (field: keyof SamplingParameters): number | undefined =>
    conversation[field] ?? model?.[field];
  const temperature = pick('temperature');
  const topP = pick('topP');
  const maxOutputTokens = pick('maxOutputTokens');
  return {
    ...(temperature === undefined ? {} : { temperature }),
    ...(topP === undefined ? {} : { topP }),
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
  };
}

/** `last:20`, `tokens:4000` or `all`: the CLI's and the info line's spelling of a policy. */
export function formatContextPolicy(policy: ContextPolicy | undefined): string {
  if (policy === undefined || policy.kind === 'all') return 'all';
  return policy.kind === 'messages' ? `last:${policy.count}` : `tokens:${policy.budget}`;
}

/** Parses `all`, `last:N` or `tokens:N`; null when the text is neither (bounds not checked). */
export function parseContextPolicy(text: string): ContextPolicy | null {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'all') return { kind: 'all' };
  const match = /^(last|tokens):(\d{1,9})$/.exec(trimmed);
  if (!match) return null;
  const amount = Number(match[2]);
  return match[1] === 'last'
    ? { kind: 'messages', count: amount }
    : { kind: 'tokens', budget: amount };
}
