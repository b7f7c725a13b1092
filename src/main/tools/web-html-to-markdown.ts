/**
 * Converts extracted page content (a DOM subtree) to Markdown for the model: headings,
 * paragraphs, lists, tables, code, quotes, emphasis, and links and images made absolute against
 * the page URL. Only http(s) and mailto links survive (javascript:, data: and the like become
 * plain text). Hidden elements are dropped: text a reader cannot see is a classic carrier for
 * prompt injection.
 */
import { isElement, tagName, TEXT_NODE } from './web-html-dom';
import type { DomElement, DomNode } from './web-html-dom';

/** Deeper nesting is rendered as plain text: bounds recursion on hostile markup. */
const MAX_DEPTH = 150;

const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'canvas',
  'iframe',
  'object',
  'embed',
  'head',
  'button',
  'input',
  'select',
  'textarea',
  'option',
  'dialog',
  'video',
  'audio',
  'map',
]);
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'nav',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'dl',
  'dt',
  'dd',
  'form',
  'fieldset',
  'center',
  'body',
  'html',
]);

interface Context {
  base: URL;
  depth: number;
  listDepth: number;
}

/** Markdown for `root` and its descendants. */
export function htmlToMarkdown(root: DomNode, base: URL): string {
  const raw = render(root, { base, depth: 0, listDepth: 0 });
  return tidy(raw);
}

function render(node: DomNode, context: Context): string {
  if (node.nodeType === TEXT_NODE) return (node.textContent ?? '').replace(/\s+/g, ' ');
  if (!isElement(node)) return children(node, context);
  if (context.depth > MAX_DEPTH) return ` ${(node.textContent ?? '').replace(/\s+/g, ' ')} `;
  const tag = tagName(node);
  if (SKIPPED.has(tag) || isHidden(node)) return '';
  const inner = (): string => children(node, { ...context, depth: context.depth + 1 });
  const heading = /^h([1-6])$/.exec(tag);
  if (heading) return block(`${'#'.repeat(Number(heading[1]))} ${inline(inner())}`);
  if (BLOCKS.has(tag)) return block(inner());
  switch (tag) {
    case 'br':
      return '\n';
    case 'hr':
      return block('---');
    case 'a':
      return link(node, inner(), context.base);
    case 'img':
      return image(node, context.base);
    case 'strong':
    case 'b':
      return wrap(inner(), '**');
    case 'em':
    case 'i':
      return wrap(inner(), '*');
    case 'del':
    case 's':
    case 'strike':
      return wrap(inner(), '~~');
    case 'code':
      return code(node.textContent ?? '');
    case 'pre':
      return preformatted(node);
    case 'blockquote':
      return block(
        tidy(inner())
          .split('\n')
          .map((line) => `> ${line}`.trimEnd())
          .join('\n'),
      );
    case 'ul':
    case 'ol':
      return list(node, tag === 'ol', context);
    case 'table':
      return table(node, context);
    default:
      return inner();
  }
}

function children(node: DomNode, context: Context): string {
  let text = '';
  for (const child of Array.from(node.childNodes)) text += render(child, context);
  return text;
}

function isHidden(element: DomElement): boolean {
  if (element.getAttribute('hidden') !== null) return true;
  if (element.getAttribute('aria-hidden') === 'true') return true;
  const style = (element.getAttribute('style') ?? '').toLowerCase().replace(/\s+/g, '');
  return style.includes('display:none') || style.includes('visibility:hidden');
}

const block = (text: string): string => (text.trim() === '' ? '' : `\n\n${text.trim()}\n\n`);
const inline = (text: string): string => text.replace(/\s+/g, ' ').trim();

function wrap(text: string, marker: string): string {
  const content = inline(text);
  return content === '' ? '' : ` ${marker}${content}${marker} `;
}

function code(text: string): string {
  const content = text.replace(/\s+/g, ' ').trim();
  if (content === '') return '';
  const fence = content.includes('`') ? '``' : '`';
  return `${fence}${content}${fence}`;
}

