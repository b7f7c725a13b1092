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

/**
 * A secret shorter than this is replaced only where it stands as a whole word: a 1-character
 * key found inside "totalling" would otherwise rewrite the message around it (seen: a stored
 * error "tal[redacted]ing"). Longer ones cannot occur by chance and are replaced anywhere.
 */
const ANYWHERE_SECRET_CHARS = 12;

/** Replaces each occurrence of the known `secret` in `text` (see `ANYWHERE_SECRET_CHARS`). */
export function redactSecret(text: string, secret: string | null | undefined): string {
  if (!secret) return text;
  if (secret.length >= ANYWHERE_SECRET_CHARS) return text.split(secret).join('[redacted]');
  let result = '';
  let from = 0;
  for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
    const end = at + secret.length;
    if (at < from || isWordCharacter(text[at - 1]) || isWordCharacter(text[end])) continue;
    result += `${text.slice(from, at)}[redacted]`;
    from = end;
  }
  return result + text.slice(from);
}

function isWordCharacter(character: string | undefined): boolean {
  return character !== undefined && /[\p{L}\p{N}_-]/u.test(character);
}
