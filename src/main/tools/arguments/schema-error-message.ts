/**
 * Turns JSON Schema validation errors (Ajv's, compiled with `verbose: true`) into one short
 * message for the model: which argument, what was expected, e.g. `"top_k" must be an integer
 * from 1 to 10` or `"queries" has 6 items; at most 5 are allowed`. The expectation is read from
 * the argument's own schema, so a missing, mistyped or out-of-range value gets the same sentence.
 *
 * Trusted schemas (the built-in tools') may carry two annotations: `expected` (the phrase after
 * "must be") and `messages` (a whole message per keyword). Untrusted schemas (MCP servers') are
 * read for types, enums and limits only, and every piece taken from them is cut short.
 */
import type { ErrorObject } from 'ajv';
import { revealInvisibleCharacters } from '../../../shared/untrusted-text';

/** At most this many distinct problems are listed; the rest are counted. */
const MAX_LISTED_PROBLEMS = 3;
/** Whole message bound. */
export const MAX_SCHEMA_MESSAGE_CHARS = 600;
/** An argument path echoed back, e.g. `"items[3].name"`. */
const MAX_PATH_CHARS = 80;
/** Enum values listed before "…". */
const MAX_LISTED_VALUES = 8;
/** One enum value or annotation echoed back. */
const MAX_VALUE_CHARS = 60;

export interface MessageOptions {
  /** Whether `expected` / `messages` annotations in the schema may be used. */
  trusted: boolean;
}

type SchemaObject = Record<string, unknown>;

/** The expectation when a schema says nothing about the value's type. */
const UNKNOWN = 'a valid value';

/** The message for `errors` (never empty when there is at least one error). */
export function schemaErrorMessage(
  errors: readonly ErrorObject[],
  options: MessageOptions,
): string {
  const problems: string[] = [];
  for (const error of withoutBranchDetails(errors)) {
    const problem = describe(error, options);
    if (!problems.includes(problem)) problems.push(problem);
  }
  if (problems.length === 0) return "the arguments do not match the tool's input schema";
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
  const more = problems.length - listed.length;
  const text = listed.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
  return clip(text, MAX_SCHEMA_MESSAGE_CHARS);
}

/** Errors under a failed anyOf/oneOf are the branches' own; the model needs the one summary. */
function withoutBranchDetails(errors: readonly ErrorObject[]): ErrorObject[] {
  const branches = errors
    .filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf')
    .map((error) => error.schemaPath);
  return errors.filter(
    (error) =>
      !branches.some(
        (prefix) => error.schemaPath !== prefix && error.schemaPath.startsWith(`${prefix}/`),
      ),
  );
}

function describe(error: ErrorObject, options: MessageOptions): string {
  const parent = asSchema(error.parentSchema);
  const params = asSchema(error.params);
  if (error.keyword === 'required') {
    const missing = String(params.missingProperty ?? '');
    const field = fieldName(joinPointer(error.instancePath, missing));
    const own = asSchema(asSchema(parent.properties)[missing]);
    const expected = expectation(own, options);
    return (
      override(own, 'required', options) ??
      (expected === UNKNOWN ? `${field} is required` : `${field} must be ${expected}`)
    );
  }
  const field = fieldName(error.instancePath);
  const custom = override(parent, error.keyword, options);
  if (custom !== undefined) return custom;
  const limit = Number(params.limit);
  switch (error.keyword) {
    case 'type':
      return error.instancePath === ''
        ? `expected ${expectation(parent, options)}`
        : `${field} must be ${expectation(parent, options)}`;
    case 'enum':
    case 'const':
    case 'nonBlank':
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'multipleOf':
      return `${field} must be ${expectation(parent, options)}`;
    case 'minLength':
      return limit <= 1
        ? `${field} must be ${expectation(parent, options)}`
        : `${field} is shorter than ${limit} characters`;
    case 'maxLength':
      return `${field} is longer than ${limit} characters`;
    case 'maxItems':
      return `${field} has ${countOf(error.data)} items; at most ${limit} are allowed`;
    case 'minItems':
      return `${field} must have at least ${limit} ${limit === 1 ? 'item' : 'items'}`;
    case 'uniqueItems':
      return `${field} must not repeat items`;
    case 'maxProperties':
      return `${field} has more than ${limit} properties`;
    case 'minProperties':
      return `${field} must have at least ${limit} ${limit === 1 ? 'property' : 'properties'}`;
    case 'additionalProperties': {
      const extra = quote(String(params.additionalProperty ?? ''));
      return error.instancePath === ''
        ? `unknown argument ${extra}`
        : `${field} has an unknown property ${extra}`;
    }
    case 'anyOf':
      return `${field} does not match any of the allowed forms`;
    case 'oneOf':
      return `${field} must match exactly one of the allowed forms`;
    default:
      return `${field} ${clip(error.message ?? 'is invalid', MAX_VALUE_CHARS * 2)}`;
  }
}

