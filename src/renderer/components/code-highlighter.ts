/**
 * The lazily loaded highlighter of `code-block.tsx`: lowlight (highlight.js grammars, the
 * `common` set of ~37 languages) gives a syntax tree of spans around plain text, turned here into
 * React elements with `hljs-*` classes — never HTML. Loaded as its own chunk at the first code
 * block that names a language.
 */
import type { ReactNode } from 'react';
import { createElement } from 'react';
import { common, createLowlight } from 'lowlight';

/** Longer code is shown plain: highlighting is a nicety, not worth a long main-thread task. */
const MAX_HIGHLIGHT_CHARS = 200_000;

const lowlight = createLowlight(common);

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

/** The highlighted code as React nodes, or null when the language is unknown (plain text). */
export function highlightCode(text: string, language: string): ReactNode[] | null {
  const name = language.toLowerCase();
  if (name === '' || text.length > MAX_HIGHLIGHT_CHARS || !lowlight.registered(name)) return null;
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
