/**
 * What `app://aivory/…` answers: a file of the built renderer (read straight from disk, so no
 * `file:` request ever goes through the session's request filter), or in development the same
 * path from the Vite dev server. Every answer carries the CSP and `nosniff`. No Electron import:
 * tested under plain Node.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import {
  ARTIFACT_FRAME_HTML,
  artifactFrameHeaders,
  isArtifactFramePath,
} from '../../shared/artifact-frame';
import { appRequestFile, isAppUrl, rendererCsp } from './security';

/** Content types of the files a Vite build emits (module scripts need an exact JS type). */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** The content type of a renderer file by its extension. */
export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** The headers every app:// answer carries. */
function securityHeaders(devServerOrigin: string | null): Record<string, string> {
  return {
    'Content-Security-Policy': rendererCsp(devServerOrigin),
    'X-Content-Type-Options': 'nosniff',
  };
}

/** Answers an app:// request from the built renderer under `rendererRoot`. */
export async function serveAppFile(url: string, rendererRoot: string): Promise<Response> {
  if (isAppUrl(url) && isArtifactFramePath(url)) return artifactFrameResponse(url);
  const file = appRequestFile(url, rendererRoot);
  if (file === null) return notFound();
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return notFound();
  }
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: { 'Content-Type': contentTypeOf(file), ...securityHeaders(null) },
  });
}

/**
 * Development only (`npm run dev`): answers an app:// request with the same path from the Vite
 * dev server, so the page keeps its app:// origin (IPC sender checks unchanged) while Vite serves
 * modules and hot updates. The CSP is relaxed just enough for Vite (see `rendererCsp`).
 */
export async function proxyToDevServer(url: string, devServerOrigin: string): Promise<Response> {
  const { pathname, search } = new URL(url);
  const upstream = await fetch(`${devServerOrigin}${pathname}${search}`);
  const headers = new Headers(upstream.headers);
  // fetch already decoded the body: its encoding and length headers no longer apply.
  headers.delete('content-encoding');
  headers.delete('content-length');
  for (const [name, value] of Object.entries(securityHeaders(devServerOrigin))) {
    headers.set(name, value);
  }
  return new Response(upstream.body, { status: upstream.status, headers });
}

/** The artifact viewer's frame document, with its own CSP (`shared/artifact-frame.ts`). */
export function artifactFrameResponse(url = ''): Response {
  return new Response(ARTIFACT_FRAME_HTML, { status: 200, headers: artifactFrameHeaders(url) });
}

function notFound(): Response {
  return new Response('Not found', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', ...securityHeaders(null) },
  });
}
