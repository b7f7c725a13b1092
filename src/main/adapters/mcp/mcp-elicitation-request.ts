/**
 * What the client accepts of a server's elicitation (MCP 2025-11-25) and what it sends back: the
 * server's request (`elicitation/create`, or the URL pages of a "URL elicitation required" error)
 * as a plain `McpElicitationRequest` — a form's fields normalised and bounded, the server's text
 * stripped of control and format characters, a URL checked — and an answer sent only when it
 * passes the form's own rules (defaults applied, SEP-1034). A request the client cannot show
 * faithfully is refused with a protocol error, never guessed at. `mcp-elicitation.ts` wires this
 * to the SDK's client.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { checkContent, fieldError } from '../../../shared/mcp-elicitation';
import type {
  McpElicitationAnswer,
  McpElicitationField,
  McpElicitationFieldBase,
  McpElicitationOption,
  McpElicitationRequest,
} from '../../../shared/mcp-elicitation';
import { checkHttpUrl } from '../../../shared/http-url';
import { hasInvisibleCharacters, keepingLines, oneLine } from '../../../shared/untrusted-text';

/** Most fields one form may have. */
export const MAX_ELICITATION_FIELDS = 50;
/** Longest message shown (characters; longer ones are cut with a marker). */
export const MAX_ELICITATION_MESSAGE_CHARS = 2000;
const MAX_TITLE_CHARS = 200;
const MAX_DESCRIPTION_CHARS = 1000;
const MAX_OPTIONS = 100;
const MAX_OPTION_VALUE_CHARS = 500;
const MAX_URL_CHARS = 2048;
const MAX_NAME_CHARS = 100;
const MAX_ELICITATION_ID_CHARS = 200;
/** Most URL elicitations one "URL elicitation required" error (-32042) may ask for. */
export const MAX_REQUIRED_ELICITATIONS = 3;

/**
 * The URL elicitations of a "URL elicitation required" error (-32042) as requests to show, each
 * marked `retry`; a protocol error (its message says why) when there is none, more than
 * MAX_REQUIRED_ELICITATIONS, or one the client cannot show (not URL mode, no id, a bad URL).
 */
export function requiredElicitations(data: unknown): McpElicitationRequest[] {
  const list = asRecord(data).elicitations;
  if (!Array.isArray(list) || list.length === 0) refuse('the error lists no page to open');
  if (list.length > MAX_REQUIRED_ELICITATIONS)
    refuse(`it asks for ${list.length} pages; at most ${MAX_REQUIRED_ELICITATIONS} are shown`);
  return list.map((item) => {
    const record = asRecord(item);
    if (record.mode !== 'url') refuse('a required elicitation is not a URL');
    const request = normaliseElicitation(record);
    if (request.elicitationId === undefined) refuse('a required elicitation has no usable id');
    return { ...request, retry: true };
  });
}

/** The answer as sent: an accepted form only when its content passes every field's rules. */
export function resultFor(
  asked: McpElicitationRequest,
  answer: McpElicitationAnswer,
): ElicitResult {
  if (answer.action !== 'accept') return { action: answer.action };
  if (asked.mode === 'url') return { action: 'accept' };
  const checked = checkContent(asked.fields, answer.content);
  // Nothing unchecked leaves: a wrong answer (a bug, or a tampered window) becomes a decline.
  return checked.ok ? { action: 'accept', content: checked.content } : { action: 'decline' };
}

/** The server's request as plain, bounded data; a protocol error when it cannot be shown. */
export function normaliseElicitation(params: unknown): McpElicitationRequest {
  const record = asRecord(params);
  const message = clean(
    typeof record.message === 'string' ? record.message : '',
    MAX_ELICITATION_MESSAGE_CHARS,
    true,
  );
  if (record.mode === 'url') {
    const url = typeof record.url === 'string' ? record.url : '';
    const id = record.elicitationId;
    const usableId =
      typeof id === 'string' &&
      id !== '' &&
      id.length <= MAX_ELICITATION_ID_CHARS &&
      !hasInvisibleCharacters(id);
    return {
      mode: 'url',
      message,
      fields: [],
      url: checkedUrl(url),
      ...(usableId ? { elicitationId: id } : {}),
    };
  }
  const schema = asRecord(record.requestedSchema);
  const properties = asRecord(schema.properties);
  const names = Object.keys(properties);
  if (names.length > MAX_ELICITATION_FIELDS)
    refuse(`the form has ${names.length} fields; at most ${MAX_ELICITATION_FIELDS} are shown`);
  const required = new Set(
    Array.isArray(schema.required)
      ? schema.required.filter((item): item is string => typeof item === 'string')
      : [],
  );
  const fields = names.map((name) => normaliseField(name, properties[name], required.has(name)));
  return { mode: 'form', message, fields };
}

