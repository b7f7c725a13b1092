/**
 * Reads the MCP configs users already have into a plan of services to add — pure: no I/O, the
 * environment and the user's `${input:…}` answers come in as arguments. Two syntaxes cover the
 * four files: `mcpServers` (Claude Desktop's `claude_desktop_config.json`, Claude Code's
 * `.mcp.json`, Cursor's `.cursor/mcp.json`) and VS Code's `servers` (`.vscode/mcp.json`, or
 * `mcp.servers` in its settings), with `type`, `inputs` and `${input:id}` / `${env:NAME}`
 * variables. Nothing is dropped silently: every entry is planned or skipped with a reason.
 * JSONC (comments, trailing commas) is read with jsonc-parser, VS Code's own reader.
 */
import { parse, printParseErrorCode } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';
import { AivoryError } from '../../../shared/errors';
import { MAX_MCP_IMPORT_CHARS } from '../../../shared/ipc/limits';
import type { McpTransportKind } from '../../../shared/mcp';
import { loaderVariable } from '../../../shared/loader-env';
import { revealInvisibleCharacters } from '../../../shared/untrusted-text';
import { looksSecret, maskSecret } from '../../policy/secret-mask';
import { Resolver, Skip } from './mcp-config-variables';
import { mentionsSecretPart, showNewParts } from './mcp-secret-parts';
import { checkServiceUrl } from './mcp-endpoint-policy';

/** The largest config read (a real one is a few KiB). */
export const MAX_IMPORT_BYTES = MAX_MCP_IMPORT_CHARS;
/** The most services one import plans; the rest are skipped, counted in one line. */
export const MAX_IMPORT_ENTRIES = 50;
const MAX_NAME_CHARS = 64;
const MAX_ARGS = 100;
const MAX_ENV = 100;
const MAX_HEADERS = 50;
const MAX_VALUE_CHARS = 8192;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,100}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const INPUT_ID = /^[A-Za-z0-9_.-]{1,100}$/;

export type McpConfigShape = 'mcpServers' | 'vscode';

/** A `${input:id}` the file declares (VS Code `inputs`), for the caller to ask. */
export interface McpImportInput {
  id: string;
  description: string;
  password: boolean;
  default: string | null;
  /** pickString: the allowed answers. */
  options: string[] | null;
}

/**
 * An env or header value: the value for the secret store, and how the plan shows it — in clear
 * (hidden characters written out), masked when it is a secret (`looksSecret`, a password input,
 * a variable named like a secret).
 */
export interface McpImportValue {
  name: string;
  value: string;
  shown: string;
  secret: boolean;
  /** Where the value came from: `the file`, `input api-key`, `environment HOME`. */
  from: string;
  /** An env loader variable (`shared/loader-env.ts`): what it makes the program do. */
  loader: string | null;
  /** The user allowed this loader variable for this service; refused (left out) otherwise. */
  allowed: boolean;
}

export interface McpImportEntry {
  /** The service name (cleaned; what the service will be called). */
  name: string;
  transport: McpTransportKind;
  /** The URL and arguments as stored: a secret in them is a placeholder, `$(secret:N)`. */
  url: string | null;
  command: string | null;
  args: string[];
  /** The secrets of `url` and `args`, by N: they go to the secret store, never the database. */
  secretParts: string[];
  /** `url` and `args` as the plan shows them: secrets masked, hidden characters written out. */
  shownUrl: string | null;
  shownArgs: string[];
  env: McpImportValue[];
  headers: McpImportValue[];
  description: string;
  /** `${input:id}` the entry uses (answered or not). */
  inputs: string[];
  /** Of those, the ones the caller has no answer for yet: the entry cannot be added until then. */
  missingInputs: string[];
  /** Things of the file the app does not use (said, not hidden). */
  notes: string[];
}

export interface McpImportSkip {
  name: string;
  reason: string;
}

export interface McpImportPlan {
  shape: McpConfigShape;
  entries: McpImportEntry[];
  skipped: McpImportSkip[];
  /** The inputs the planned entries use. */
  inputs: McpImportInput[];
}

