/**
 * What a file is by its first bytes alone: the one place the app decides "these bytes are a PNG",
 * "a PDF", "an MP4", "an HTML page" (attachments and their types, tool, MCP, generated and web
 * images, web pages without a type, the desktop's Open, the composer's vision hint). A renamed
 * file is what its bytes say; a name or a declared type is never trusted for this. SVG is not a
 * raster image here: it is a document that can carry scripts.
 */

export type RasterFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp';

export const RASTER_MEDIA_TYPES: Readonly<Record<RasterFormat, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
};

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

/**
 * The format of `bytes` from their first 12, or null. BMP's two-letter signature ("BM") is weak,
 * so it counts only where BMP is accepted (`bmp: true`: images fetched from the web).
 */
export function rasterFormatOf(
  bytes: Uint8Array,
  options: { bmp?: boolean } = {},
): RasterFormat | null {
  const startsWith = (signature: readonly number[], at = 0): boolean =>
    bytes.length >= at + signature.length &&
    signature.every((byte, index) => bytes[at + index] === byte);
  const ascii = (text: string, at = 0): boolean =>
    startsWith(
      [...text].map((char) => char.charCodeAt(0)),
      at,
    );
  if (startsWith(PNG)) return 'png';
  if (startsWith(JPEG)) return 'jpeg';
  if (ascii('GIF87a') || ascii('GIF89a')) return 'gif';
  if (ascii('RIFF') && ascii('WEBP', 8)) return 'webp';
  if (options.bmp === true && ascii('BM')) return 'bmp';
  return null;
}

/** Formats known by a signature that are not raster images (see `fileFormatOf`). */
export type OtherFormat =
  'tiff' | 'pdf' | 'zip' | 'mp3' | 'wav' | 'ogg' | 'flac' | 'iso-media' | 'webm';

/**
 * The format of `head` (a file's first bytes; 4096 are enough) among raster images (BMP
 * included), TIFF, PDF, ZIP, and audio and video containers; null for anything else.
 */
export function fileFormatOf(head: Uint8Array): RasterFormat | OtherFormat | null {
  const raster = rasterFormatOf(head, { bmp: true });
  if (raster !== null) return raster;
  const startsWith = (signature: readonly number[], at = 0): boolean =>
    head.length >= at + signature.length &&
    signature.every((byte, index) => head[at + index] === byte);
  const ascii = (text: string, at = 0): boolean =>
    startsWith(
      [...text].map((char) => char.charCodeAt(0)),
      at,
    );
  if (startsWith([0x49, 0x49, 0x2a, 0x00]) || startsWith([0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (ascii('%PDF-')) return 'pdf';
  if (startsWith([0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (ascii('RIFF') && ascii('WAVE', 8)) return 'wav';
  if (ascii('OggS')) return 'ogg';
  if (ascii('fLaC')) return 'flac';
  if (startsWith([0x1a, 0x45, 0xdf, 0xa3])) return 'webm';
  if (looksLikeIsoMedia(head)) return 'iso-media';
  if (looksLikeMp3(head)) return 'mp3';
  return null;
}

/**
 * True for an MP3: an ID3v2 tag (`ID3`, a major version 2–4) or an MPEG audio frame header
 * (11 sync bits, then a version other than "reserved", layer II or III, and a bitrate and sample
 * rate that are not the reserved values). The header is checked this far because a bare sync
 * test would pass `FF FE`, the UTF-16 byte-order mark that an HTML page can start with.
 */
function looksLikeMp3(head: Uint8Array): boolean {
  if (head[0] === 0x49 && head[1] === 0x44 && head[2] === 0x33) {
    const major = head[3] ?? 0;
    return major >= 2 && major <= 4;
  }
  const [first, second, third] = [head[0] ?? 0, head[1] ?? 0, head[2] ?? 0];
  if (first !== 0xff || (second & 0xe0) !== 0xe0) return false;
  const version = (second >> 3) & 0b11;
  const layer = (second >> 1) & 0b11;
  const bitrate = third >> 4;
  const sampleRate = (third >> 2) & 0b11;
  return (
    version !== 0b01 &&
    (layer === 0b01 || layer === 0b10) &&
    bitrate !== 0b1111 &&
    sampleRate !== 0b11
  );
}

/** Largest first box taken for an `ftyp` box (real ones hold a few brands: 20–40 bytes). */
const MAX_FTYP_BOX_BYTES = 1024;

/**
 * True for an ISO base media file (MP4, M4A): an `ftyp` box first, i.e. `ftyp` at offset 4
 * after a big-endian box size of 8 to `MAX_FTYP_BOX_BYTES` bytes. The size bound keeps a text
 * that merely has `ftyp` as its fifth to eighth characters (`<!--ftyp…`) out: its "size" would
 * be hundreds of megabytes.
 */
function looksLikeIsoMedia(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  const size =
    (((head[0] ?? 0) << 24) | ((head[1] ?? 0) << 16) | ((head[2] ?? 0) << 8) | (head[3] ?? 0)) >>>
    0;
  const type = String.fromCharCode(head[4] ?? 0, head[5] ?? 0, head[6] ?? 0, head[7] ?? 0);
  return type === 'ftyp' && size >= 8 && size <= MAX_FTYP_BOX_BYTES;
}

/**
 * The markup a document starts with, after a byte-order mark and white space: `svg` (an SVG
 * document, an XML declaration or comments before it allowed), `html` (a doctype or an html, head
 * or body tag), or null. What a viewer or a sniffing opener would take for a web page.
 */
export function markupKindOf(head: Uint8Array): 'svg' | 'html' | null {
  const text = new TextDecoder('utf-8', { fatal: false })
    .decode(head.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg[^>]*>\s*)?<svg[\s>]/.test(text)) {
    return 'svg';
  }
  if (/^<(!doctype html|html|head|body)/.test(text)) return 'html';
  return null;
}

/** The media type of raster image bytes (png, jpeg, gif, webp), or null. */
export function rasterMediaType(bytes: Uint8Array): string | null {
  const format = rasterFormatOf(bytes);
  return format === null ? null : RASTER_MEDIA_TYPES[format];
}
