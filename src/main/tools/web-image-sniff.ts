/**
 * Identifies an image by its bytes, not by what the server claims, and reads its pixel size
 * from the header without decoding it (a 50000×50000 PNG is a few KB on the wire and gigabytes
 * once decoded). Only raster formats Pillow opens out of the box are recognised; SVG is not an
 * image here: it is a document that can carry scripts and external references.
 */
import {
  fileFormatOf,
  markupKindOf,
  RASTER_MEDIA_TYPES,
  rasterFormatOf,
  type RasterFormat,
} from '../../shared/file-signature';

export type ImageFormat = RasterFormat;

export interface SniffedImage {
  format: ImageFormat;
  mediaType: string;
  extension: string;
  /** From the header; null when the header is cut short or unusual. */
  width: number | null;
  height: number | null;
}

/** The image format of `bytes` with its dimensions, or null when it is not one we accept. */
export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = (format: ImageFormat, size: [number, number] | null): SniffedImage => ({
    format,
    mediaType: RASTER_MEDIA_TYPES[format],
    extension: format === 'jpeg' ? 'jpg' : format,
    width: size?.[0] ?? null,
    height: size?.[1] ?? null,
  });
  switch (rasterFormatOf(data, { bmp: true })) {
    case 'png':
      if (data.length < 24) return null;
      return found(
        'png',
        data.toString('latin1', 12, 16) === 'IHDR'
          ? [data.readUInt32BE(16), data.readUInt32BE(20)]
          : null,
      );
    case 'jpeg':
      return found('jpeg', jpegSize(data));
    case 'gif':
      return data.length >= 10 ? found('gif', [data.readUInt16LE(6), data.readUInt16LE(8)]) : null;
    case 'webp':
      return data.length >= 16 ? found('webp', webpSize(data)) : null;
    case 'bmp':
      return data.length >= 26
        ? found('bmp', [Math.abs(data.readInt32LE(18)), Math.abs(data.readInt32LE(22))])
        : null;
    case null:
      return null;
  }
}

/** A few words on what non-image bytes look like, for the error message. */
export function describeNonImage(bytes: Uint8Array): string {
  const markup = markupKindOf(bytes);
  if (markup === 'svg') return 'an SVG document';
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1').toLowerCase();
  if (markup === 'html' || head.includes('<html')) return 'an HTML page';
  if (fileFormatOf(bytes) === 'pdf') return 'a PDF document';
  if (bytes.length === 0) return 'empty';
  return 'not a PNG, JPEG, GIF, WebP or BMP image';
}

/** Walks JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegSize(data: Buffer): [number, number] | null {
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isStartOfFrame) return [data.readUInt16BE(offset + 7), data.readUInt16BE(offset + 5)];
    offset += 2 + data.readUInt16BE(offset + 2);
  }
  return null;
}

function webpSize(data: Buffer): [number, number] | null {
  const chunk = data.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && data.length >= 30) {
    return [data.readUInt16LE(26) & 0x3fff, data.readUInt16LE(28) & 0x3fff];
  }
  if (chunk === 'VP8L' && data.length >= 25) {
    const bits = data.readUInt32LE(21);
    return [(bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1];
  }
  if (chunk === 'VP8X' && data.length >= 30) {
    return [data.readUIntLE(24, 3) + 1, data.readUIntLE(27, 3) + 1];
  }
  return null;
}
