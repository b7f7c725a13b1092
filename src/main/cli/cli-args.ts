/**
 * Small helpers for command lines: option values that start with "-", and words quoted for a
 * POSIX shell in the commands the CLI suggests.
 */

/**
 * node:util `parseArgs` refuses `--arg -y` ("argument is ambiguous") although `--arg=-y` works.
 * This joins every value-taking long option (`options` with `type: 'string'`) with the token
 * after it, so the next token is always its value, whatever it starts with. Tokens after `--`
 * and an option at the very end are left as they are (parseArgs then says what is missing).
 */
export function joinOptionValues(
  argv: readonly string[],
  options: Readonly<Record<string, { type: 'string' | 'boolean' }>>,
): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index] ?? '';
    if (token === '--') {
      joined.push(...argv.slice(index));
      break;
    }
    const next = argv[index + 1];
    if (
      token.startsWith('--') &&
      !token.includes('=') &&
      options[token.slice(2)]?.type === 'string' &&
      next !== undefined
    ) {
      joined.push(`${token}=${next}`);
      index += 1;
    } else joined.push(token);
  }
  return joined;
}

/** `word` as one POSIX shell word: unchanged when it is safe, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * `--tools a,b c` → ['a','b','c'] (tool names have no spaces: commas or spaces separate them);
 * "none" → [] (no tools); absent → undefined (defaults).
 */
export function parseToolList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return noneMeansEmpty(value.split(/[\s,]+/));
}

/**
 * `--mcp "Notes Ω/2, files"` → ['Notes Ω/2', 'files']: service names may hold spaces, so only
 * commas separate them (each name trimmed); "none" → []; absent → undefined (defaults).
 */
export function parseServiceList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return noneMeansEmpty(value.split(',').map((name) => name.trim()));
}

function noneMeansEmpty(parts: string[]): string[] {
  const names = parts.filter((name) => name !== '');
  return names.length === 1 && names[0] === 'none' ? [] : names;
}
