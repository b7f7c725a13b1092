/**
 * A small Markdown parser for model output, to a tree the renderer turns into React elements (so
 * every string is escaped by React: there is no HTML path at all). Covers what chat answers use:
 * paragraphs, headings, fenced code, lists, quotes, rules; inline code, bold, italic, links,
 * images and bare URLs. Raw HTML stays literal text.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'image'; src: string; alt: string };

/** A block-level node. */
export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'code'; language: string; text: string }
  | { type: 'list'; ordered: boolean; items: Inline[][] }
  | { type: 'quote'; children: Block[] }
  | { type: 'rule' };

const FENCE = /^(\s{0,3})(`{3,}|~{3,})\s*([\w+#.-]*)\s*$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const ORDERED = /^\s{0,3}\d{1,9}[.)]\s+(.*)$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

/** Parses a whole document into blocks. */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    const fence = FENCE.exec(line);
    if (line.trim() === '') {
      index += 1;
    } else if (fence) {
      const marker = fence[2] ?? '```';
      const body: string[] = [];
      index += 1;
      while (index < lines.length && !(lines[index] ?? '').trim().startsWith(marker)) {
        body.push(lines[index] ?? '');
        index += 1;
      }
      index += 1;
      blocks.push({ type: 'code', language: fence[3] ?? '', text: body.join('\n') });
    } else if (HEADING.test(line)) {
      const [, hashes = '#', text = ''] = HEADING.exec(line) ?? [];
      blocks.push({ type: 'heading', level: hashes.length, children: parseInline(text) });
      index += 1;
    } else if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      index += 1;
    } else if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length && QUOTE.test(lines[index] ?? '')) {
        quoted.push(QUOTE.exec(lines[index] ?? '')?.[1] ?? '');
        index += 1;
      }
      blocks.push({ type: 'quote', children: parseMarkdown(quoted.join('\n')) });
    } else if (BULLET.test(line) || ORDERED.test(line)) {
      const ordered = !BULLET.test(line);
      const pattern = ordered ? ORDERED : BULLET;
      const items: Inline[][] = [];
      while (index < lines.length && pattern.test(lines[index] ?? '')) {
        items.push(parseInline(pattern.exec(lines[index] ?? '')?.[1] ?? ''));
        index += 1;
      }
      blocks.push({ type: 'list', ordered, items });
    } else {
      const paragraph: string[] = [];
      while (index < lines.length && startsParagraphLine(lines[index] ?? '')) {
        paragraph.push(lines[index] ?? '');
        index += 1;
      }
      blocks.push({ type: 'paragraph', children: parseInline(paragraph.join('\n')) });
    }
  }
  return blocks;
}

function startsParagraphLine(line: string): boolean {
  if (line.trim() === '') return false;
  return ![FENCE, HEADING, BULLET, ORDERED, RULE, QUOTE].some((pattern) => pattern.test(line));
}

/** Inline patterns, tried at each position in this order. */
const INLINE_RULES: { pattern: RegExp; build(match: RegExpExecArray): Inline }[] = [
  { pattern: /^`([^`]+)`/, build: (match) => ({ type: 'code', text: match[1] ?? '' }) },
  {
    pattern: /^!\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/,
    build: (match) => ({ type: 'image', alt: match[1] ?? '', src: match[2] ?? '' }),
  },
  {
    pattern: /^\[([^\]]+)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/,
    build: (match) => ({
      type: 'link',
      href: match[2] ?? '',
      children: parseInline(match[1] ?? ''),
    }),
  },
  {
    pattern: /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/,
    build: (match) => ({ type: 'strong', children: parseInline(match[2] ?? '') }),
  },
  {
    pattern: /^(\*|_)(?=\S)([\s\S]*?\S)\1(?!\1)/,
    build: (match) => ({ type: 'em', children: parseInline(match[2] ?? '') }),
  },
  {
    pattern: /^https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/,
    build: (match) => ({
      type: 'link',
      href: match[0],
      children: [{ type: 'text', text: match[0] }],
    }),
  },
];

/** Parses inline text; anything not matched is literal text. */
export function parseInline(text: string): Inline[] {
  const nodes: Inline[] = [];
  let plain = '';
  let index = 0;
  while (index < text.length) {
    const rest = text.slice(index);
    // `_` inside a word (snake_case) is never emphasis.
    const intraword = rest.startsWith('_') && /[\p{L}\p{N}]/u.test(text[index - 1] ?? '');
    const rule =
      !intraword && /^[`![*_h]/.test(rest)
        ? INLINE_RULES.map((candidate) => ({
            candidate,
            match: candidate.pattern.exec(rest),
          })).find((entry) => entry.match !== null)
        : undefined;
    if (rule?.match) {
      if (plain !== '') nodes.push({ type: 'text', text: plain });
      plain = '';
      nodes.push(rule.candidate.build(rule.match));
      index += rule.match[0].length;
    } else {
      plain += text[index];
      index += 1;
    }
  }
  if (plain !== '') nodes.push({ type: 'text', text: plain });
  return nodes;
}

/** True for URLs a link may open: http, https and mailto only. */
export function isSafeLink(href: string): boolean {
  return /^(https?:\/\/|mailto:)/i.test(href.trim());
}
