/**
 * Downloads one image from a public URL through the SSRF-guarded fetcher and checks it by its
 * bytes: the server's Content-Type only has to say "an image" or "binary", SVG is refused, and
 * the pixel size is read from the header before anything decodes it. Used by fetch_image and by
 * image_generate for Images APIs that answer with a URL instead of base64.
 */
import type { Logger, WebResourceFetcher } from '../core/ports';
import type { SniffedImage } from './web-image-sniff';
import { describeNonImage, sniffImage } from './web-image-sniff';

/** 20 MB: large photos fit; the sandbox upload route accepts 40 MiB. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/**
 * 50 megapixels: above any camera photo or 8K frame, below Pillow's decompression-bomb limit
 * (89 MP), so the model's Image.open() in the sandbox will not be refused or exhaust memory.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** Longest side accepted, for the same reason. */
export const MAX_IMAGE_SIDE = 20_000;

/** Content types that may carry an image; the bytes are checked either way. */
const IMAGE_ACCEPT = 'image/png, image/jpeg, image/gif, image/webp, image/bmp;q=0.9';
const GENERIC_BINARY = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

export interface PublicImage extends SniffedImage {
  bytes: Uint8Array;
  width: number;
  height: number;
  finalUrl: string;
}

export type PublicImageResult =
  | { ok: true; image: PublicImage }
  /** `refusedBeforeRequest`: as the fetcher says (`WebResourceResult`): nothing was read. */
  | { ok: false; error: string; refusedBeforeRequest?: true };

/** A refusal message for a content type that cannot be an image, or null. */
export function checkImageMediaType(mediaType: string): string | null {
  if (mediaType.startsWith('image/') || GENERIC_BINARY.has(mediaType)) return null;
  return `not an image: the server sent ${mediaType.slice(0, 80)}`;
}

export async function downloadPublicImage(
  fetcher: WebResourceFetcher,
  url: string,
  options: { signal: AbortSignal; logger: Logger; maxBytes?: number },
): Promise<PublicImageResult> {
  const result = await fetcher.fetch({
    url,
    signal: options.signal,
    accept: IMAGE_ACCEPT,
    checkMediaType: checkImageMediaType,
    limits: { maxBodyBytes: options.maxBytes ?? MAX_IMAGE_BYTES },
    logger: options.logger,
  });
  if (!result.ok) {
    const error = `Could not fetch ${url}: ${result.error}`;
    return result.refusedBeforeRequest
      ? { ok: false, error, refusedBeforeRequest: true }
      : { ok: false, error };
  }
  const { resource } = result;
  const image = sniffImage(resource.body);
  if (!image) {
    const looksLike = describeNonImage(resource.body);
    const refusal = looksLike === 'an SVG document' ? ' (SVG images are refused)' : '';
    const claimed = resource.mediaType === '' ? 'no content type' : resource.mediaType;
    return {
      ok: false,
      error: `Could not fetch ${url}: the content is ${looksLike}${refusal}, not an image (the server said ${claimed})`,
    };
  }
  const { width, height } = image;
  if (width === null || height === null || width === 0 || height === 0) {
    return {
      ok: false,
      error: `Could not fetch ${url}: the ${image.format.toUpperCase()} header is damaged (no image size)`,
    };
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    return {
      ok: false,
      error: `Could not fetch ${url}: the image is ${width}×${height} pixels, more than the ${MAX_IMAGE_PIXELS / 1_000_000} megapixels (or ${MAX_IMAGE_SIDE} pixels a side) accepted`,
    };
  }
  return {
    ok: true,
    image: { ...image, width, height, bytes: resource.body, finalUrl: resource.finalUrl },
  };
}