export interface McpImportOptions {
  /** Names of the services saved already. */
  existingNames: readonly string[];
  /** For `${env:NAME}` / `${NAME}`: the environment of the importing process. */
  env: Readonly<Record<string, string | undefined>>;
  /** Answers to `${input:id}`. */
  inputs?: Readonly<Record<string, string>>;
  /** The local-commands setting: stdio entries are skipped when it is off. */
  allowLocalCommands: boolean;
  /** Loader variables the user allows, by service name (`--allow-loader-env NAME:VAR`). */
  allowLoaderEnv?: Readonly<Record<string, readonly string[]>>;
}

/** Parses `text` (a config file) into a plan; throws `invalid-input` with one clear line. */
export function planMcpImport(text: string, options: McpImportOptions): McpImportPlan {
  const root = readJson(text);
  const { shape, servers, inputs } = locate(root);
  const declared = declaredInputs(inputs);
  const plan: McpImportPlan = { shape, entries: [], skipped: [], inputs: [] };
  const taken = new Set(options.existingNames);
  const names = Object.keys(servers);
  for (const [index, sourceName] of names.entries()) {
    if (index === MAX_IMPORT_ENTRIES) {
      plan.skipped.push({
        name: `${names.length - index} more`,
        reason: `an import takes at most ${MAX_IMPORT_ENTRIES} services; split the file`,
      });
      break;
    }
    const name = cleanName(sourceName);
    const shown = name || sourceName.slice(0, MAX_NAME_CHARS);
    try {
      if (!name) throw new Skip('the name has no usable characters');
      if (plan.entries.some((entry) => entry.name === name))
        throw new Skip(`the file names "${name}" more than once`);
      if (taken.has(name)) throw new Skip(`a service named "${name}" exists already`);
      const entry = planEntry(name, servers[sourceName], shape, declared, options);
      plan.entries.push(entry);
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      plan.skipped.push({ name: shown, reason: error.message });
    }
  }
  const used = new Set(plan.entries.flatMap((entry) => entry.inputs));
  plan.inputs = [...declared.values()].filter((input) => used.has(input.id));
  checkLoaderAllowances(plan, options.allowLoaderEnv ?? {});
  return plan;
}

/**
 * Each allowance names a loader variable one of the planned services sets: a mistyped service
 * or variable is refused, not silently ignored (the CLI's `--allow-loader-env` and the dialog's
 * boxes alike).
 */
function checkLoaderAllowances(
  plan: McpImportPlan,
  allowed: Readonly<Record<string, readonly string[]>>,
): void {
  for (const [service, variables] of Object.entries(allowed)) {
    const entry = plan.entries.find((candidate) => candidate.name === service);
    for (const variable of variables) {
      const found = entry?.env.some(
        (value) => value.loader !== null && value.name.toUpperCase() === variable.toUpperCase(),
      );
      if (found === true) continue;
      throw new AivoryError(
        'invalid-input',
        `The loader variable ${service}:${variable} cannot be allowed: ${entry === undefined ? `the plan has no service "${service}"` : `"${service}" sets no loader variable ${variable}`}.`,
      );
    }
  }
}

function readJson(text: string): unknown {
  if (text.length > MAX_IMPORT_BYTES)
    throw new AivoryError(
      'invalid-input',
      `The config is over ${MAX_IMPORT_BYTES / 1024} KiB: not an MCP config.`,
    );
  const errors: ParseError[] = [];
  const value: unknown = parse(text.replace(/^\uFEFF/, ''), errors, {
    allowTrailingComma: true,
    disallowComments: false,
  });
  const first = errors[0];
  if (first !== undefined) {
    const before = text.slice(0, first.offset);
    const line = before.split('\n').length;
    const column = first.offset - before.lastIndexOf('\n');
    throw new AivoryError(
      'invalid-input',
      `The config is not valid JSON: ${describeParseError(printParseErrorCode(first.error))} at line ${line}, column ${column}.`,
    );
  }
  return value;
}

