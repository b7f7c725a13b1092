/** MIME types for files the user hands in (attachments, skill assets): magic bytes, then name. */
import { extname } from 'node:path';
import { fileFormatOf, rasterMediaType } from '../../shared/file-signature';

/** Common types by extension; anything else is application/octet-stream. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.css': 'text/css',
  '.py': 'text/x-python',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.zip': 'application/zip',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.tsv': 'text/tab-separated-values',
  '.xml': 'application/xml',
  '.js': 'text/javascript',
  '.log': 'text/plain',
};

/** The MIME type for a file name, by its extension (case-insensitive). */
export function mimeTypeForFileName(name: string): string {
  return MIME_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** Magic bytes first (a renamed PNG is still a PNG), then the extension. */
export function sniffMimeType(name: string, data: Uint8Array): string {
  const image = rasterMediaType(data);
  if (image !== null) return image;
  if (fileFormatOf(data) === 'pdf') return 'application/pdf';
  return mimeTypeForFileName(name);
}

/** Raster image types by the extension their files get. */
const RASTER_EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * The type and extension of binary bytes from the bytes alone: a raster image or a PDF, else
 * `application/octet-stream` / `bin` (an MCP resource saved as a file).
 */
export function binaryFileType(data: Uint8Array): { mime: string; extension: string } {
  if (fileFormatOf(data) === 'pdf') return { mime: 'application/pdf', extension: 'pdf' };
  return rasterImageType(data);
}

/**
 * The type and extension of image bytes a tool handed over, from the bytes alone (png, jpeg, gif,
 * webp); anything else is `application/octet-stream` / `bin`. A declared MIME type never names a
 * file: `image/bat` would otherwise be saved as `….bat`.
 */
export function rasterImageType(data: Uint8Array): { mime: string; extension: string } {
  const mime = sniffMimeType('', data);
  const extension = RASTER_EXTENSIONS[mime];
  return extension ? { mime, extension } : { mime: 'application/octet-stream', extension: 'bin' };
}
