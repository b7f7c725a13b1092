/**
 * The lazily loaded highlighter of `code-block.tsx`: lowlight over highlight.js's core, with
 * grammars registered one by one as code blocks need them (`loadGrammar`; each grammar is its
 * own chunk, see `code-highlighter-languages.ts`). It gives a syntax tree of spans around plain
 * text, turned here into React elements with `hljs-*` classes — never HTML.
 */
import type { ReactNode } from 'react';
import { createElement } from 'react';
import { createLowlight } from 'lowlight';
import type { LanguageFn } from 'highlight.js';
import type { LanguageName } from './code-highlighter-languages';
import { grammarName, grammarsFor } from './code-highlighter-languages';

/** Longer code is shown plain: highlighting is a nicety, not worth a long main-thread task. */
const MAX_HIGHLIGHT_CHARS = 200_000;

/** One literal `import()` per grammar: each is its own chunk. */
const GRAMMARS: Record<LanguageName, () => Promise<{ default: LanguageFn }>> = {
  arduino: () => import('highlight.js/lib/languages/arduino'),
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  clojure: () => import('highlight.js/lib/languages/clojure'),
  cmake: () => import('highlight.js/lib/languages/cmake'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  dart: () => import('highlight.js/lib/languages/dart'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  elixir: () => import('highlight.js/lib/languages/elixir'),
  erlang: () => import('highlight.js/lib/languages/erlang'),
  fsharp: () => import('highlight.js/lib/languages/fsharp'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  groovy: () => import('highlight.js/lib/languages/groovy'),
  haskell: () => import('highlight.js/lib/languages/haskell'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  julia: () => import('highlight.js/lib/languages/julia'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  latex: () => import('highlight.js/lib/languages/latex'),
  less: () => import('highlight.js/lib/languages/less'),
  llvm: () => import('highlight.js/lib/languages/llvm'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  matlab: () => import('highlight.js/lib/languages/matlab'),
  nginx: () => import('highlight.js/lib/languages/nginx'),
  nix: () => import('highlight.js/lib/languages/nix'),
  objectivec: () => import('highlight.js/lib/languages/objectivec'),
  ocaml: () => import('highlight.js/lib/languages/ocaml'),
  perl: () => import('highlight.js/lib/languages/perl'),
  php: () => import('highlight.js/lib/languages/php'),
  'php-template': () => import('highlight.js/lib/languages/php-template'),
  powershell: () => import('highlight.js/lib/languages/powershell'),
  protobuf: () => import('highlight.js/lib/languages/protobuf'),
  python: () => import('highlight.js/lib/languages/python'),
  'python-repl': () => import('highlight.js/lib/languages/python-repl'),
  r: () => import('highlight.js/lib/languages/r'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scala: () => import('highlight.js/lib/languages/scala'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  tcl: () => import('highlight.js/lib/languages/tcl'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  vbnet: () => import('highlight.js/lib/languages/vbnet'),
  vim: () => import('highlight.js/lib/languages/vim'),
  wasm: () => import('highlight.js/lib/languages/wasm'),
  x86asm: () => import('highlight.js/lib/languages/x86asm'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

const lowlight = createLowlight();
const loading = new Map<string, Promise<void>>();

/**
 * Loads and registers the grammar of `language` (a name or alias) and the grammars it embeds;
 * resolves to whether it can be highlighted now (false for a language we do not highlight).
 */
export async function loadGrammar(language: string): Promise<boolean> {
  const name = grammarName(language);
  if (name === null) return false;
  await Promise.all(grammarsFor(name).map(registerGrammar));
  return true;
}

/** The loader of grammar `name` (for the table's test). */
export function grammarLoader(name: LanguageName): () => Promise<{ default: LanguageFn }> {
  return GRAMMARS[name];
}

function registerGrammar(name: LanguageName): Promise<void> {
  let pending = loading.get(name);
  if (pending === undefined) {
    pending = GRAMMARS[name]().then((module) => lowlight.register(name, module.default));
    // A failed load (a chunk missing) is tried again by the next code block.
    pending.catch(() => loading.delete(name));
    loading.set(name, pending);
  }
  return pending;
}

/** Whether `language`'s grammar is registered (then `highlightCode` highlights it). */
export function grammarReady(language: string): boolean {
  const name = grammarName(language);
  return name !== null && lowlight.registered(name);
}

interface HastText {
  type: 'text';
  value: string;
}
interface HastElement {
  type: 'element';
  properties?: { className?: unknown };
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: 'comment' | 'doctype' };

/**
 * The highlighted code as React nodes, or null when the language's grammar is not loaded or
 * unknown (plain text).
 */
export function highlightCode(text: string, language: string): ReactNode[] | null {
  const name = grammarName(language);
  if (name === null || text.length > MAX_HIGHLIGHT_CHARS || !lowlight.registered(name)) return null;
  const tree = lowlight.highlight(name, text);
  return (tree.children as HastNode[]).map(toReact);
}

function toReact(node: HastNode, key: number): ReactNode {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return null;
  const classes = node.properties?.className;
  const className = Array.isArray(classes) ? classes.join(' ') : undefined;
  return createElement('span', { key, className }, ...node.children.map(toReact));
}