/** jsonc-parser's `ValueExpected` → "value expected". */
function describeParseError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function locate(root: unknown): {
  shape: McpConfigShape;
  servers: Record<string, unknown>;
  inputs: unknown;
} {
  if (isObject(root)) {
    if (isObject(root.mcpServers))
      return { shape: 'mcpServers', servers: root.mcpServers, inputs: [] };
    if (isObject(root.servers))
      return { shape: 'vscode', servers: root.servers, inputs: root.inputs };
    // VS Code's settings.json keeps the same under "mcp".
    const nested = root.mcp;
    if (isObject(nested) && isObject(nested.servers))
      return { shape: 'vscode', servers: nested.servers, inputs: nested.inputs };
  }
  throw new AivoryError(
    'invalid-input',
    'Not an MCP config: expected an object with "mcpServers" (Claude Desktop, .mcp.json, Cursor) or "servers" (VS Code .vscode/mcp.json).',
  );
}

function declaredInputs(inputs: unknown): Map<string, McpImportInput> {
  const declared = new Map<string, McpImportInput>();
  if (!Array.isArray(inputs)) return declared;
  for (const input of inputs.slice(0, MAX_ENV)) {
    if (!isObject(input) || typeof input.id !== 'string' || !INPUT_ID.test(input.id)) continue;
    const options = Array.isArray(input.options)
      ? input.options
          .map((option) => (isObject(option) ? option.value : option))
          .filter((option): option is string => typeof option === 'string')
          .slice(0, MAX_ENV)
      : null;
    declared.set(input.id, {
      id: input.id,
      description: cleanText(
        typeof input.description === 'string' ? input.description : input.id,
        300,
      ),
      password: input.password === true,
      default: typeof input.default === 'string' ? input.default.slice(0, MAX_VALUE_CHARS) : null,
      options: input.type === 'pickString' ? options : null,
    });
  }
  return declared;
}