function preformatted(element: DomElement): string {
  const text = (element.textContent ?? '').replace(/\n+$/, '');
  const codeElement = element.querySelectorAll('code')[0];
  const language = /language-([\w+-]+)/.exec(codeElement?.getAttribute('class') ?? '')?.[1] ?? '';
  const fence = text.includes('```') ? '~~~~' : '```';
  return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
}

/** An absolute http(s) or mailto URL, escaped for Markdown; null for anything else. */
export function safeUrl(reference: string | null, base: URL): string | null {
  if (!reference || reference.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(reference.trim(), base);
  } catch {
    return null;
  }
  if (!['http:', 'https:', 'mailto:'].includes(url.protocol)) return null;
  return url.href.replace(/\(/g, '%28').replace(/\)/g, '%29');
}

function link(element: DomElement, content: string, base: URL): string {
  const text = inline(content);
  const target = safeUrl(element.getAttribute('href'), base);
  if (text === '') return '';
  if (target === null || target.startsWith(`${base.href.split('#')[0]}#`)) return ` ${text} `;
  return ` [${text.replace(/([[\]])/g, '\\$1')}](${target}) `;
}

function image(element: DomElement, base: URL): string {
  const alt = inline(element.getAttribute('alt') ?? '').replace(/([[\]])/g, '\\$1');
  const source = safeUrl(element.getAttribute('src'), base);
  if (source === null || source.startsWith('mailto:')) return alt === '' ? '' : ` ${alt} `;
  return ` ![${alt}](${source}) `;
}

function list(element: DomElement, ordered: boolean, context: Context): string {
  const nested: Context = {
    ...context,
    depth: context.depth + 1,
    listDepth: context.listDepth + 1,
  };
  const items = Array.from(element.childNodes).filter(
    (child) => isElement(child) && tagName(child) === 'li',
  );
  const lines = items.map((item, index) => {
    const marker = ordered ? `${index + 1}.` : '-';
    const body = tidy(children(item, nested));
    const [first = '', ...rest] = body.split('\n');
    // Continuation lines (nested lists, later paragraphs) line up under the item's text.
    const indent = ' '.repeat(marker.length + 1);
    const continuation = rest.map((line) => (line === '' ? '' : `${indent}${line}`));
    return [`${marker} ${first}`, ...continuation].join('\n');
  });
  const text = lines.filter((line) => line.trim() !== '').join('\n');
  return context.listDepth > 0 ? `\n${text}\n` : block(text);
}

function table(element: DomElement, context: Context): string {
  const rows = Array.from(element.querySelectorAll('tr')).map((row) =>
    Array.from(row.childNodes)
      .filter((cell) => isElement(cell) && ['td', 'th'].includes(tagName(cell)))
      .map((cell) =>
        inline(children(cell, { ...context, depth: context.depth + 1 })).replace(/\|/g, '\\|'),
      ),
  );
  const width = Math.max(0, ...rows.map((row) => row.length));
  if (width === 0) return '';
  const pad = (row: string[]): string =>
    `| ${[...row, ...new Array<string>(width - row.length).fill('')].join(' | ')} |`;
  const [header = [], ...body] = rows;
  return block([pad(header), `|${' --- |'.repeat(width)}`, ...body.map(pad)].join('\n'));
}

/** Normalises spacing: no trailing spaces, no runs of blank lines, stray indentation removed. */
function tidy(text: string): string {
  const lines: string[] = [];
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~~)/.test(line)) inFence = !inFence;
    if (inFence || /^(```|~~~~)/.test(line)) {
      lines.push(line.trimEnd());
      continue;
    }
    const isListLine = /^\s+(-|\d+\.) /.test(line);
    const cleaned = (isListLine ? line : line.trimStart()).replace(/(\S) {2,}/g, '$1 ').trimEnd();
    lines.push(cleaned);
  }
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
