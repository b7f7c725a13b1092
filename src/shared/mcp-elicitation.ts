/**
 * MCP elicitation as plain data (`elicitation/create`, MCP 2025-11-25): the normalised form a
 * server asks the user to fill, or the URL it asks the user to open, and the user's answer. The
 * adapter builds these from the server's untrusted request (bounded, control characters gone);
 * the CLI and the renderer show them and check each value with `fieldError`, the adapter checks
 * the whole answer again with `checkContent` before anything is sent. No I/O; shared by the main
 * process and the renderer.
 */

/** One choice of an enum field: the value sent, and the label shown. */
export interface McpElicitationOption {
  value: string;
  label: string;
}

export interface McpElicitationFieldBase {
  /** The property name (sent back as the key). */
  name: string;
  /** The server's title, else the name. Untrusted text. */
  title: string;
  /** Untrusted text; '' when none. */
  description: string;
  required: boolean;
}

export type McpElicitationField = McpElicitationFieldBase &
  (
    | {
        type: 'string';
        format?: 'email' | 'uri' | 'date' | 'date-time';
        minLength?: number;
        maxLength?: number;
        default?: string;
      }
    | { type: 'number' | 'integer'; minimum?: number; maximum?: number; default?: number }
    | { type: 'boolean'; default?: boolean }
    | { type: 'enum'; options: McpElicitationOption[]; default?: string }
    | {
        type: 'multi-enum';
        options: McpElicitationOption[];
        minItems?: number;
        maxItems?: number;
        default?: string[];
      }
  );

/** A value the user can give one field. */
export type McpElicitationValue = string | number | boolean | string[];

/** What a server asks, as the service layer hands it to the CLI or the desktop. */
export interface McpElicitationRequest {
  /** `form`: fill `fields`; `url`: consent to open `url` (never opened without it). */
  mode: 'form' | 'url';
  /** The server's message: untrusted plain text, bounded, control characters removed. */
  message: string;
  /** Form mode only (empty in URL mode). */
  fields: McpElicitationField[];
  /** URL mode only: an http(s) URL. */
  url?: string;
  /** URL mode: the server's id for it (`notifications/elicitation/complete` names it). */
  elicitationId?: string;
  /**
   * URL mode: the server refused a call until the user has been to the page (error -32042).
   * Accepting means "I have finished there"; the call is then tried once more.
   */
  retry?: boolean;
}

/**
 * The abort reason of a question's signal when the server said the URL elicitation is complete
 * (`notifications/elicitation/complete`): the asker closes it as done, not as canceled.
 */
export class ElicitationCompleted extends Error {
  constructor() {
    super('The service says this step is complete');
    this.name = 'ElicitationCompleted';
  }
}

/** Whether `signal` aborted because the server completed the elicitation. */
export function completedBy(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof ElicitationCompleted;
}

