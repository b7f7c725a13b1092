/**
 * Images from tool results (MCP image content) for a vision model: bounded per turn (they stay
 * in the conversation and are sent again every round), raster types only, and only from calls
 * that tainted the turn (untrusted content never reaches the model without the taint). OpenAI's
 * `tool` messages cannot carry images, so natively they follow the round's tool results as a
 * user message naming the call; in prompt mode they ride on the `<tool_result>` user message.
 * A model without vision reads only the result text's description ("[image: image/png, 3.9 KB]").
 */
import type { ChatImage, ChatMessage } from '../ports';

/** At most this many tool images go to the model in one turn; later ones stay described. */
export const MAX_TOOL_IMAGES_PER_TURN = 8;
/** The largest tool image sent; the MCP adapter keeps no bigger one (its `maxImageBytes`). */
export const MAX_TOOL_IMAGE_BYTES = 5 * 1024 * 1024;
/** At most this many bytes of tool images in one turn. */
export const MAX_TOOL_IMAGE_TURN_BYTES = 20 * 1024 * 1024;

/** The types a vision server takes; anything else (svg, a mislabelled file) stays described. */
const RASTER_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** What one call's images came to: those sent, and how many were left out and why. */
export interface CallImages {
  images: ChatImage[];
  leftOut: number;
  reason: string | null;
}

/** The turn's allowance of tool images. */
export class ToolImageBudget {
  private count = 0;
  private bytes = 0;

  /** Takes what fits of one call's images, in order. */
  take(images: readonly ChatImage[]): CallImages {
    const kept: ChatImage[] = [];
    let leftOut = 0;
    let reason: string | null = null;
    for (const image of images) {
      const size = image.data.byteLength;
      const why = !RASTER_TYPES.has(image.mime)
        ? 'not a png, jpeg, gif or webp image'
        : size === 0 || size > MAX_TOOL_IMAGE_BYTES
          ? `empty or over ${MAX_TOOL_IMAGE_BYTES / 1024 / 1024} MiB`
          : this.count >= MAX_TOOL_IMAGES_PER_TURN
            ? `at most ${MAX_TOOL_IMAGES_PER_TURN} tool images per turn`
            : this.bytes + size > MAX_TOOL_IMAGE_TURN_BYTES
              ? `at most ${MAX_TOOL_IMAGE_TURN_BYTES / 1024 / 1024} MiB of tool images per turn`
              : null;
      if (why !== null) {
        leftOut += 1;
        reason ??= why;
        continue;
      }
      this.count += 1;
      this.bytes += size;
      kept.push(image);
    }
    return { images: kept, leftOut, reason };
  }
}

/** Natively: the user message after the round's tool results, carrying one call's images. */
export function toolImagesMessage(
  toolName: string,
  toolCallId: string,
  taken: CallImages,
): ChatMessage | null {
  if (taken.images.length === 0 && taken.leftOut === 0) return null;
  const lines: string[] = [];
  if (taken.images.length > 0) {
    lines.push(
      `Images returned by ${toolName} (call ${toolCallId}), untrusted tool output like its text:`,
    );
  }
  if (taken.leftOut > 0) {
    lines.push(
      `(${taken.leftOut} image${taken.leftOut === 1 ? '' : 's'} of ${toolName} (call ${toolCallId}) not shown: ${taken.reason ?? 'over the limits'}; only described in its result.)`,
    );
  }
  return {
    role: 'user',
    content: lines.join('\n'),
    ...(taken.images.length > 0 ? { images: taken.images } : {}),
  };
}
