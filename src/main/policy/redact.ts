/**
 * Redaction for everything that reaches a log: API keys, bearer tokens and secret-looking fields
 * are replaced before a line is written, so a log file can be shared in a bug report.
 */

const SECRET_FIELD = /^(api[-_]?key|authorization|token|secret|password|access[-_]?token|cookie)$/i;

const SECRET_PATTERNS: readonly RegExp[] = [
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{6,}/gi,
  /\b(api[-_]?key|token|secret|password)=([^&\s"']{4,})/gi,
];

/** Replaces secret-looking substrings of `text`. */
export function redactText(text: string): string {
  let result = text;
  for (const pattern of SECRET_PATTERNS) {
    result = result.replace(pattern, (match: string, first: string | undefined) =>
      match.includes('=') && first ? `${first}=[redacted]` : '[redacted]',
    );
  }
  return result;
}

/** Deep-copies `value` with secret fields blanked and secret-looking strings redacted. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[deep]';
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        SECRET_FIELD.test(key) ? '[redacted]' : redactValue(item, depth + 1),
      ]),
    );
  }
  return value;
}