function planEntry(
  name: string,
  raw: unknown,
  shape: McpConfigShape,
  declared: ReadonlyMap<string, McpImportInput>,
  options: McpImportOptions,
): McpImportEntry {
  if (!isObject(raw)) throw new Skip('the entry is not an object');
  const vars = new Resolver(declared, options, shape);
  const notes: string[] = [];
  const transport = transportOf(raw);
  const description =
    typeof raw.description === 'string' && raw.description.trim() !== ''
      ? cleanText(raw.description, 1000)
      : `Tools of the ${name} MCP server (imported from ${shape === 'vscode' ? 'a VS Code' : 'an mcpServers'} config).`;
  const entry: McpImportEntry = {
    name,
    transport,
    url: null,
    command: null,
    args: [],
    secretParts: [],
    shownUrl: null,
    shownArgs: [],
    env: [],
    headers: [],
    description,
    inputs: [],
    missingInputs: [],
    notes,
  };
  if (transport === 'stdio') {
    if (!options.allowLocalCommands)
      throw new Skip(
        'local command servers are off (aivory settings set mcp.allowLocalCommands true, or Settings → MCP)',
      );
    if (typeof raw.command !== 'string' || raw.command.trim() === '')
      throw new Skip('"command" is not a string');
    entry.command = vars.resolve(raw.command.trim(), 'command');
    if (raw.args !== undefined && !Array.isArray(raw.args)) throw new Skip('"args" is not a list');
    const args = (raw.args ?? []) as unknown[];
    if (args.length > MAX_ARGS) throw new Skip(`more than ${MAX_ARGS} arguments`);
    entry.args = args.map((arg, index) => {
      if (typeof arg !== 'string' && typeof arg !== 'number')
        throw new Skip(`argument ${index + 1} is not a string`);
      return vars.resolve(String(arg), `argument ${index + 1}`, entry.secretParts);
    });
    const allowed = new Set(options.allowLoaderEnv?.[name]?.map((env) => env.toUpperCase()));
    entry.env = values(raw.env, 'env', ENV_NAME, MAX_ENV, vars).map((value) => ({
      ...value,
      allowed: value.loader !== null && allowed.has(value.name.toUpperCase()),
    }));
    if (raw.headers !== undefined) notes.push('"headers" apply to HTTP servers: left out');
    if (raw.cwd !== undefined)
      notes.push('"cwd" is not used: the server starts in the app\'s folder');
  } else {
    const rawUrl = typeof raw.url === 'string' ? raw.url : raw.serverUrl;
    if (typeof rawUrl !== 'string') throw new Skip('"url" is not a string');
    const url = vars.resolve(rawUrl, 'url', entry.secretParts);
    // A placeholder is no host name: a secret in the address would make an invalid URL.
    if (mentionsSecretPart(/^[A-Za-z][\w+.-]*:\/\/[^/?#]*/.exec(url)?.[0] ?? '')) {
      throw new Skip(
        "url puts a secret (a password input or a secret variable) into the server's address; only its path or query can hold one",
      );
    }
    if (vars.missing.size === 0) {
      try {
        entry.url = checkServiceUrl(url).url;
      } catch (error) {
        throw new Skip(error instanceof Error ? error.message.replace(/\.$/, '') : 'a bad URL');
      }
    } else entry.url = rawUrl.trim();
    entry.headers = values(raw.headers, 'headers', HEADER_NAME, MAX_HEADERS, vars);
    if (raw.env !== undefined) notes.push('"env" applies to command servers: left out');
  }
  if (raw.envFile !== undefined)
    throw new Skip('"envFile" is not read by the import: put its variables in "env"');
  entry.missingInputs = [...vars.missing];
  entry.inputs = [...vars.used];
  const show = (text: string) =>
    revealInvisibleCharacters(
      showNewParts(text, (index) => maskSecret(entry.secretParts[index] ?? '')),
    );
  entry.shownUrl = entry.url === null ? null : show(entry.url);
  entry.shownArgs = entry.args.map(show);
  return entry;
}

function transportOf(raw: Record<string, unknown>): McpTransportKind {
  const type = raw.type ?? raw.transport;
  if (type === undefined) {
    if (raw.command !== undefined) return 'stdio';
    if (raw.url !== undefined || raw.serverUrl !== undefined) return 'streamable-http';
    throw new Skip('neither "command" nor "url": not a server entry this app knows');
  }
  if (type === 'stdio') return 'stdio';
  if (type === 'sse') return 'sse';
  if (type === 'http' || type === 'streamable-http' || type === 'streamableHttp')
    return 'streamable-http';
  throw new Skip(
    `transport type ${JSON.stringify(String(type).slice(0, 40))} is not supported (stdio, http or sse)`,
  );
}

/** `env` / `headers`: an object of names to values, each value resolved. */
function values(
  raw: unknown,
  field: string,
  pattern: RegExp,
  cap: number,
  vars: Resolver,
): McpImportValue[] {
  if (raw === undefined || raw === null) return [];
  if (!isObject(raw)) throw new Skip(`"${field}" is not an object`);
  const entries = Object.entries(raw);
  if (entries.length > cap) throw new Skip(`"${field}" has more than ${cap} entries`);
  return entries.map(([name, value]) => {
    if (!pattern.test(name))
      throw new Skip(
        `"${field}" has a name that cannot be used: ${JSON.stringify(name.slice(0, 40))}`,
      );
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      throw new Skip(`${field} ${name} is not a string`);
    const text = String(value);
    if (text.length > MAX_VALUE_CHARS)
      throw new Skip(`${field} ${name} is over ${MAX_VALUE_CHARS} characters`);
    const before = vars.sources.length;
    const missesBefore = vars.misses;
    const secretsBefore = vars.secrets;
    const resolved = vars.resolve(text, `${field} ${name}`);
    if (/[\r\n\0]/.test(resolved)) throw new Skip(`${field} ${name} is not one line`);
    if (field === 'headers' && resolved.trim() === '' && vars.missing.size === 0)
      throw new Skip(`header ${name} is empty`);
    const from = vars.sources.slice(before);
    // A loader variable is shown in clear, always: it is code the server will run.
    const loader = field === 'env' ? loaderVariable(name) : null;
    const secret = loader === null && (vars.secrets > secretsBefore || looksSecret(name, resolved));
    return {
      name,
      value: resolved,
      // Not filled in yet: the file's own text (`Bearer ${input:token}`) holds no secret.
      shown: revealInvisibleCharacters(
        vars.misses > missesBefore ? text : secret ? maskSecret(resolved) : resolved,
      ),
      secret,
      from: from.length > 0 ? from.join(', ') : 'the file',
      loader,
      allowed: false,
    };
  });
}

/** A service name as the app stores it: one line, no control characters, ≤ 64 characters. */
export function cleanName(text: string): string {
  return cleanText(text, MAX_NAME_CHARS);
}

function cleanText(text: string, max: number): string {
  return text
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
