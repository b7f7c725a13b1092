/**
 * Makes an input schema from an MCP server safe to compile: a bounded copy (size, depth, number
 * of schema nodes) without the keywords that could make checking the model's arguments slow or
 * asynchronous — `pattern` and `patternProperties` (regular expressions chosen by the server can
 * backtrack catastrophically), `format`, `uniqueItems` (quadratic), `$async` — and without
 * identifiers (`$schema`, `$id`, `id`) that would make Ajv look for other documents. Dropping a
 * keyword only makes the check more lenient; the server still checks its own input.
 *
 * Returns null when the schema is too large or not an object schema; the caller then checks
 * only that the arguments are an object.
 */

/** Serialised size of a schema worth compiling. */
export const MAX_UNTRUSTED_SCHEMA_CHARS = 32 * 1024;
/** Nesting of schema objects. */
const MAX_DEPTH = 24;
/**
 * Schema objects in one schema. Ajv generates about 2.5 KB of code per object and its compile
 * time grows faster than linearly (about 0.1 s at 300 on a busy machine, seconds at 1,600);
 * tool schemas seen in practice have a few dozen.
 */
export const MAX_UNTRUSTED_SCHEMA_NODES = 300;

const DROPPED = new Set([
  'pattern',
  'patternProperties',
  'format',
  'uniqueItems',
  '$async',
  '$schema',
  '$id',
  'id',
  '$data',
]);
/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = new Set([
  'items',
  'additionalItems',
  'contains',
  'propertyNames',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
/** Keywords whose value is an array of schemas. */
const SCHEMA_ARRAY_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set([
  'properties',
  'definitions',
  '$defs',
  'dependentSchemas',
  'dependencies',
]);

class TooLarge extends Error {}

export function sanitizeUntrustedSchema(schema: unknown): Record<string, unknown> | null {
  let text: string | undefined;
  try {
    text = JSON.stringify(schema);
  } catch {
    return null;
  }
  if (text === undefined || text.length > MAX_UNTRUSTED_SCHEMA_CHARS) return null;
  // Work on a parsed copy: plain data only, no getters or prototypes from the caller.
  const copy: unknown = JSON.parse(text);
  if (!isObject(copy)) return null;
  const budget = { nodes: 0 };
  try {
    return sanitizeNode(copy, 0, budget);
  } catch (error) {
    if (error instanceof TooLarge) return null;
    throw error;
  }
}

function sanitizeNode(
  node: Record<string, unknown>,
  depth: number,
  budget: { nodes: number },
): Record<string, unknown> {
  budget.nodes += 1;
  if (depth > MAX_DEPTH || budget.nodes > MAX_UNTRUSTED_SCHEMA_NODES) throw new TooLarge();
  // Built with fromEntries: a "__proto__" key stays a plain property.
  const entries: [string, unknown][] = [];
  for (const [keyword, value] of Object.entries(node)) {
    if (DROPPED.has(keyword)) continue;
    if (SCHEMA_ARRAY_KEYWORDS.has(keyword) && Array.isArray(value)) {
      entries.push([keyword, value.map((item) => sanitizeValue(item, depth + 1, budget))]);
    } else if (SCHEMA_KEYWORDS.has(keyword)) {
      entries.push([keyword, sanitizeValue(value, depth + 1, budget)]);
    } else if (SCHEMA_MAP_KEYWORDS.has(keyword) && isObject(value)) {
      const schemas = Object.entries(value).map(([name, item]): [string, unknown] => [
        name,
        sanitizeValue(item, depth + 1, budget),
      ]);
      entries.push([keyword, Object.fromEntries(schemas)]);
    } else {
      entries.push([keyword, value]);
    }
  }
  return Object.fromEntries(entries);
}

/** A schema position: an object schema is sanitised; booleans and other values pass through. */
function sanitizeValue(value: unknown, depth: number, budget: { nodes: number }): unknown {
  return isObject(value) ? sanitizeNode(value, depth, budget) : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