function normaliseField(name: string, raw: unknown, required: boolean): McpElicitationField {
  if (name.length > MAX_NAME_CHARS || hasInvisibleCharacters(name))
    refuse('a field name is too long or holds control characters');
  const property = asRecord(raw);
  const shown = clean(typeof property.title === 'string' ? property.title : '', MAX_TITLE_CHARS);
  const base = {
    name,
    title: shown === '' ? name : shown,
    description: clean(
      typeof property.description === 'string' ? property.description : '',
      MAX_DESCRIPTION_CHARS,
    ),
    required,
  };
  const field = fieldOf(name, property, base);
  // A default the field itself would refuse is not offered.
  if (field.default !== undefined && fieldError(field, field.default) !== null)
    delete field.default;
  return field;
}

function fieldOf(
  name: string,
  property: Record<string, unknown>,
  base: McpElicitationFieldBase,
): McpElicitationField {
  const type = property.type;
  if (type === 'array') {
    const items = asRecord(property.items);
    const options = optionsOf(items.enum, undefined, items.anyOf ?? items.oneOf);
    if (options === null) refuse(`field "${name}" is a list of something other than choices`);
    return {
      ...base,
      type: 'multi-enum',
      options,
      ...count('minItems', property.minItems),
      ...count('maxItems', property.maxItems),
      ...(Array.isArray(property.default) &&
      property.default.every((item) => typeof item === 'string')
        ? { default: property.default as string[] }
        : {}),
    };
  }
  if (type === 'string') {
    const options = optionsOf(property.enum, property.enumNames, property.oneOf ?? property.anyOf);
    const fallback = typeof property.default === 'string' ? { default: property.default } : {};
    if (options !== null) return { ...base, type: 'enum', options, ...fallback };
    const format = property.format;
    return {
      ...base,
      type: 'string',
      ...(format === 'email' || format === 'uri' || format === 'date' || format === 'date-time'
        ? { format }
        : {}),
      ...count('minLength', property.minLength),
      ...count('maxLength', property.maxLength),
      ...fallback,
    };
  }
  if (type === 'number' || type === 'integer') {
    return {
      ...base,
      type,
      ...finite('minimum', property.minimum),
      ...finite('maximum', property.maximum),
      ...finite('default', property.default),
    };
  }
  if (type === 'boolean') {
    return {
      ...base,
      type: 'boolean',
      ...(typeof property.default === 'boolean' ? { default: property.default } : {}),
    };
  }
  return refuse(`field "${name}" has a type the client cannot show`);
}

/** Choices from `enum` (+ legacy `enumNames`) or `oneOf`/`anyOf` of `{ const, title }`. */
function optionsOf(
  values: unknown,
  names: unknown,
  titled: unknown,
): McpElicitationOption[] | null {
  let options: McpElicitationOption[] | null = null;
  if (Array.isArray(values)) {
    const labels = Array.isArray(names) ? names : [];
    options = values.map((value, index) => {
      const label: unknown = labels[index];
      return option(value, typeof label === 'string' ? label : undefined);
    });
  } else if (Array.isArray(titled)) {
    options = titled.map((entry) => {
      const record = asRecord(entry);
      return option(record.const, typeof record.title === 'string' ? record.title : undefined);
    });
  }
  if (options === null) return null;
  if (options.length === 0 || options.length > MAX_OPTIONS)
    refuse(`a field offers ${options.length} choices (1 to ${MAX_OPTIONS} are shown)`);
  return options;
}

function option(value: unknown, label: string | undefined): McpElicitationOption {
  if (
    typeof value !== 'string' ||
    value.length > MAX_OPTION_VALUE_CHARS ||
    hasInvisibleCharacters(value)
  )
    refuse('a choice is not a plain string');
  const shown = clean(label ?? value, MAX_TITLE_CHARS);
  return { value, label: shown === '' ? value : shown };
}

function checkedUrl(url: string): string {
  if (url.length > MAX_URL_CHARS) refuse('the URL is too long');
  const verdict = checkHttpUrl(url);
  if (!verdict.ok && verdict.problem === 'invalid') return refuse('the URL is not valid');
  if (!verdict.ok && verdict.problem === 'scheme')
    return refuse('only http and https URLs are opened');
  if (!verdict.ok) return refuse('the URL carries credentials');
  return verdict.url.href;
}

/** Untrusted text: hidden characters out (newlines kept in a message), spaces folded, bounded. */
function clean(text: string, max: number, keepNewlines = false): string {
  if (!keepNewlines) return oneLine(text, max);
  const trimmed = keepingLines(text)
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const chars = [...trimmed];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : trimmed;
}

function count(key: string, value: unknown): Record<string, number> {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? { [key]: value } : {};
}

function finite(key: string, value: unknown): Record<string, number> {
  return typeof value === 'number' && Number.isFinite(value) ? { [key]: value } : {};
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function refuse(why: string): never {
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unsupported elicitation request: ${why}`,
  );
}
