/**
 * The Markdown parser of model output: markdown-it (CommonMark + GFM tables, strikethrough and
 * bare-URL links) with `@mdit/plugin-tex` (`$…$`, `$$…$$`) and `@mdit/plugin-tasklist`
 * (`- [ ]`, `- [x]`). It only produces tokens; `markdown-render.tsx` turns them into React
 * elements, so no HTML string is ever built. The safety rules are the parser's options:
 *
 * - `html: false`: raw HTML is not parsed, it stays literal text (escaped by React);
 * - `validateLink`: a link or image destination is kept only for an allow-listed scheme
 *   (`isSafeLink`: http, https, mailto); anything else stays text;
 * - `maxNesting` (100): markdown-it's guard; what lies deeper than 100 levels of quotes, lists or
 *   emphasis is cut, so a pathological document cannot blow the stack or the time.
 *
 * markdown-it runs in time linear in the input, including the pathological cases of the
 * CommonMark suite (unclosed emphasis, deep nesting, long tables): `bench/markdown.ts` measures it.
 * (The unified/micromark pipeline was measured first and rejected: 80 KB of `*a_` took 72 s and
 * 20,000 nested `>` overflowed the stack.)
 */
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { tex } from '@mdit/plugin-tex';
import { tasklist } from '@mdit/plugin-tasklist';

export type { Token };

/** Deepest block/inline nesting parsed as structure (lists, quotes, emphasis). */
const MAX_NESTING = 100;

/** Link schemes that become links; everything else (javascript:, data:, file:, …) stays text. */
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;

/** True for a destination the renderer may turn into a link: http(s) URLs and mailto. */
export function isSafeLink(href: string): boolean {
  return SAFE_LINK.test(href.trim());
}

function createParser(): MarkdownIt {
  const md = new MarkdownIt('default', {
    html: false,
    linkify: true,
    typographer: false,
    breaks: false,
  });
  // Read by markdown-it's block and inline parsers (not in its typed Options).
  Object.assign(md.options, { maxNesting: MAX_NESTING });
  // Images are checked again when shown (https only, click to load): allow their URL through.
  md.validateLink = (url) => isSafeLink(url);
  // Only scheme-bearing bare URLs become links (no "example.com" guesses, no fuzzy e-mails).
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  // Rendering math is done by `MathFormula`; the plugin only needs a renderer to register.
  md.use(tex, { render: (content: string) => content, allowInlineWithSpace: false });
  md.use(tasklist, { disabled: true, label: false });
  return md;
}

const parser = createParser();

/** The block-level token stream of `source` (inline tokens carry their `children`). */
export function parseMarkdownTokens(source: string): Token[] {
  return parser.parse(source, {});
}

/**
 * Body rows of a table parsed (and shown) until the user asks for all of them. A table of tens of
 * thousands of rows is mostly what a chat answer cannot be read as anyway; parsing it all costs
 * several times the rest of a long answer (markdown-it makes ~6 tokens per cell: `bench/markdown`).
 */
export const TABLE_PREVIEW_ROWS = 500;

/** A GFM table's delimiter row: `|:--|--:|---|` and the like. */
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * A chunk's tokens, with a long table cut: when the chunk is one GFM table (header, delimiter,
 * then only rows with a `|`) of more than `TABLE_PREVIEW_ROWS` body rows and `allRows` is not
 * set, only the first rows are parsed and `hiddenRows` says how many were left out.
 */
export function parseMarkdownChunk(
  source: string,
  allRows = false,
): { tokens: Token[]; hiddenRows: number } {
  const cut = allRows ? null : previewOfLongTable(source);
  if (cut === null) return { tokens: parseMarkdownTokens(source), hiddenRows: 0 };
  return { tokens: parseMarkdownTokens(cut.preview), hiddenRows: cut.hiddenRows };
}

function previewOfLongTable(source: string): { preview: string; hiddenRows: number } | null {
  // Cheap refusals first: most chunks are not tables, and a short one is parsed whole.
  if (!source.includes('|') || source.length < TABLE_PREVIEW_ROWS * 4) return null;
  const lines = source.replace(/\n+$/, '').split('\n');
  const bodyRows = lines.length - 2;
  if (bodyRows <= TABLE_PREVIEW_ROWS) return null;
  if (!lines[0]?.includes('|') || !TABLE_DELIMITER.test(lines[1] ?? '')) return null;
  if (!lines.every((line) => line.includes('|'))) return null;
  return {
    preview: lines.slice(0, 2 + TABLE_PREVIEW_ROWS).join('\n'),
    hiddenRows: bodyRows - TABLE_PREVIEW_ROWS,
  };
}
