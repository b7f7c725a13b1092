/** Validation of a new MCP service as the user typed it (CLI flags or the settings form). */
import { z } from 'zod';
import { AivoryError } from '../../../shared/errors';
import type { McpTransportKind } from '../../../shared/mcp';
import { checkServiceUrl } from './mcp-endpoint-policy';

export const DEFAULT_TIMEOUT_SECONDS = 60;
export const DEFAULT_MAX_TIMEOUT_SECONDS = 600;
const DEFAULT_ICON = '🔌';

export interface McpServiceInput {
  name: string;
  icon?: string;
  description?: string;
  transport?: McpTransportKind;
  url?: string;
  /** `Name: value` lines. */
  headers?: string[];
  timeoutSeconds?: number;
  maxTimeoutSeconds?: number;
  command?: string;
  args?: string[];
  /** `NAME=value` entries. */
  env?: string[];
}

export interface ParsedServiceInput {
  name: string;
  icon: string;
  description: string;
  transport: McpTransportKind;
  url: string | null;
  command: string | null;
  args: string[];
  headers: [string, string][];
  env: [string, string][];
  timeoutMs: number;
  maxTimeoutMs: number;
  notice: string | null;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,100}$/;
/** Headers the transport sets itself; a user value would break the protocol. */
const RESERVED_HEADERS = new Set([
  'content-type',
  'accept',
  'content-length',
  'host',
  'mcp-session-id',
  'mcp-protocol-version',
]);

const schema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'a name is required')
    .max(64, 'the name is longer than 64 characters'),
  icon: z
    .string()
    .trim()
    .min(1)
    .max(32, 'the icon is longer than 32 characters')
    .default(DEFAULT_ICON),
  description: z
    .string({
      error: 'a tool description is required (it tells the model when to use the service)',
    })
    .trim()
    .min(1, 'a tool description is required (it tells the model when to use the service)')
    .max(1000, 'the description is longer than 1000 characters'),
  timeoutSeconds: z.number().int().min(1).max(3600).default(DEFAULT_TIMEOUT_SECONDS),
  maxTimeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .default(DEFAULT_MAX_TIMEOUT_SECONDS),
});

export function parseServiceInput(
  input: McpServiceInput,
  allowLocalCommands: boolean,
): ParsedServiceInput {
  const checked = schema.safeParse(input);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new AivoryError(
      'invalid-input',
      `MCP service: ${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'}.`,
    );
  }
  const base = checked.data;
  const timeoutMs = base.timeoutSeconds * 1000;
  const maxTimeoutMs = Math.max(timeoutMs, base.maxTimeoutSeconds * 1000);
  const common = {
    name: base.name,
    icon: base.icon,
    description: base.description,
    timeoutMs,
    maxTimeoutMs,
  };
  const transport = input.transport ?? (input.command ? 'stdio' : 'streamable-http');
  if (transport === 'stdio') {
    if (!input.command?.trim())
      throw new AivoryError('invalid-input', 'A stdio MCP service needs --command.');
    if (!allowLocalCommands) {
      throw new AivoryError(
        'invalid-input',
        'Local command MCP servers are off. They run with your permissions; to allow them: aivory settings set mcp.allowLocalCommands true',
      );
    }
    if ((input.headers ?? []).length > 0)
      throw new AivoryError('invalid-input', 'Headers apply to HTTP services only.');
    return {
      ...common,
      transport,
      url: null,
      command: input.command.trim(),
      args: input.args ?? [],
      headers: [],
      env: (input.env ?? []).map(parseEnv),
      notice: `This service runs "${[input.command.trim(), ...(input.args ?? [])].join(' ')}" on your machine with your permissions.`,
    };
  }
  if (!input.url) throw new AivoryError('invalid-input', 'An HTTP MCP service needs --url.');
  if ((input.env ?? []).length > 0 || input.command) {
    throw new AivoryError('invalid-input', '--command and --env apply to stdio services only.');
  }
  const url = checkServiceUrl(input.url);
  return {
    ...common,
    transport,
    url: url.url,
    command: null,
    args: [],
    headers: (input.headers ?? []).map(parseHeader),
    env: [],
    notice: url.notice,
  };
}

function parseHeader(line: string): [string, string] {
  const colon = line.indexOf(':');
  const name = colon < 0 ? '' : line.slice(0, colon).trim();
  const value = colon < 0 ? '' : line.slice(colon + 1).trim();
  if (!HEADER_NAME.test(name) || value === '' || /[\r\n\0]/.test(value)) {
    throw new AivoryError(
      'invalid-input',
      'A header must look like "Name: value" on one line (the value is not shown here).',
    );
  }
  if (RESERVED_HEADERS.has(name.toLowerCase())) {
    throw new AivoryError(
      'invalid-input',
      `The ${name} header is set by the MCP transport itself.`,
    );
  }
  return [name, value];
}

function parseEnv(entry: string): [string, string] {
  const equals = entry.indexOf('=');
  const name = equals < 0 ? '' : entry.slice(0, equals);
  if (!ENV_NAME.test(name) || /\0/.test(entry)) {
    throw new AivoryError(
      'invalid-input',
      `An environment entry must look like NAME=value (got "${entry.slice(0, 40)}").`,
    );
  }
  return [name, entry.slice(equals + 1)];
}
