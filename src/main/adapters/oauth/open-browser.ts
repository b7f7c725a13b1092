/**
 * Opens a sign-in page in the user's browser. `$BROWSER` wins when set (the usual convention: a
 * list of commands, each tried in turn, separated by `:` — `;` on Windows, where `C:\` has a
 * colon; `%s` stands for the URL, else the URL is the last argument; no shell is involved; words
 * are split on spaces outside double or single quotes, so `"C:\Program Files\…\firefox.exe"`
 * works, and on Windows an unquoted entry that names an .exe is one word). Otherwise the system's
 * opener (xdg-open, open, start). A missing opener is not an error: the caller prints the link too.
 */

/** Opens `url`; resolves once a command was started (or none could be). */
export async function openBrowser(
  url: string,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  for (const [command, ...args] of browserCommands(url, env, platform)) {
    if (command === undefined) continue;
    if (await started(command, args)) return true;
  }
  return false;
}

/** The command lines tried, in order (exported for tests). */
export function browserCommands(
  url: string,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
): string[][] {
  const browser = env.BROWSER?.trim();
  const system =
    platform === 'darwin'
      ? ['open', url]
      : platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url.replace(/&/g, '^&')]
        : ['xdg-open', url];
  if (browser === undefined || browser === '') return [system];
  const entries = browser.split(platform === 'win32' ? ';' : ':');
  return entries
    .map((entry) => commandWords(entry.trim(), platform))
    .filter((words) => words.length > 0)
    .map((words) =>
      words.some((word) => word.includes('%s'))
        ? words.map((word) => word.replaceAll('%s', url))
        : [...words, url],
    );
}

/** An entry's words: split on whitespace outside quotes; the quotes themselves are dropped. */
function commandWords(entry: string, platform: NodeJS.Platform): string[] {
  if (platform === 'win32' && /^[^"']+\.exe$/i.test(entry)) return [entry];
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (const char of entry) {
    if (quote !== null) {
      if (char === quote) quote = null;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

function started(command: string, args: string[]): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    try {
      // `node:child_process` when a browser opens, not at start-up.
      const { spawn } = process.getBuiltinModule('node:child_process');
      const child = spawn(command, args, { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
