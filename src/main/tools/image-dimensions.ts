/** Pixel dimensions read from an image file's header, without decoding the image. */
import { sniffImage } from './web-image-sniff';

export interface ImageDimensions {
  width: number;
  height: number;
}

/**
 * Width and height from a raster image's header (PNG, JPEG, GIF, WebP, BMP: `sniffImage`), or
 * null for other formats and broken files.
 */
export function imageDimensions(bytes: Uint8Array): ImageDimensions | null {
  const image = sniffImage(bytes);
  if (image === null || image.width === null || image.height === null) return null;
  return { width: image.width, height: image.height };
}
