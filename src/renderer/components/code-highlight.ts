/**
 * A tiny syntax highlighter for code blocks in answers: keywords, strings, comments and numbers
 * for a few languages (JavaScript/TypeScript, Python, shell, SQL, JSON, the C family). Pure and
 * linear (sticky regular expressions, no slicing per position); the result is a list of tokens
 * the renderer wraps in spans — text stays text, there is no HTML path.
 */

/** What a piece of code is. */
export type TokenKind = 'keyword' | 'string' | 'comment' | 'number' | 'plain';

/** One piece of the code, in order; joining every `text` gives the code back. */
export interface Token {
  kind: TokenKind;
  text: string;
}

interface LanguageRules {
  keywords: ReadonlySet<string>;
  /** Keywords match whatever their case (SQL). */
  caseInsensitive?: boolean;
  lineComment: RegExp | null;
  blockComment: RegExp | null;
  string: RegExp;
}

/** Longest code highlighted; beyond it the block is shown plain (it still renders). */
export const MAX_HIGHLIGHT_CHARS = 100_000;

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/));

const QUOTED = String.raw`"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?`;
const C_BLOCK = /\/\*[\s\S]*?(?:\*\/|$)/y;

const JS: LanguageRules = {
  keywords: words(
    'async await break case catch class const continue debugger default delete do else enum export extends false finally for from function if implements import in instanceof interface let new null of private protected public readonly return static super switch this throw true try type typeof undefined var void while with yield as',
  ),
  lineComment: /\/\/[^\n]*/y,
  blockComment: C_BLOCK,
  string: new RegExp(String.raw`\x60(?:[^\x60\\]|\\[\s\S])*\x60?|${QUOTED}`, 'y'),
};

const PYTHON: LanguageRules = {
  keywords: words(
    'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case self print',
  ),
  lineComment: /#[^\n]*/y,
  blockComment: null,
  string: new RegExp(String.raw`"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|${QUOTED}`, 'y'),
};

const SHELL: LanguageRules = {
  keywords: words(
    'if then else elif fi for while until do done case esac function in return export local readonly set unset echo exit cd source alias sudo',
  ),
  lineComment: /(?<![\w$])#[^\n]*/y,
  blockComment: null,
  string: new RegExp(QUOTED, 'y'),
};

const SQL: LanguageRules = {
  keywords: words(
    'select from where and or not insert into values update set delete create table drop alter add index primary key foreign references join left right inner outer full on group by order having limit offset as distinct union all null is in like between case when then else end exists default unique view with asc desc returning',
  ),
  caseInsensitive: true,
  lineComment: /--[^\n]*/y,
  blockComment: C_BLOCK,
  string: new RegExp(QUOTED, 'y'),
};

const JSON_RULES: LanguageRules = {
  keywords: words('true false null'),
  lineComment: null,
  blockComment: null,
  string: new RegExp(QUOTED, 'y'),
};

const C_FAMILY: LanguageRules = {
  keywords: words(
    'auto bool break case catch char class const constexpr continue default delete do double else enum extern false final float fn for func go goto if impl import include int let long loop match mod mut namespace new nil null package private protected pub public return self short signed sizeof static string struct super switch template this throw true try typedef typename union unsigned use using var virtual void volatile where while defer chan interface map range select type',
  ),
  lineComment: /\/\/[^\n]*/y,
  blockComment: C_BLOCK,
  string: new RegExp(QUOTED, 'y'),
};

const LANGUAGES: Readonly<Record<string, LanguageRules>> = {
  js: JS,
  javascript: JS,
  jsx: JS,
  mjs: JS,
  ts: JS,
  typescript: JS,
  tsx: JS,
  py: PYTHON,
  python: PYTHON,
  python3: PYTHON,
  sh: SHELL,
  bash: SHELL,
  shell: SHELL,
  zsh: SHELL,
  console: SHELL,
  sql: SQL,
  sqlite: SQL,
  json: JSON_RULES,
  c: C_FAMILY,
  h: C_FAMILY,
  cpp: C_FAMILY,
  'c++': C_FAMILY,
  cs: C_FAMILY,
  csharp: C_FAMILY,
  java: C_FAMILY,
  go: C_FAMILY,
  rust: C_FAMILY,
  rs: C_FAMILY,
  kotlin: C_FAMILY,
  swift: C_FAMILY,
};

const NUMBER = /(?:0[xX][\da-fA-F_]+|0[bB][01_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)n?/y;
const WORD = /[A-Za-z_$][\w$]*/y;
/** Runs of characters that start no token (kept together as one plain piece). */
const OTHER = /[^A-Za-z_$\d"'`#/-]+|[\s\S]/y;

/** True when the language has rules (others are shown plain). */
export function isHighlighted(language: string): boolean {
  return Object.hasOwn(LANGUAGES, language.toLowerCase());
}

/** Splits `code` into tokens by the rules of `language` (unknown languages: one plain token). */
export function highlight(code: string, language: string): Token[] {
  const rules = LANGUAGES[language.toLowerCase()];
  if (!rules || code.length > MAX_HIGHLIGHT_CHARS)
    return code === '' ? [] : [{ kind: 'plain', text: code }];
  const tokens: Token[] = [];
  let index = 0;
  while (index < code.length) {
    const [kind, text] = nextToken(code, index, rules);
    push(tokens, kind, text);
    index += text.length;
  }
  return tokens;
}

/** The token at `index` (always at least one character). */
function nextToken(code: string, index: number, rules: LanguageRules): [TokenKind, string] {
  const at = (pattern: RegExp | null): string | null => {
    if (pattern === null) return null;
    pattern.lastIndex = index;
    const match = pattern.exec(code);
    return match && match[0] !== '' ? match[0] : null;
  };
  const comment = at(rules.blockComment) ?? at(rules.lineComment);
  if (comment !== null) return ['comment', comment];
  const string = at(rules.string);
  if (string !== null) return ['string', string];
  const word = at(WORD);
  if (word !== null) return [isKeyword(rules, word) ? 'keyword' : 'plain', word];
  const number = at(NUMBER);
  if (number !== null) return ['number', number];
  return ['plain', at(OTHER) ?? code.charAt(index)];
}

function isKeyword(rules: LanguageRules, word: string): boolean {
  return rules.keywords.has(rules.caseInsensitive ? word.toLowerCase() : word);
}

/** Appends, merging neighbouring plain pieces. */
function push(tokens: Token[], kind: TokenKind, text: string): void {
  const last = tokens[tokens.length - 1];
  if (last && last.kind === 'plain' && kind === 'plain') last.text += text;
  else tokens.push({ kind, text });
}
