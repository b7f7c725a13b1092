/**
 * What web_fetch makes of a fetched resource, by media type: HTML → main content as Markdown,
 * plain text / Markdown / CSV / XML → the text, JSON → pretty-printed, PDF → its text layer.
 * Anything else is refused before its body is downloaded (see `checkPageMediaType`).
 */
import type { PdfTextExtractor, WebResource } from '../core/ports';
import { fileFormatOf, markupKindOf } from '../../shared/file-signature';

export type PageKind = 'html' | 'text' | 'json' | 'pdf';

export interface PageContent {
  title: string | null;
  text: string;
  kind: PageKind;
}

/** What web_fetch asks servers for, in order of preference. */
export const PAGE_ACCEPT =
  'text/html, application/xhtml+xml, text/plain;q=0.9, application/json;q=0.9, application/pdf;q=0.8, text/*;q=0.7';

/** The kind a media type is read as, or null when web_fetch does not read it. */
export function pageKindOf(mediaType: string): PageKind | null {
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return 'json';
  if (mediaType === 'application/pdf') return 'pdf';
  if (mediaType.startsWith('text/')) return 'text';
  if (mediaType === 'application/xml' || mediaType.endsWith('+xml')) return 'text';
  return null;
}

/** Refusal message for a media type web_fetch cannot read; null when it can (or none given). */
export function checkPageMediaType(mediaType: string): string | null {
  if (mediaType === '' || pageKindOf(mediaType) !== null) return null;
  const hint = mediaType.startsWith('image/') ? ' (use fetch_image for images)' : '';
  return `unsupported content type ${mediaType.slice(0, 80)}: web_fetch reads HTML, plain text, JSON, XML and PDF${hint}`;
}

/** Turns a fetched resource into text for the model. Throws only on cancellation. */
export async function readPage(
  resource: WebResource,
  pdf: PdfTextExtractor,
  signal: AbortSignal,
): Promise<PageContent | { error: string }> {
  const kind = pageKindOf(resource.mediaType) ?? sniffKind(resource.body);
  if (kind === null)
    return { error: 'the content is binary and has no content type web_fetch reads' };
  if (kind === 'pdf') {
    const result = await pdf.extractText(resource.body, signal);
    if (!result.ok) return { error: result.error };
    const shown =
      result.pages.length < result.totalPages
        ? ` (first ${result.pages.length} of ${result.totalPages} pages)`
        : '';
    const text = result.pages
      .map((page) => page.trim())
      .filter((page) => page !== '')
      .join('\n\n');
    return {
      title: result.title,
      kind,
      text:
        text === ''
          ? `(the PDF has no text layer${shown}; it may be scanned images)`
          : `${text}${shown ? `\n\n[…${shown} …]` : ''}`,
    };
  }
  const decoded = decodeText(resource.body, resource.charset, kind === 'html');
  if (kind === 'html') {
    // linkedom and Readability load only when a page is read (they are slow to import).
    const { extractHtmlPage } = await import('./web-html-extract');
    const page = extractHtmlPage(decoded, resource.finalUrl);
    return { title: page.title, text: page.markdown, kind };
  }
  if (kind === 'json') return { title: null, text: prettyJson(decoded), kind };
  return { title: null, text: decoded, kind };
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** For a response without Content-Type: PDF and HTML by their first bytes, else text or nothing. */
function sniffKind(body: Uint8Array): PageKind | null {
  if (fileFormatOf(body) === 'pdf') return 'pdf';
  if (markupKindOf(body) === 'html') return 'html';
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(body.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith('{') || head.startsWith('[')) return 'json';
  return body.subarray(0, 4096).includes(0) ? null : 'text';
}

/**
 * Bytes → text: a byte-order mark wins, then the Content-Type charset, then (HTML) a
 * `<meta charset>` in the first 1024 bytes, then UTF-8. Unknown labels fall back to UTF-8.
 */
export function decodeText(body: Uint8Array, charset: string | null, isHtml: boolean): string {
  let label = charset ?? (isHtml ? metaCharset(body) : null) ?? 'utf-8';
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) label = 'utf-8';
  else if (body[0] === 0xff && body[1] === 0xfe) label = 'utf-16le';
  else if (body[0] === 0xfe && body[1] === 0xff) label = 'utf-16be';
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function metaCharset(body: Uint8Array): string | null {
  const head = Buffer.from(body.subarray(0, 1024)).toString('latin1');
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head);
  return match?.[1]?.toLowerCase() ?? null;
}
