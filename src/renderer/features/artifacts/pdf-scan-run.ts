/** Runs the PDF stream scan (`pdf-scan.ts`) in its worker for the PDF viewer. */
import type { PdfScanResponse } from './pdf-scan-worker';

/** The bytes back from the stream scan (`pdf-scan-worker.ts`, ended once it answers). */
export function scanPdf(bytes: Uint8Array<ArrayBuffer>): Promise<PdfScanResponse> {
  return new Promise((resolve, reject) => {
    const scanner = new Worker(new URL('./pdf-scan-worker.ts', import.meta.url), {
      type: 'module',
    });
    scanner.onmessage = (event: MessageEvent<PdfScanResponse>) => {
      scanner.terminate();
      resolve(event.data);
    };
    scanner.onerror = () => {
      scanner.terminate();
      reject(new Error('the PDF reader stopped'));
    };
    scanner.postMessage({ bytes: bytes.buffer }, [bytes.buffer]);
  });
}
