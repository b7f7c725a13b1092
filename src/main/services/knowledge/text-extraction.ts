/**
 * The text of a knowledge folder's file, from its bytes: decoded text (UTF-8, or UTF-16 with its
 * byte-order mark) for Markdown, plain text, code and CSV; HTML with its tags taken out and its
 * line numbers kept (a citation's lines are the source's); PDF pages through the app's PDF text
 * extractor (pdf.js in a worker thread, bounded in time and memory). Bytes that are not text
 * (a NUL byte, or many invalid UTF-8 sequences) are skipped whatever the name says.
 */
import { fileFormatOf } from '../../../shared/file-signature';
import type { PdfTextExtractor } from '../../core/ports';
import { decodeEntities } from '../../tools/search-backends/clean-text';
import type { KnowledgeKind } from './file-kinds';

/** More than this share of undecodable characters: not text (a stray Latin-1 byte is fine). */
const MAX_REPLACEMENT_SHARE = 0.01;

export type Extracted =
  | { ok: true; text: string }
  | { ok: true; pages: string[]; note: string | null }
  | { ok: false; status: 'skipped' | 'failed'; reason: string };

export async function extractText(
  kind: KnowledgeKind,
  bytes: Uint8Array,
  pdf: PdfTextExtractor,
  signal: AbortSignal,
): Promise<Extracted> {
  if (kind === 'pdf') return extractPdf(bytes, pdf, signal);
  const text = decodeText(bytes);
  if (text === null) return { ok: false, status: 'skipped', reason: notText(bytes) };
  return { ok: true, text: kind === 'html' ? htmlText(text) : text };
}

async function extractPdf(
  bytes: Uint8Array,
  pdf: PdfTextExtractor,
  signal: AbortSignal,
): Promise<Extracted> {
  if (fileFormatOf(bytes.subarray(0, 4096)) !== 'pdf') {
    return { ok: false, status: 'failed', reason: 'not a PDF: the file does not start as one' };
  }
  const result = await pdf.extractText(bytes, signal);
  if (!result.ok) {
    return { ok: false, status: 'failed', reason: `the PDF could not be read (${result.error})` };
  }
  if (result.pages.every((page) => page.trim() === '')) {
    return {
      ok: false,
      status: 'skipped',
      reason: 'no text in the PDF (scanned pages are images; text recognition is not done)',
    };
  }
  const note =
    result.totalPages > result.pages.length
      ? `first ${result.pages.length} of ${result.totalPages} pages indexed`
      : null;
  return { ok: true, pages: result.pages, note };
}

/** The bytes as text, or null when they are not text. */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  if (bytes.includes(0)) return null;
  const text = new TextDecoder('utf-8').decode(bytes);
  let replaced = 0;
  for (let index = text.indexOf('\uFFFD'); index !== -1; index = text.indexOf('\uFFFD', index + 1))
    replaced += 1;
  return replaced > text.length * MAX_REPLACEMENT_SHARE ? null : text;
}

function notText(bytes: Uint8Array): string {
  const format = fileFormatOf(bytes.subarray(0, 4096));
  return format === null
    ? 'not text: binary bytes under a text name'
    : `not text: the bytes are ${format.toUpperCase()} under a text name`;
}

/**
 * HTML's text with the line structure of its source: scripts, styles and comments become the
 * line breaks they held, every tag a space (or its line breaks), common entities decoded.
 */
export function htmlText(html: string): string {
  const breaksOnly = (part: string): string => part.replace(/[^\n]/g, '');
  return html
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, breaksOnly)
    .replace(/<!--[\s\S]*?-->/g, breaksOnly)
    .replace(/<[^>]*>/g, (tag) => breaksOnly(tag) || ' ')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity) => decodeEntities(entity));
}
