/** How a secret (an API key, a header value) is shown: never in full. */
import { SECRET_PATTERNS } from './redact';

/** Shorter secrets are fully hidden by `maskSecret`: showing 7 characters would reveal too much. */
const MIN_MASKABLE_LENGTH = 12;

/**
 * A secret safe to show: the first 3 and last 4 characters around an ellipsis (`sk-…abcd`) when
 * it has at least 12 characters, otherwise `••••`.
 */
export function maskSecret(value: string): string {
  if (value.length < MIN_MASKABLE_LENGTH) return '••••';
  return `${value.slice(0, 3)}…${value.slice(-4)}`;
}

/** Names of values that are secrets whatever they hold: keys, tokens, passwords, sessions. */
const SECRET_NAME =
  /KEY|TOKEN|SECRET|PASS|PWD|AUTH|CREDENTIAL|PRIVATE|COOKIE|SESSION|SIGNATURE|SALT|CERT|DSN/i;

/** `SECRET_PATTERNS` for a test (a global pattern's `test` would carry `lastIndex` over). */
const SECRET_VALUE: readonly RegExp[] = SECRET_PATTERNS.map(
  (pattern) => new RegExp(pattern.source, pattern.flags.replace('g', '')),
);

/** True when a value named `name` (an env variable, a header) is a secret by its name. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * True when `value`, named `name`, is to be shown masked: a secret-looking name
 * (`GITHUB_TOKEN`, `Authorization`, `X-API-Key`) or a secret-looking value (an `sk-…` key, a
 * bearer token, credentials in a URL). Everything else may be shown in clear.
 */
export function looksSecret(name: string, value: string): boolean {
  return isSecretName(name) || SECRET_VALUE.some((pattern) => pattern.test(value));
}
