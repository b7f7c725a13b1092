/**
 * Redaction for everything that reaches a log: API keys, bearer tokens and secret-looking fields
 * are replaced before a line is written, so a log file can be shared in a bug report.
 */

const SECRET_FIELD = /^(api[-_]?key|authorization|token|secret|password|access[-_]?token|cookie)$/i;

/**
 * What reads as a secret whatever its name: provider keys by their prefixes, bearer tokens,
 * `name=value` credentials, a password in a URL, a private key. The one list for the log's
 * redaction (`redactText`) and for what the import plan and the settings show masked
 * (`secret-mask.ts: looksSecret`). A pattern's `keep` group stays in clear when it is replaced.
 */
export const SECRET_PATTERNS: readonly RegExp[] = [
  /\b(?:sk|pk|rk|ghp|gho|ghs|github_pat|xox[abpr]|glpat)[-_][A-Za-z0-9_-]{8,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{6,}/gi,
  /\b(?<keep>(?:api[-_]?key|token|secret|password|passwd|pwd)=)[^&\s"']{4,}/gi,
  /(?<keep>\/\/[^/@\s:]*:)[^/@\s]+(?=@)/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/g,
];

/** Replaces secret-looking substrings of `text`. */
export function redactText(text: string): string {
  let result = text;
  for (const pattern of SECRET_PATTERNS) {
    result = result.replace(pattern, (...match: unknown[]) => {
      const groups = match.at(-1) as { keep?: string } | undefined;
      return `${groups?.keep ?? ''}[redacted]`;
    });
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

/**
 * `text` with each known secret — as typed and as a URL carries it — replaced by `mark`, the
 * longest first (see `ANYWHERE_SECRET_CHARS` for short ones). The one rule for a key in a
 * provider's error message and for the secret parts of an MCP server's URL in its errors.
 */
export function redactSecrets(
  text: string,
  secrets: readonly (string | null | undefined)[],
  mark = '[redacted]',
): string {
  const known = secrets.filter((secret): secret is string => !!secret);
  let result = text;
  for (const secret of known.sort((a, b) => b.length - a.length)) {
    for (const form of new Set([secret, encodeURIComponent(secret), encodeURI(secret)])) {
      result = redactOne(result, form, mark);
    }
  }
  return result;
}

function redactOne(text: string, secret: string, mark: string): string {
  if (secret.length >= ANYWHERE_SECRET_CHARS) return text.split(secret).join(mark);
  let result = '';
  let from = 0;
  for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
    const end = at + secret.length;
    if (at < from || isWordCharacter(text[at - 1]) || isWordCharacter(text[end])) continue;
    result += `${text.slice(from, at)}${mark}`;
    from = end;
  }
  return result + text.slice(from);
}

function isWordCharacter(character: string | undefined): boolean {
  return character !== undefined && /[\p{L}\p{N}_-]/u.test(character);
}
