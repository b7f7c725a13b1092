/**
 * Vision input: the raster image attachments of the message a turn answers, read back from their
 * stored copies, for a model that takes images (`ResolvedModel.vision`). The adapter sends them
 * as image parts beside the message text; the text still lists every file and where it is staged.
 * The type comes from the bytes (png, jpeg, gif, webp), never from the name or the declared type.
 * Earlier turns' images are not replayed (their messages replay as text naming the files).
 */
import { open } from 'node:fs/promises';
import type { ArtifactReference } from '../../shared/turn-events';
import type { ChatImage } from '../core/ports';
import { rasterImageType } from './mime-types';
import { formatBytes } from '../../shared/byte-size';

/** The largest image sent as an image part (providers refuse larger ones: OpenAI takes 20 MB). */
export const MAX_VISION_IMAGE_BYTES = 20 * 1024 * 1024;
/** At most this many images of one message go to the model as image parts. */
export const MAX_VISION_IMAGES_PER_MESSAGE = 8;
/** What one image part is counted as when the history is fitted to the context window. */
export const IMAGE_TOKEN_ESTIMATE = 1_500;

/** Bytes enough to tell the four raster types apart (WEBP needs 12). */
const SNIFF_BYTES = 16;

export interface VisionInput {
  /** The images to send, in the order of the attachments. */
  images: ChatImage[];
  /** The names of the files sent as images (untrusted content the turn starts with). */
  sent: string[];
  /** Raster images that were not sent, and why; the model reads only their description. */
  leftOut: { name: string; reason: string }[];
}

/**
 * The image parts for some attachments: each file whose bytes are a png, jpeg, gif or webp image
 * of at most `MAX_VISION_IMAGE_BYTES`, the first `MAX_VISION_IMAGES_PER_MESSAGE` of them. A file
 * that can no longer be read (deleted by the user) is skipped.
 */
export async function visionInput(
  attachments: readonly ArtifactReference[],
  limits: { maxBytes?: number; maxImages?: number } = {},
): Promise<VisionInput> {
  const maxBytes = limits.maxBytes ?? MAX_VISION_IMAGE_BYTES;
  const maxImages = limits.maxImages ?? MAX_VISION_IMAGES_PER_MESSAGE;
  const result: VisionInput = { images: [], sent: [], leftOut: [] };
  for (const file of attachments) {
    const read = await readRasterImage(file.path, maxBytes);
    if (read === null) continue;
    if (read === 'too-large') {
      result.leftOut.push({ name: file.name, reason: `larger than ${formatBytes(maxBytes)}` });
    } else if (result.images.length >= maxImages) {
      result.leftOut.push({
        name: file.name,
        reason: `only ${maxImages} images of a message are shown`,
      });
    } else {
      result.images.push(read);
      result.sent.push(file.name);
    }
  }
  return result;
}

/** The lines the model reads about the images: which ones it sees, which ones it does not. */
export function visionNote(input: VisionInput): string[] {
  const lines: string[] = [];
  if (input.sent.length > 0) {
    lines.push(`(Attached below as images, in this order: ${input.sent.join(', ')}.)`);
  }
  if (input.leftOut.length > 0) {
    const what = input.leftOut.map((file) => `${file.name} (${file.reason})`).join('; ');
    lines.push(`(Not attached as images, only described here: ${what}.)`);
  }
  return lines;
}

/** The file as an image when its bytes are a raster image; null when it is not one or is gone. */
async function readRasterImage(
  path: string,
  maxBytes: number,
): Promise<ChatImage | 'too-large' | null> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return null;
  }
  try {
    const head = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    if (rasterImageType(head.subarray(0, bytesRead)).extension === 'bin') return null;
    if ((await handle.stat()).size > maxBytes) return 'too-large';
    const data = new Uint8Array(await handle.readFile());
    if (data.byteLength > maxBytes) return 'too-large';
    // The whole file decides (it is what is sent), not only the head read first.
    const { mime, extension } = rasterImageType(data);
    return extension === 'bin' ? null : { mime, data };
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
