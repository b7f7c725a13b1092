/** Runs the PDF stream scan (`pdf-scan.ts`) in its worker for the PDF viewer. */
import type { PdfScanResponse } from './pdf-scan-worker';

/**
 * The bytes back from the stream scan (`pdf-scan-worker.ts`, ended once it answers). Closing the
 * viewer (`signal`) ends the worker at once: a scan of a large stream would otherwise go on
 * inflating in the page's process after nobody waits for it.
 */
export function scanPdf(
  bytes: Uint8Array<ArrayBuffer>,
  signal: AbortSignal,
): Promise<PdfScanResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const scanner = new Worker(new URL('./pdf-scan-worker.ts', import.meta.url), {
      type: 'module',
    });
    const end = (): void => {
      scanner.terminate();
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      end();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    scanner.onmessage = (event: MessageEvent<PdfScanResponse>) => {
      end();
      resolve(event.data);
    };
    scanner.onerror = () => {
      end();
      reject(new Error('the PDF reader stopped'));
    };
    scanner.postMessage({ bytes: bytes.buffer }, [bytes.buffer]);
  });
}
