/**
 * Checks tool arguments against JSON Schemas with Ajv. The only Ajv user; tools get an
 * `ArgumentCheck` (arguments → a message for the model, or null) and never see Ajv.
 *
 * - Built-in tools: `builtInArgumentCheck(seedSchemaJson, refinements)` checks the seed's schema
 *   verbatim plus the tool's refinements (non-blank strings, length limits, a tighter range),
 *   which may only add keywords, never change the seed's. `null` for an optional top-level
 *   argument counts as absent (models often send it). Compiled once, on first use.
 * - MCP tools: `untrustedArgumentCheck(schema)` (see `untrusted-schema.ts` for the bounds).
 */
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { schemaErrorMessage } from './schema-error-message';
import { sanitizeUntrustedSchema } from './untrusted-schema';

/** Returns a message saying which argument is wrong and what was expected, or null. */
export type ArgumentCheck = (args: unknown) => string | null;

/** Keywords added to a seed property (or to the root under `root`), merged recursively. */
export interface SchemaRefinements {
  root?: Record<string, unknown>;
  properties?: Record<string, Record<string, unknown>>;
}

let trustedInstance: Ajv | null = null;

/** Strict Ajv for our own schemas, with `nonBlank` and the message annotations. */
function trustedAjv(): Ajv {
  if (trustedInstance !== null) return trustedInstance;
  // `unicode: false`: lengths in UTF-16 units, as the tools count them (`string.length`).
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: true,
    unicode: false,
    logger: false,
  });
  ajv.addKeyword({
    keyword: 'nonBlank',
    type: 'string',
    schemaType: 'boolean',
    validate: (required: boolean, data: string) => !required || data.trim() !== '',
  });
  // Annotations read by schema-error-message.ts.
  ajv.addKeyword({ keyword: 'expected', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'messages', schemaType: 'object' });
  trustedInstance = ajv;
  return ajv;
}

/**
 * The check for a built-in tool: the seed schema (JSON text, verbatim) with `refinements`
 * merged in. Throws when a refinement would change a keyword the seed sets, or names a
 * property the seed does not have.
 */
export function builtInArgumentCheck(
  seedSchemaJson: string,
  refinements: SchemaRefinements = {},
): ArgumentCheck {
  const schema = refineSchema(JSON.parse(seedSchemaJson) as Record<string, unknown>, refinements);
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  let validate: ValidateFunction | null = null;
  return (args) => {
    validate ??= trustedAjv().compile(schema);
    const data = withoutOptionalNulls(args, required);
    if (validate(data)) return null;
    return schemaErrorMessage(validate.errors ?? [], { trusted: true });
  };
}

/** The seed schema with refinements merged in (exported for the tests). */
export function refineSchema(
  seed: Record<string, unknown>,
  refinements: SchemaRefinements,
): Record<string, unknown> {
  let schema = mergeKeywords(seed, refinements.root ?? {}, 'root');
  const properties = { ...asObject(schema.properties) };
  for (const [name, extra] of Object.entries(refinements.properties ?? {})) {
    const own = properties[name];
    if (own === undefined) throw new Error(`refinement for "${name}", which the seed lacks`);
    properties[name] = mergeKeywords(asObject(own), extra, name);
  }
  if (refinements.properties !== undefined) schema = { ...schema, properties };
  return schema;
}

function mergeKeywords(
  base: Record<string, unknown>,
  extra: Record<string, unknown>,
  where: string,
): Record<string, unknown> {
  const merged = { ...base };
  for (const [keyword, value] of Object.entries(extra)) {
    const existing = merged[keyword];
    if (existing === undefined) {
      merged[keyword] = value;
    } else if (isPlainObject(existing) && isPlainObject(value)) {
      merged[keyword] = mergeKeywords(existing, value, `${where}.${keyword}`);
    } else {
      throw new Error(`refinement changes "${keyword}" of ${where}`);
    }
  }
  return merged;
}

