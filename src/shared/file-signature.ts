/**
 * Which raster image format bytes are, by their signature alone: the one place the app decides
 * "these bytes are a PNG" (attachments, tool and MCP images, generated images, web images, the
 * composer's vision hint). A renamed file is what its bytes say; a name or a declared type is
 * never trusted for this. SVG is not a raster image here: it is a document that can carry scripts.
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

/** The media type of raster image bytes (png, jpeg, gif, webp), or null. */
export function rasterMediaType(bytes: Uint8Array): string | null {
  const format = rasterFormatOf(bytes);
  return format === null ? null : RASTER_MEDIA_TYPES[format];
}
