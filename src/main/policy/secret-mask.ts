/** How a secret (an API key, a header value) is shown: never in full. */

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

/** Values that read as secrets whatever their name: `sk-…`, `Bearer …`, `…?token=…`, `//user:pw@`. */
const SECRET_VALUE: readonly RegExp[] = [
  /\b(?:sk|pk|rk|ghp|gho|ghs|github_pat|xox[abpr]|glpat)[-_][A-Za-z0-9_-]{8,}/,
  /\bBearer\s+\S{6,}/i,
  /\b(?:api[-_]?key|token|secret|password|passwd|pwd)=[^&\s]{4,}/i,
  /\/\/[^/@\s:]*:[^/@\s]+@/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

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

/**
 * `text` (a message) with each of `values` — as typed and as a URL carries it — replaced by
 * `••••`. Values under 4 characters are left: hiding every "a" would garble the message.
 */
export function hideSecretValues(text: string, values: readonly string[]): string {
  let result = text;
  for (const value of [...values].sort((a, b) => b.length - a.length)) {
    if (value.length < 4) continue;
    for (const form of new Set([value, encodeURIComponent(value), encodeURI(value)]))
      result = result.replaceAll(form, '••••');
  }
  return result;
}
