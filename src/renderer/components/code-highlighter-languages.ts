/**
 * The languages `code-highlighter.ts` can highlight (each highlight.js grammar its own lazily
 * loaded chunk, fetched the first time a code block names it: a Python answer loads the Python
 * grammar, not thirty). `uses` lists the grammars a grammar embeds (`subLanguage`: HTML's
 * scripts and styles, JS template literals), loaded with it. The names and aliases are
 * highlight.js's own (a unit test holds them to the grammars); any other language stays plain
 * text and loads nothing. Small on purpose: it sits in the main bundle, so a code block in an
 * unknown language never loads the highlighter at all.
 */

interface LanguageEntry {
  aliases: readonly string[];
  uses?: readonly string[];
}

/** The highlighted languages by highlight.js name: the `common` set and a few more. */
export const LANGUAGES = {
  arduino: {
    aliases: ['ino'],
  },
  bash: {
    aliases: ['sh', 'zsh'],
  },
  c: {
    aliases: ['h'],
  },
  clojure: {
    aliases: ['clj', 'edn'],
  },
  cmake: {
    aliases: ['cmake.in'],
  },
  cpp: {
    aliases: ['cc', 'c++', 'h++', 'hpp', 'hh', 'hxx', 'cxx'],
  },
  csharp: {
    aliases: ['cs', 'c#'],
  },
  css: {
    aliases: [],
  },
  dart: {
    aliases: [],
    uses: ['markdown'],
  },
  diff: {
    aliases: ['patch'],
  },
  dockerfile: {
    aliases: ['docker'],
    uses: ['bash'],
  },
  elixir: {
    aliases: ['ex', 'exs'],
  },
  erlang: {
    aliases: ['erl'],
  },
  fsharp: {
    aliases: ['fs', 'f#'],
  },
  go: {
    aliases: ['golang'],
  },
  graphql: {
    aliases: ['gql'],
  },
  groovy: {
    aliases: [],
  },
  haskell: {
    aliases: ['hs'],
  },
  ini: {
    aliases: ['toml'],
  },
  java: {
    aliases: ['jsp'],
  },
  javascript: {
    aliases: ['js', 'jsx', 'mjs', 'cjs'],
    uses: ['xml', 'css', 'graphql'],
  },
  json: {
    aliases: ['jsonc', 'json5'],
  },
  julia: {
    aliases: [],
  },
  kotlin: {
    aliases: ['kt', 'kts'],
  },
  latex: {
    aliases: ['tex'],
  },
  less: {
    aliases: [],
  },
  llvm: {
    aliases: [],
  },
  lua: {
    aliases: ['pluto'],
  },
  makefile: {
    aliases: ['mk', 'mak', 'make'],
  },
  markdown: {
    aliases: ['md', 'mkdown', 'mkd'],
    uses: ['xml'],
  },
  matlab: {
    aliases: [],
  },
  nginx: {
    aliases: ['nginxconf'],
  },
  nix: {
    aliases: ['nixos'],
    uses: ['markdown'],
  },
  objectivec: {
    aliases: ['mm', 'objc', 'obj-c', 'obj-c++', 'objective-c++'],
  },
  ocaml: {
    aliases: ['ml'],
  },
  perl: {
    aliases: ['pl', 'pm'],
  },
  php: {
    aliases: [],
  },
  'php-template': {
    aliases: [],
    uses: ['xml', 'php'],
  },
  powershell: {
    aliases: ['pwsh', 'ps', 'ps1'],
  },
  protobuf: {
    aliases: ['proto'],
  },
  python: {
    aliases: ['py', 'gyp', 'ipython'],
  },
  'python-repl': {
    aliases: ['pycon'],
    uses: ['python'],
  },
  r: {
    aliases: [],
  },
  ruby: {
    aliases: ['rb', 'gemspec', 'podspec', 'thor', 'irb'],
  },
  rust: {
    aliases: ['rs'],
  },
  scala: {
    aliases: [],
  },
  scss: {
    aliases: [],
  },
  shell: {
    aliases: ['console', 'shellsession'],
    uses: ['bash'],
  },
  sql: {
    aliases: [],
  },
  swift: {
    aliases: [],
  },
  tcl: {
    aliases: ['tk'],
  },
  typescript: {
    aliases: ['ts', 'tsx', 'mts', 'cts'],
    uses: ['xml', 'css', 'graphql'],
  },
  vbnet: {
    aliases: ['vb'],
  },
  vim: {
    aliases: [],
  },
  wasm: {
    aliases: [],
  },
  x86asm: {
    aliases: [],
  },
  xml: {
    aliases: ['html', 'xhtml', 'rss', 'atom', 'xjb', 'xsd', 'xsl', 'plist', 'wsf', 'svg'],
    uses: ['css', 'javascript'],
  },
  yaml: {
    aliases: ['yml'],
    uses: ['ruby'],
  },
} as const satisfies Record<string, LanguageEntry>;

/** A highlight.js grammar name of the table. */
export type LanguageName = keyof typeof LANGUAGES;

const byAlias = new Map<string, LanguageName>();
for (const [name, entry] of Object.entries(LANGUAGES) as [LanguageName, LanguageEntry][]) {
  byAlias.set(name, name);
  for (const alias of entry.aliases) byAlias.set(alias, name);
}

/** The grammar name for a fence's language (`py` → `python`), or null: shown plain. */
export function grammarName(language: string): LanguageName | null {
  const name = language.trim().toLowerCase();
  return name === '' ? null : (byAlias.get(name) ?? null);
}

/** The grammars `name` needs, itself first, then what it embeds (transitively). */
export function grammarsFor(name: LanguageName): LanguageName[] {
  const wanted: LanguageName[] = [];
  const visit = (grammar: LanguageName): void => {
    if (wanted.includes(grammar)) return;
    wanted.push(grammar);
    const entry: LanguageEntry = LANGUAGES[grammar];
    for (const used of entry.uses ?? []) if (used in LANGUAGES) visit(used as LanguageName);
  };
  visit(name);
  return wanted;
}
