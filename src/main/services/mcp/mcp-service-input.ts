/** Validation of a new MCP service as the user typed it (CLI flags or the settings form). */
import { z } from 'zod';
import { AivoryError } from '../../../shared/errors';
import { isLoaderVariable, loaderRefusal } from '../../../shared/loader-env';
import type { McpService, McpTransportKind } from '../../../shared/mcp';
import { checkServiceUrl, parseTrustedOrigins } from './mcp-endpoint-policy';

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
  /**
   * Secrets of `url` and `args` (from an import): where `url` or an argument holds
   * `$(secret:N)`, the Nth of these goes, kept in the secret store (`mcp-secret-parts.ts`).
   */
  secretParts?: string[];
  /**
   * Loader variables of `env` (`shared/loader-env.ts`: NODE_OPTIONS, LD_PRELOAD…) the user
   * allows for this service; any other loader variable in `env` is refused.
   */
  allowLoaderEnv?: string[];
  /** OAuth: a client registered with the authorization server beforehand ('' clears it). */
  clientId?: string;
  clientSecret?: string;
  /** private_key_jwt: the client's private key (PKCS#8 PEM) instead of a secret. */
  clientKey?: string;
  /** OAuth grant: the user signs in (default), or the client alone (client credentials). */
  oauthGrant?: 'authorization_code' | 'client_credentials';
  /**
   * Other origins on the service's own local host its sign-in may use (e.g. a local
   * authorization server on another port): exactly scheme://host:port each; replaces the list.
   */
  trustedOrigins?: string[];
}

/** OAuth client settings as typed (the secret still in clear, for the SecretStore). */
export interface ParsedOAuthInput {
  grant: 'authorization_code' | 'client_credentials';
  clientId: string | null;
  clientSecret: string | null;
  /** The private key (PEM) and the JWS algorithm it signs with. */
  clientKey: { pem: string; algorithm: string } | null;
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
  /** The loader variables of `env`, each allowed by the user. */
  loaderEnv: string[];
  timeoutMs: number;
  maxTimeoutMs: number;
  /** null: OAuth defaults (stdio services never have any). */
  oauth: ParsedOAuthInput | null;
  /** Other origins of the service's local host trusted for its sign-in (checked). */
  trustedOrigins: string[];
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

const schema = z.lazy(() =>
  z.object({
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
  }),
);

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
    const env = (input.env ?? []).map(parseEnv);
    if (
      input.clientId ||
      input.clientSecret ||
      input.oauthGrant === 'client_credentials' ||
      (input.trustedOrigins ?? []).length > 0
    )
      throw new AivoryError('invalid-input', 'OAuth settings apply to HTTP services only.');
    return {
      ...common,
      transport,
      url: null,
      command: input.command.trim(),
      args: input.args ?? [],
      headers: [],
      env,
      loaderEnv: allowedLoaderEnv(env, input.allowLoaderEnv ?? []),
      oauth: null,
      trustedOrigins: [],
      notice: `This service runs "${[input.command.trim(), ...(input.args ?? [])].join(' ')}" on your machine with your permissions.`,
    };
  }
  if (!input.url) throw new AivoryError('invalid-input', 'An HTTP MCP service needs --url.');
  if ((input.env ?? []).length > 0 || (input.allowLoaderEnv ?? []).length > 0 || input.command) {
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
    loaderEnv: [],
    oauth: parseOAuth(input),
    trustedOrigins: parseTrustedOrigins(url, input.trustedOrigins ?? []),
    notice: url.notice,
  };
}