/** A shallow copy without top-level nulls for properties that are not required. */
function withoutOptionalNulls(args: unknown, required: ReadonlySet<string>): unknown {
  if (!isPlainObject(args)) return args;
  const entries = Object.entries(args);
  if (!entries.some(([key, value]) => value === null && !required.has(key))) return args;
  return Object.fromEntries(entries.filter(([key, value]) => value !== null || required.has(key)));
}

/** Compiled untrusted schemas by their JSON text, oldest first (bounded). */
const untrustedCache = new Map<string, ValidateFunction | null>();
const MAX_CACHED_UNTRUSTED = 64;

/**
 * The check for a schema from an MCP server. The arguments must be a JSON object; past that,
 * the schema is checked when it is small enough and compiles after sanitising, and ignored
 * otherwise (the server checks its own input anyway). Never throws.
 *
 * A property the schema gives a `default` counts as present: servers often list such a
 * property as required (@playwright/mcp's screenshot `scale`) and fill it themselves. The
 * defaults are filled into a copy for the check only; the server gets the model's arguments.
 */
export function untrustedArgumentCheck(schema: unknown): ArgumentCheck {
  let compiled: { validate: ValidateFunction | null } | null = null;
  return (args) => {
    if (!isPlainObject(args)) return 'expected an object';
    compiled ??= { validate: compileUntrusted(schema) };
    const { validate } = compiled;
    if (validate === null) return null;
    try {
      if (validate(structuredClone(args))) return null;
      return schemaErrorMessage(validate.errors ?? [], { trusted: false });
    } catch {
      return null;
    }
  };
}

/** How a tool's `structuredContent` compares with its output schema. */
export type OutputCheckResult =
  | { check: 'valid' }
  | { check: 'invalid'; problem: string }
  /** The schema is too large or does not compile: nothing was checked. */
  | { check: 'unchecked' };

/**
 * The check of an MCP tool's `structuredContent` against its declared `outputSchema`: the same
 * bounds and compiler as untrusted input schemas, so a hostile schema costs no more here. The
 * value is checked on a copy (defaults are never written into what the model or the card shows).
 */
export function untrustedOutputCheck(schema: unknown): (value: unknown) => OutputCheckResult {
  let compiled: { validate: ValidateFunction | null } | null = null;
  return (value) => {
    compiled ??= { validate: compileUntrusted(schema) };
    const { validate } = compiled;
    if (validate === null) return { check: 'unchecked' };
    try {
      if (validate(structuredClone(value))) return { check: 'valid' };
      return {
        check: 'invalid',
        problem: schemaErrorMessage(validate.errors ?? [], { trusted: false }),
      };
    } catch {
      return { check: 'unchecked' };
    }
  };
}

function compileUntrusted(schema: unknown): ValidateFunction | null {
  const sanitized = sanitizeUntrustedSchema(schema);
  if (sanitized === null) return null;
  const key = JSON.stringify(sanitized);
  const cached = untrustedCache.get(key);
  if (cached !== undefined) {
    untrustedCache.delete(key);
    untrustedCache.set(key, cached);
    return cached;
  }
  let validate: ValidateFunction | null;
  try {
    // One instance per schema: servers' `$id`s cannot collide and nothing accumulates in a
    // shared instance's cache. No meta-schema: the schema is not checked, only compiled.
    // No code optimisation passes: they cost more compile time than they save here.
    const ajv = new Ajv({
      code: { optimize: false },
      strict: false,
      allErrors: false,
      verbose: true,
      validateFormats: false,
      validateSchema: false,
      useDefaults: true,
      meta: false,
      addUsedSchema: false,
      logger: false,
    });
    validate = ajv.compile(sanitized);
  } catch {
    validate = null;
  }
  untrustedCache.set(key, validate);
  if (untrustedCache.size > MAX_CACHED_UNTRUSTED) {
    const oldest = untrustedCache.keys().next();
    if (oldest.done !== true) untrustedCache.delete(oldest.value);
  }
  return validate;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}