/** What a value of `schema` is, as the end of "must be …". */
export function expectation(schema: SchemaObject, options: MessageOptions): string {
  if (options.trusted && typeof schema.expected === 'string') return schema.expected;
  if (Array.isArray(schema.enum)) return listValues(schema.enum);
  if ('const' in schema) return literal(schema.const);
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (type): type is string => typeof type === 'string',
  );
  if (types.length === 0) return UNKNOWN;
  return types.map((type) => describeType(type, schema)).join(' or ');
}

function describeType(type: string, schema: SchemaObject): string {
  switch (type) {
    case 'string':
      return schema.nonBlank === true || Number(schema.minLength) >= 1
        ? 'a non-empty string'
        : 'a string';
    case 'integer':
      return `an integer${range(schema)}`;
    case 'number':
      return `a number${range(schema)}`;
    case 'boolean':
      return 'true or false';
    case 'array': {
      const itemType = asSchema(schema.items).type;
      const noun = typeof itemType === 'string' ? pluralNoun(itemType) : null;
      return noun === null ? 'an array' : `an array of ${noun}`;
    }
    case 'object':
      return 'an object';
    case 'null':
      return 'null';
    default:
      return `of type ${clip(type, MAX_VALUE_CHARS)}`;
  }
}

function range(schema: SchemaObject): string {
  const min = finite(schema.minimum);
  const max = finite(schema.maximum);
  const above = finite(schema.exclusiveMinimum);
  const below = finite(schema.exclusiveMaximum);
  const parts: string[] = [];
  if (min !== null && max !== null) parts.push(`from ${min} to ${max}`);
  else if (min !== null) parts.push(`of at least ${min}`);
  else if (max !== null) parts.push(`of at most ${max}`);
  if (above !== null) parts.push(`greater than ${above}`);
  if (below !== null) parts.push(`less than ${below}`);
  const step = finite(schema.multipleOf);
  if (step !== null) parts.push(`that is a multiple of ${step}`);
  return parts.length === 0 ? '' : ` ${parts.join(', ')}`;
}

function pluralNoun(type: string): string | null {
  const nouns: Record<string, string> = {
    string: 'strings',
    integer: 'integers',
    number: 'numbers',
    boolean: 'booleans',
    object: 'objects',
    array: 'arrays',
  };
  return nouns[type] ?? null;
}

/** A trusted schema's own message for `keyword`. */
function override(schema: SchemaObject, keyword: string, options: MessageOptions) {
  if (!options.trusted) return undefined;
  const message = asSchema(schema.messages)[keyword];
  return typeof message === 'string' ? message : undefined;
}

function listValues(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED_VALUES).map(literal);
  if (values.length > MAX_LISTED_VALUES) {
    return `one of ${shown.join(', ')}, … (${values.length} values)`;
  }
  if (shown.length <= 1) return shown[0] ?? 'a listed value';
  return `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

function literal(value: unknown): string {
  return clip(JSON.stringify(value) ?? String(value), MAX_VALUE_CHARS);
}

/** `/queries/1` → `"queries[1]"`; the root is "the arguments". */
function fieldName(pointer: string): string {
  if (pointer === '') return 'the arguments';
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  }
  return quote(path);
}

function joinPointer(base: string, property: string): string {
  return `${base}/${property.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/**
 * A name from the arguments (the model's) or the schema (a server's) in quotes: quotes and
 * backslashes as "_", hidden characters written out (`\u{202e}`) by the one list of them, so the
 * model sees what it sent.
 */
function quote(text: string): string {
  const safe = revealInvisibleCharacters(text.replace(/["\\]/g, '_'));
  return `"${clip(safe, MAX_PATH_CHARS)}"`;
}

function countOf(data: unknown): number | string {
  return Array.isArray(data) ? data.length : 'too many';
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function asSchema(value: unknown): SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as SchemaObject)
    : {};
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
