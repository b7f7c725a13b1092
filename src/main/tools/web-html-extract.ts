/**
 * The readable part of an HTML page: Mozilla's Readability (Firefox Reader View) picks the main
 * content; when it finds none (index pages, apps, short pages) the whole body is used with the
 * usual chrome (nav, header, footer, aside, forms) removed. The result is Markdown with the
 * page's title and absolute links.
 */
import { Readability } from '@mozilla/readability';
import { ELEMENT_NODE, parseHtmlDocument } from './web-html-dom';
import type { DomDocument, DomElement, DomNode } from './web-html-dom';
import { htmlToMarkdown } from './web-html-to-markdown';

/**
 * Readability gives up beyond this many elements (it throws; the fallback is used): it runs on
 * the main thread and takes about a second at this size.
 */
export const MAX_READABILITY_ELEMENTS = 20_000;
/**
 * Readability's time grows roughly with the cube of nesting depth (measured: 400 levels 0.25 s,
 * 800 levels 1.3 s, 5000 levels never finishes), so deeper documents skip it.
 */
export const MAX_READABILITY_DEPTH = 256;
/** Below this much text Readability's pick is probably a fragment; the full body is better. */
const MIN_ARTICLE_CHARS = 200;
const CHROME_SELECTOR = 'nav, header, footer, aside, form, [role="navigation"], [role="banner"]';

export interface ExtractedPage {
  title: string | null;
  markdown: string;
}

/** Extracts the main content of `html`, fetched from `pageUrl`. */
export function extractHtmlPage(html: string, pageUrl: string): ExtractedPage {
  const base = documentBase(html, pageUrl);
  const parsed = parseHtmlDocument(html);
  const title = cleanTitle(parsed.title);
  // Readability rewrites the document it reads; the fallback parses a fresh copy.
  const article =
    nestingDepth(parsed.documentElement) <= MAX_READABILITY_DEPTH ? readArticle(parsed) : null;
  if (article && (article.element.textContent ?? '').trim().length >= MIN_ARTICLE_CHARS) {
    return {
      title: cleanTitle(article.title) ?? title,
      markdown: htmlToMarkdown(article.element, base),
    };
  }
  const document = parseHtmlDocument(html);
  const body = document.body ?? document.documentElement;
  if (!body) return { title, markdown: '' };
  for (const element of Array.from(body.querySelectorAll(CHROME_SELECTOR))) element.remove();
  return { title, markdown: htmlToMarkdown(body, base) };
}

function readArticle(document: DomDocument): { title: string | null; element: DomElement } | null {
  try {
    const reader = new Readability<DomElement>(document, {
      maxElemsToParse: MAX_READABILITY_ELEMENTS,
      // Keeps `language-…` on code blocks (the fence gets the language); classes are not output.
      keepClasses: true,
      serializer: (node) => node,
    });
    const result = reader.parse();
    if (!result?.content) return null;
    return { title: result.title ?? null, element: result.content };
  } catch {
    // Too many elements, or markup Readability cannot handle: the caller falls back.
    return null;
  }
}

/** The deepest element nesting under `root`, walked without recursion. */
function nestingDepth(root: DomNode | null): number {
  let deepest = 0;
  const pending: [DomNode, number][] = root ? [[root, 1]] : [];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    deepest = Math.max(deepest, depth);
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === ELEMENT_NODE) pending.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** The page URL, or the document's `<base href>` when that is an http(s) URL. */
function documentBase(html: string, pageUrl: string): URL {
  const page = new URL(pageUrl);
  const match = /<base\s[^>]*href\s*=\s*["']?([^"'\s>]+)/i.exec(html.slice(0, 20_000));
  if (!match?.[1]) return page;
  try {
    const base = new URL(match[1], page);
    return base.protocol === 'http:' || base.protocol === 'https:' ? base : page;
  } catch {
    return page;
  }
}

function cleanTitle(title: string | null | undefined): string | null {
  const cleaned = (title ?? '').replace(/\s+/g, ' ').trim();
  return cleaned === '' ? null : cleaned.slice(0, 300);
}
