/**
 * Serves the built renderer (`out/renderer`) read-only: GET/HEAD only, paths confined to the
 * root (no `..`, no symlinks out), unknown paths fall back to `index.html`, and every response
 * carries the CSP and the no-sniff / no-frame headers.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, resolve, sep } from 'node:path';
import { ARTIFACT_FRAME_HTML, artifactFrameHeaders } from '../../../shared/artifact-frame';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The browser host's CSP: scripts and styles from the app only, images from the app, data/blob
 * URLs and — only after the user clicked "load image" in a message — https; connections to the
 * app's own origin (its WebSocket, `/files` for the artifact viewer) only; frames of the app's
 * own origin only (the artifact frame); no objects, forms or base changes.
 */
export function browserHostCsp(origin: string): string {
  const socket = origin.replace(/^http/, 'ws');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    `connect-src 'self' ${socket}`,
    // The artifact viewer's sandboxed frame (shared/artifact-frame.ts), and nothing else: a
    // page in it cannot navigate itself away to another origin.
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** Writes the security headers every response of the host carries. */
export function setSecurityHeaders(response: ServerResponse, origin: string): void {
  response.setHeader('Content-Security-Policy', browserHostCsp(origin));
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/**
 * Answers the artifact viewer's frame document (`shared/artifact-frame.ts`) with its own CSP in
 * place of the app's, and without the no-framing header (the app frames it).
 */
export function serveArtifactFrame(request: IncomingMessage, response: ServerResponse): void {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  response.removeHeader('X-Frame-Options');
  // `?scripts=none`: the scriptless variant (its CSP runs the bootstrap alone).
  response.writeHead(200, artifactFrameHeaders(request.url ?? ''));
  response.end(request.method === 'HEAD' ? undefined : ARTIFACT_FRAME_HTML);
}

/** Answers one static request from `root`. */
export async function serveStatic(
  root: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const pathname = safePathname(request.url ?? '/');
  const file = pathname === null ? null : await resolveFile(root, pathname);
  const target = file ?? (await resolveFile(root, '/index.html'));
  if (target === null) {
    response
      .writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' })
      .end("The app's interface is missing from this build. Run: npm run build\n");
    return;
  }
  const type = CONTENT_TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream';
  response.writeHead(200, {
    'Content-Type': type,
    'Cache-Control': type.startsWith('text/html') ? 'no-store' : 'no-cache',
  });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(target)
    .on('error', () => response.destroy())
    .pipe(response);
}

/** The decoded pathname, or null for anything odd (NUL bytes, backslashes, bad escapes). */
function safePathname(url: string): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, 'http://host').pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  return pathname === '/' ? '/index.html' : pathname;
}

/** The real path of a regular file inside `root`, or null. */
async function resolveFile(root: string, pathname: string): Promise<string | null> {
  try {
    const realRoot = await realpath(root);
    const candidate = await realpath(resolve(join(realRoot, pathname)));
    const inside = relative(realRoot, candidate);
    if (inside === '' || inside.startsWith('..') || inside.startsWith(sep)) return null;
    return (await stat(candidate)).isFile() ? candidate : null;
  } catch {
    return null;
  }
}