/** The user's answer: accept (with the form's content), decline, or cancel (dismissed). */
export type McpElicitationAnswer =
  | { action: 'accept'; content: Record<string, McpElicitationValue> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** Why a value is refused; the CLI and the renderer word it (en, zh). */
export type McpElicitationProblem =
  | { kind: 'required' }
  | { kind: 'type' }
  | { kind: 'email' }
  | { kind: 'uri' }
  | { kind: 'date' }
  | { kind: 'date-time' }
  | { kind: 'min-length'; limit: number }
  | { kind: 'max-length'; limit: number }
  | { kind: 'minimum'; limit: number }
  | { kind: 'maximum'; limit: number }
  | { kind: 'integer' }
  | { kind: 'choice' }
  | { kind: 'min-items'; limit: number }
  | { kind: 'max-items'; limit: number };

/** Longest string the user may send in one field (characters), whatever the server allows. */
export const MAX_ELICITATION_STRING_CHARS = 10_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/i;

/** The problem with `value` for `field` (undefined: no value given), or null when it is fine. */
export function fieldError(
  field: McpElicitationField,
  value: McpElicitationValue | undefined,
): McpElicitationProblem | null {
  if (value === undefined || value === '') return field.required ? { kind: 'required' } : null;
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return { kind: 'type' };
      const length = [...value].length;
      const max = Math.min(field.maxLength ?? Infinity, MAX_ELICITATION_STRING_CHARS);
      if (field.minLength !== undefined && length < field.minLength)
        return { kind: 'min-length', limit: field.minLength };
      if (length > max) return { kind: 'max-length', limit: max };
      if (field.format === 'email' && !EMAIL.test(value)) return { kind: 'email' };
      if (field.format === 'uri' && !isUri(value)) return { kind: 'uri' };
      if (field.format === 'date' && !(DATE.test(value) && !Number.isNaN(Date.parse(value))))
        return { kind: 'date' };
      if (
        field.format === 'date-time' &&
        !(DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))
      )
        return { kind: 'date-time' };
      return null;
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return { kind: 'type' };
      if (field.type === 'integer' && !Number.isInteger(value)) return { kind: 'integer' };
      if (field.minimum !== undefined && value < field.minimum)
        return { kind: 'minimum', limit: field.minimum };
      if (field.maximum !== undefined && value > field.maximum)
        return { kind: 'maximum', limit: field.maximum };
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : { kind: 'type' };
    case 'enum':
      if (typeof value !== 'string') return { kind: 'type' };
      return field.options.some((option) => option.value === value) ? null : { kind: 'choice' };
    case 'multi-enum': {
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
        return { kind: 'type' };
      if (value.some((item) => !field.options.some((option) => option.value === item)))
        return { kind: 'choice' };
      if (new Set(value).size !== value.length) return { kind: 'choice' };
      if (value.length === 0 && field.required) return { kind: 'required' };
      if (field.minItems !== undefined && value.length < field.minItems)
        return { kind: 'min-items', limit: field.minItems };
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return { kind: 'max-items', limit: field.maxItems };
      return null;
    }
  }
}

function isUri(value: string): boolean {
  try {
    return new URL(value).protocol !== '';
  } catch {
    return false;
  }
}

/** A field's default, when the server gave one (SEP-1034: applied to an accepted answer). */
export function fieldDefault(field: McpElicitationField): McpElicitationValue | undefined {
  return field.default;
}

/** `content` with each missing field that has a default filled in (a new object). */
export function withDefaults(
  fields: readonly McpElicitationField[],
  content: Readonly<Record<string, McpElicitationValue>>,
): Record<string, McpElicitationValue> {
  const filled: Record<string, McpElicitationValue> = {};
  for (const field of fields) {
    const value = Object.hasOwn(content, field.name) ? content[field.name] : undefined;
    const chosen = value === undefined ? fieldDefault(field) : value;
    if (chosen !== undefined) filled[field.name] = chosen;
  }
  return filled;
}

/**
 * The accepted content as it may be sent: defaults applied, only the form's fields, every value
 * checked; or the first field that is wrong and why.
 */
export function checkContent(
  fields: readonly McpElicitationField[],
  content: Readonly<Record<string, McpElicitationValue>>,
):
  | { ok: true; content: Record<string, McpElicitationValue> }
  | { ok: false; field: string; problem: McpElicitationProblem } {
  const filled = withDefaults(fields, content);
  for (const field of fields) {
    const problem = fieldError(field, filled[field.name]);
    if (problem !== null) return { ok: false, field: field.name, problem };
  }
  return { ok: true, content: filled };
}

/** The problem in English (the CLI, logs); the renderer has its own words in en and zh. */
export function describeProblem(problem: McpElicitationProblem): string {
  switch (problem.kind) {
    case 'required':
      return 'a value is required';
    case 'type':
      return 'not a value of the right type';
    case 'email':
      return 'not an email address';
    case 'uri':
      return 'not a URI';
    case 'date':
      return 'not a date (YYYY-MM-DD)';
    case 'date-time':
      return 'not a date and time (YYYY-MM-DDTHH:MM:SSZ)';
    case 'min-length':
      return `at least ${problem.limit} characters`;
    case 'max-length':
      return `at most ${problem.limit} characters`;
    case 'minimum':
      return `at least ${problem.limit}`;
    case 'maximum':
      return `at most ${problem.limit}`;
    case 'integer':
      return 'a whole number';
    case 'choice':
      return 'not one of the choices';
    case 'min-items':
      return `choose at least ${problem.limit}`;
    case 'max-items':
      return `choose at most ${problem.limit}`;
  }
}
