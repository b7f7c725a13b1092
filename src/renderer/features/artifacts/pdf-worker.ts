/**
 * pdf.js's own worker (parsing, fonts, images), bundled by the build as a module worker of the
 * app's origin (`script-src 'self'` allows it under both hosts' CSP; no CDN, no blob: URL). The
 * worker module installs its message handler on this scope when it loads; `pdf-viewer.tsx` hands
 * this worker to pdf.js as its port.
 */
import 'pdfjs-dist/build/pdf.worker.min.mjs';
