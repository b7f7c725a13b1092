/**
 * A DOCX checked before mammoth sees it (pure: unit-tested; run in `docx-worker.ts`). mammoth
 * (jszip and xmldom) has no bound of its own: it inflates whatever the zip holds and builds a DOM of
 * the document, ~130 MB of memory per MB of paragraph markup under Node (a 176 KB file of
 * repeated paragraphs crashed the page in the attack). So the zip's directory is read first (every
 * entry's declared size against DOCX_LIMITS), every entry is inflated here under its cap and
 * counted while inflating (`zip-directory.ts`), the XML parts' elements are counted with the
 * streaming parser, and mammoth gets the same entries stored, not deflated: what it inflates is
 * then exactly what was counted.
 */
import { zipSync } from 'fflate';
import { decodedPieces, parseXml } from './office-zip';
import { WorkBudget } from './reader-limits';
import { inflateEntry, readZipDirectory } from './zip-directory';

export interface DocxLimits {
  /** Largest inflated entry (an XML part or a picture). */
  maxPartBytes: number;
  /** All entries inflated together (pictures become data: URLs in the page: 4/3 of this). */
  maxUnzippedBytes: number;
  /** Elements in the XML parts together (mammoth builds a DOM node, and more, for each). */
  maxNodes: number;
}

export const DOCX_LIMITS: DocxLimits = {
  maxPartBytes: 32 * 1024 * 1024,
  // Pictures are most of a document; as data: URLs they stay under MAX_DOCX_HTML_CHARS.
  maxUnzippedBytes: 64 * 1024 * 1024,
  // ~50,000 one-run paragraphs: ~400 MB peak for mammoth under Node (100,000 took 790 MB and
  // 300,000 2.6 GB); a 150-page report has a few thousand paragraphs and ~50,000 elements.
  maxNodes: 200_000,
};

/** The document's entries re-zipped stored, after every bound held; ReaderLimitError if not. */
export function prepareDocx(bytes: Uint8Array, limits: DocxLimits = DOCX_LIMITS): Uint8Array {
  const entries = readZipDirectory(bytes);
  const unzipped = new WorkBudget('unzipped', limits.maxUnzippedBytes);
  // Declared sizes first: a bomb that says what it is costs nothing.
  for (const entry of entries) unzipped.spend(entry.size);
  const nodes = new WorkBudget('nodes', limits.maxNodes);
  const files: Record<string, Uint8Array> = {};
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const data = inflateEntry(bytes, entry, limits.maxPartBytes);
    if (/\.(xml|rels)$/i.test(entry.name)) {
      parseXml(decodedPieces(data), { open: () => nodes.spend(1) });
    }
    files[entry.name] = data;
  }
  return zipSync(files, { level: 0 });
}