/** The OAuth client settings; null when nothing differs from the defaults. */
function parseOAuth(input: McpServiceInput): ParsedOAuthInput | null {
  const grant = input.oauthGrant ?? 'authorization_code';
  const clientId = input.clientId?.trim() || null;
  const clientSecret = input.clientSecret || null;
  const clientKey = input.clientKey ? keyOf(input.clientKey) : null;
  if (clientKey !== null && clientSecret !== null)
    throw new AivoryError(
      'invalid-input',
      'Give an OAuth client secret or a private key, not both.',
    );
  if (clientKey !== null && clientId === null)
    throw new AivoryError(
      'invalid-input',
      'An OAuth client key needs its client id (--client-id).',
    );
  for (const [what, value] of [
    ['client id', clientId],
    ['client secret', clientSecret],
  ] as const) {
    if (value !== null && (value.length > 2000 || /[\r\n\0]/.test(value)))
      throw new AivoryError(
        'invalid-input',
        `The OAuth ${what} must be one line (at most 2000 characters).`,
      );
  }
  if (clientSecret !== null && clientId === null)
    throw new AivoryError(
      'invalid-input',
      'An OAuth client secret needs its client id (--client-id).',
    );
  if (grant === 'client_credentials' && (clientId === null || (clientSecret ?? clientKey) === null))
    throw new AivoryError(
      'invalid-input',
      'The client credentials grant needs a registered client: --client-id and --client-secret (or --client-key-file).',
    );
  if (grant === 'authorization_code' && clientId === null) return null;
  return { grant, clientId, clientSecret, clientKey };
}

/** JWS algorithms by key: RSA signs RS256, EC keys by their curve. */
const EC_ALGORITHMS: Record<string, string> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
  secp521r1: 'ES512',
};

/** Checks a PKCS#8 PEM private key and picks its algorithm; never echoes the key. */
function keyOf(pem: string): { pem: string; algorithm: string } {
  let key;
  try {
    // node:crypto at first use, not imported: loading it costs every start ~7 ms (issue 24).
    key = process.getBuiltinModule('node:crypto').createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new AivoryError('invalid-input', 'The OAuth client key is not a PEM private key.');
  }
  const type = key.asymmetricKeyType;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const algorithm =
    type === 'rsa' ? 'RS256' : type === 'ec' && curve ? EC_ALGORITHMS[curve] : undefined;
  if (algorithm === undefined)
    throw new AivoryError(
      'invalid-input',
      'The OAuth client key must be an RSA key or an EC key on P-256, P-384 or P-521.',
    );
  // jose imports PKCS#8: a PKCS#1 / SEC1 key is re-encoded.
  return { pem: key.export({ type: 'pkcs8', format: 'pem' }).toString(), algorithm };
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

/**
 * The loader variables of `env` (`shared/loader-env.ts`), each of which the user must have
 * allowed (`allow`); one not allowed is refused, naming it and how to allow it. An allowance
 * naming no loader variable of `env` is refused too (a typo would otherwise go unnoticed).
 */
export function allowedLoaderEnv(
  env: readonly (readonly [string, string])[],
  allow: readonly string[],
): string[] {
  const allowed = new Set(allow.map((name) => name.trim().toUpperCase()));
  const loaders = env.map(([name]) => name).filter(isLoaderVariable);
  const refused = loaders.find((name) => !allowed.has(name.toUpperCase()));
  if (refused !== undefined) throw new AivoryError('invalid-input', loaderRefusal(refused));
  const present = new Set(loaders.map((name) => name.toUpperCase()));
  const stray = allow.find((name) => !present.has(name.trim().toUpperCase()));
  if (stray !== undefined)
    throw new AivoryError(
      'invalid-input',
      `--allow-loader-env ${stray.slice(0, 100)}: the service's environment sets no such loader variable.`,
    );
  return [...new Set(loaders)];
}

/**
 * The env entries with the user's allowance recorded on the loader variables named in `allowed`
 * (and on no other entry): what the launcher checks before it starts the server.
 */
export function withLoaderAllowance(
  env: McpService['env'],
  allowed: readonly string[],
): McpService['env'] {
  const names = new Set(allowed.map((name) => name.toUpperCase()));
  return env.map(({ name, secretRef }) =>
    names.has(name.toUpperCase()) ? { name, secretRef, loaderAllowed: true } : { name, secretRef },
  );
}
