/**
 * PDF text extraction (pdf.js, through unpdf's serverless build) in a worker thread. A hostile
 * PDF is CPU- and memory-bound work on attacker input: in a worker it gets its own heap limit
 * and is terminated at its deadline, instead of freezing the app's main process. The worker also
 * keeps pdf.js's global shims (navigator, DOMMatrix) out of the main realm. Script evaluation
 * inside pdf.js is off (isEvalSupported: false; the class of CVE-2024-4367).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PdfTextExtractor, PdfTextResult } from '../../core/ports';

/** 15 s: text extraction of a normal document takes well under a second per page. */
export const DEFAULT_PDF_TIMEOUT_MS = 15_000;
/** 50 pages: more text than the model is shown anyway; bounds the work on huge documents. */
export const DEFAULT_PDF_MAX_PAGES = 50;
/** 256 MB heap for the worker: enough for ordinary documents, fatal only to the worker. */
export const DEFAULT_PDF_MAX_HEAP_MB = 256;

export interface PdfTextExtractorOptions {
  timeoutMs?: number;
  maxPages?: number;
  maxHeapMb?: number;
}

/**
 * The worker's source. Plain JavaScript evaluated by the worker (no build step or extra file);
 * it imports pdf.js from the absolute URL the main thread resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const pdfjs = await import(workerData.moduleUrl);
  const task = pdfjs.getDocument({
    data: workerData.bytes,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
  });
  const document = await task.promise;
  const totalPages = document.numPages;
  const pages = [];
  for (let number = 1; number <= Math.min(totalPages, workerData.maxPages); number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    pages.push(content.items.map((item) => (item.str ?? '') + (item.hasEOL ? '\\n' : '')).join(''));
    page.cleanup();
  }
  let title = null;
  try {
    const metadata = await document.getMetadata();
    if (typeof metadata.info?.Title === 'string' && metadata.info.Title.trim() !== '') title = metadata.info.Title.trim();
  } catch {}
  parentPort.postMessage({ ok: true, pages, totalPages, title });
})().catch((error) => {
  parentPort.postMessage({ ok: false, error: String((error && error.message) || error).slice(0, 200) });
});
`;

export function createPdfTextExtractor(options: PdfTextExtractorOptions = {}): PdfTextExtractor {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PDF_TIMEOUT_MS;
  const maxPages = options.maxPages ?? DEFAULT_PDF_MAX_PAGES;
  const maxHeapMb = options.maxHeapMb ?? DEFAULT_PDF_MAX_HEAP_MB;
  // unpdf exports its pdf.js bundle for `import` only; find it beside the CommonJS entry. Found
  // at the first PDF: resolving a package costs every start that builds web_fetch (issue 24).
  let moduleUrl: string | null = null;
  return {
    extractText: (bytes, signal) => {
      signal.throwIfAborted();
      const pdfjsUrl = (moduleUrl ??= pathToFileURL(
        join(dirname(createRequire(import.meta.url).resolve('unpdf')), 'pdfjs.mjs'),
      ).href);
      return new Promise<PdfTextResult>((resolve, reject) => {
        // `node:worker_threads` at the first PDF, not at start-up.
        const { Worker } = process.getBuiltinModule('node:worker_threads');
        const worker = new Worker(WORKER_SOURCE, {
          eval: true,
          workerData: { bytes: Uint8Array.from(bytes), moduleUrl: pdfjsUrl, maxPages },
          resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 32 },
          stdout: true,
          stderr: true,
        });
        let settled = false;
        const finish = (outcome: () => void): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          void worker.terminate();
          outcome();
        };
        const onAbort = (): void => finish(() => reject(signal.reason));
        signal.addEventListener('abort', onAbort, { once: true });
        const timer = setTimeout(() => {
          finish(() =>
            resolve({ ok: false, error: `reading the PDF took longer than ${timeoutMs / 1000} s` }),
          );
        }, timeoutMs);
        // pdf.js warns on stdout about fonts and malformed objects; drain and drop it.
        worker.stdout.resume();
        worker.stderr.resume();
        worker.on('message', (message: unknown) => finish(() => resolve(toResult(message))));
        worker.on('error', (error) => {
          const reason =
            'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? 'it needed too much memory'
              : error.message.slice(0, 200);
          finish(() => resolve({ ok: false, error: `the PDF could not be read: ${reason}` }));
        });
        worker.on('exit', () =>
          finish(() => resolve({ ok: false, error: 'the PDF reader stopped unexpectedly' })),
        );
      });
    },
  };
}

/** Checks the worker's message field by field (it crosses a thread boundary as plain data). */
function toResult(message: unknown): PdfTextResult {
  if (typeof message !== 'object' || message === null)
    return { ok: false, error: 'the PDF reader answered nonsense' };
  const record = Object.fromEntries(Object.entries(message));
  if (record.ok === true && Array.isArray(record.pages)) {
    return {
      ok: true,
      pages: record.pages.map((page) => (typeof page === 'string' ? page : '')),
      totalPages: typeof record.totalPages === 'number' ? record.totalPages : record.pages.length,
      title: typeof record.title === 'string' ? record.title : null,
    };
  }
  const error = typeof record.error === 'string' ? record.error : 'unknown error';
  return { ok: false, error: `the PDF could not be read: ${error}` };
}
