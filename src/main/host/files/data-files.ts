/**
 * The files of the data directory the UI may hand out: tool artifacts (`artifacts/`, or
 * AIVORY_ARTIFACTS_DIR), the copies of attachments (`uploads/`) and conversation exports
 * (`exports/`). A path is served only when
 * both the path as given and its real path (symlinks resolved) lie inside one of those folders and
 * it names a regular file; everything else — `..`, symlinks out, other absolute paths, missing
 * files — is refused the same way. Shared by `aivory serve`'s `/files` route, the Electron
 * `app://aivory/files` handler and `files.open` / `files.reveal`.
 */
import { open, realpath } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { appExportsFolder } from '../../services/export-file';
import { mimeTypeForFileName, sniffMimeType } from '../../services/mime-types';

/** Raster image types shown inline (SVG can carry script: it is only ever downloaded). */
const INLINE_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
]);
/** Bytes read to check an image's magic number. */
const SNIFF_BYTES = 16;

/** The folders whose files the UI may open: artifacts, uploads, then the app's exports. */
export function dataFileRoots(dataDir: string, env: Record<string, string | undefined>): string[] {
  return [
    env.AIVORY_ARTIFACTS_DIR ?? join(dataDir, 'artifacts'),
    join(dataDir, 'uploads'),
    appExportsFolder(dataDir),
  ];
}

/** True when `path` lies strictly inside `root` (both already absolute and normalised). */
function inside(root: string, path: string): boolean {
  const rest = relative(root, path);
  return rest !== '' && !rest.startsWith('..') && !isAbsolute(rest);
}

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}

/** The real path of the regular file `path` names inside one of `roots`, or null. */
export async function resolveDataFile(
  roots: readonly string[],
  path: string,
): Promise<string | null> {
  if (path === '' || path.includes('\0') || !isAbsolute(path)) return null;
  const requested = resolve(path);
  const real = await realOrNull(requested);
  if (real === null) return null;
  for (const root of roots) {
    const realRoot = await realOrNull(root);
    if (realRoot === null) continue;
    const lexicallyInside = inside(resolve(root), requested) || inside(realRoot, requested);
    if (lexicallyInside && inside(realRoot, real) && (await isRegularFile(real))) return real;
  }
  return null;
}

async function isRegularFile(path: string): Promise<boolean> {
  try {
    const handle = await open(path, 'r');
    try {
      return (await handle.stat()).isFile();
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** How one file is sent: its type, whether it shows inline, and the response headers. */
export interface DataFileHeaders {
  contentType: string;
  inline: boolean;
  headers: Record<string, string>;
}

/**
 * The headers of a served data file. Raster images whose bytes match their name are inline
 * unless `download` is asked; every other file (SVG, HTML, text, …) is an attachment. The
 * response may never be sniffed or run script (`nosniff`, a sandboxing CSP).
 */
export async function dataFileHeaders(
  path: string,
  size: number,
  download: boolean,
): Promise<DataFileHeaders> {
  const name = basename(path);
  const byName = mimeTypeForFileName(name);
  // The bytes alone decide (an empty name has no extension to fall back on).
  const head = await readHead(path);
  const inline = !download && INLINE_IMAGE_TYPES.has(byName) && sniffMimeType('', head) === byName;
  const contentType = byName.startsWith('text/') ? `${byName}; charset=utf-8` : byName;
  return {
    contentType,
    inline,
    headers: {
      'Content-Type': contentType,
      'Content-Length': String(size),
      'Content-Disposition': contentDisposition(name, inline),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'private, no-cache',
    },
  };
}

/** The first `bytes` bytes of a file (fewer when it is shorter). */
export async function readHead(path: string, bytes: number = SNIFF_BYTES): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = new Uint8Array(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** `inline`, or `attachment` with an ASCII fallback name and the UTF-8 name (RFC 6266/5987). */
export function contentDisposition(name: string, inline: boolean): string {
  if (inline) return 'inline';
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
