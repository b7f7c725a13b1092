/**
 * Measures a PDF's compressed streams off the main thread (`pdf-scan.ts`) before pdf.js opens it,
 * and hands the bytes back (transferred) when they are within bounds.
 */
import { checkPdfStreams } from './pdf-scan';
import type { ReaderLimit } from './reader-limits';
import { readerLimitOf } from './reader-limits';

export type PdfScanResponse =
  { type: 'ok'; bytes: ArrayBuffer } | { type: 'too-large'; limit: ReaderLimit };

const scope = self as unknown as {
  postMessage(message: PdfScanResponse, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<{ bytes: ArrayBuffer }>) => void) | null;
};

scope.onmessage = (event) => {
  const { bytes } = event.data;
  try {
    checkPdfStreams(new Uint8Array(bytes));
  } catch (error) {
    const limit = readerLimitOf(error);
    if (limit !== null) {
      scope.postMessage({ type: 'too-large', limit });
      return;
    }
  }
  // Anything else is pdf.js's to judge (a damaged file says so there).
  scope.postMessage({ type: 'ok', bytes }, [bytes]);
};
