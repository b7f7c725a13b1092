/**
 * The knowledge service over its adapters: the store from the app context, the folder on disk
 * (`adapters/knowledge/folder-files.ts`) and a PDF text extractor of its own, with room for a
 * whole document (the web tool's extractor reads 50 pages; a folder's PDF is read for all of it).
 */
import { createFolderFiles } from '../adapters/knowledge/folder-files';
import { createPdfTextExtractor } from '../adapters/fetch/pdf-text-extractor';
import type { IdGenerator, KnowledgeStore } from '../core/ports';
import { KnowledgeService } from '../services/knowledge/knowledge-service';

/** 2,000 pages, 60 s: a long book's text layer; the worker's heap limit still bounds it. */
const PDF_MAX_PAGES = 2000;
const PDF_TIMEOUT_MS = 60_000;

export function createKnowledgeService(context: {
  stores: { knowledge: KnowledgeStore };
  ids: IdGenerator;
}): KnowledgeService {
  return new KnowledgeService({
    store: context.stores.knowledge,
    files: createFolderFiles(),
    pdf: createPdfTextExtractor({ maxPages: PDF_MAX_PAGES, timeoutMs: PDF_TIMEOUT_MS }),
    ids: context.ids,
  });
}
