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
