/**
 * The output size of an image request: the model's optional `size` text (a `WIDTHxHEIGHT`, a
 * ratio, ratio words, a 1K/2K/4K tier) and, for edits, the base image's ratio, turned into a size
 * the image model accepts. Pure; used by image_generate.
 */
import type { ImageDimensions } from './image-dimensions';

type ResolutionTier = '1K' | '2K' | '4K';

/** Long edge of each tier for models that take any legal size. */
const TIER_LONG_EDGE: Record<ResolutionTier, number> = { '1K': 1024, '2K': 2048, '4K': 3840 };

/** Limits for models with free sizes (GPT Image 2): edges multiples of 16, ≤ 3840, ratio ≤ 3:1. */
const SIZE_STEP = 16;
const MAX_EDGE = 3840;
const MAX_RATIO = 3;
const MIN_PIXELS = 655_360;
const MAX_PIXELS = 8_294_400;

/** Ratio words the size text may use, as width:height. */
const RATIO_WORDS: readonly [RegExp, number][] = [
  [/\bsquare\b/, 1],
  [/\b(?:ultra-?wide|panorama|panoramic)\b/, 21 / 9],
  [/\b(?:widescreen|wide|cinematic)\b/, 16 / 9],
  [/\b(?:landscape|horizontal)\b/, 3 / 2],
  [/\b(?:tall|story|phone)\b/, 9 / 16],
  [/\b(?:portrait|vertical)\b/, 2 / 3],
];

/**
 * Turns the model's optional `size` text into a size the model accepts. The rule:
 *
 * 1. Reading the text (case-insensitive): an explicit `WIDTHxHEIGHT` (`x`, `×` or `*`, both ≥ 64)
 *    wins. Otherwise an aspect ratio `W:H` (or a small `WxH` such as `16x9`), else a ratio word
 *    (square 1:1, landscape/horizontal 3:2, portrait/vertical 2:3, wide/widescreen 16:9,
 *    tall/story 9:16, panorama 21:9), else the base image's ratio for edits, else 1:1. The tier
 *    is `1K`, `2K` or `4K` (also `UHD` = 4K); omitted it is 2K.
 * 2. GPT Image 1.x (`gpt-image-1*`, `chatgpt-image*`): the fixed size nearest in aspect ratio
 *    (log scale) among 1024x1024, 1536x1024, 1024x1536; DALL·E 3 likewise among 1024x1024,
 *    1792x1024, 1024x1792; DALL·E 2 always 1024x1024. The tier is ignored.
 * 3. Any other model (GPT Image 2 and compatible servers): the tier's long edge (1K 1024, 2K 2048,
 *    4K 3840) with the short edge from the ratio, or the explicit size; then the ratio is capped
 *    at 3:1, the image scaled to within 655,360–8,294,400 pixels and 3840 per edge, and each edge
 *    rounded to a multiple of 16 (down when shrinking, up when enlarging).
 *
 * Always returns `WIDTHxHEIGHT`.
 */
export function normalizeImageSize(
  requested: string | undefined,
  model: string,
  base: ImageDimensions | null,
): string {
  const text = (requested ?? '').toLowerCase();
  const explicit = /(\d{1,5})\s*[x×*]\s*(\d{1,5})/.exec(text);
  let width = 0;
  let height = 0;
  if (explicit && Number(explicit[1]) >= 64 && Number(explicit[2]) >= 64) {
    width = Number(explicit[1]);
    height = Number(explicit[2]);
  }
  const ratio = width > 0 ? width / height : requestedRatio(text, explicit, base);
  const fixed = fixedSizesFor(model);
  if (fixed !== null) return nearestByRatio(fixed, ratio);
  if (width === 0) {
    const longEdge = TIER_LONG_EDGE[requestedTier(text)];
    width = ratio >= 1 ? longEdge : longEdge * ratio;
    height = ratio >= 1 ? longEdge / ratio : longEdge;
  }
  return legalize(width, height);
}

function requestedRatio(
  text: string,
  explicit: RegExpExecArray | null,
  base: ImageDimensions | null,
): number {
  const colon = /(\d+(?:\.\d+)?)\s*[:：]\s*(\d+(?:\.\d+)?)/.exec(text);
  const pair = colon ?? explicit;
  if (pair) {
    const ratio = Number(pair[1]) / Number(pair[2]);
    if (Number.isFinite(ratio) && ratio > 0) return ratio;
  }
  for (const [pattern, ratio] of RATIO_WORDS) if (pattern.test(text)) return ratio;
  if (base !== null && base.width > 0 && base.height > 0) return base.width / base.height;
  return 1;
}

function requestedTier(text: string): ResolutionTier {
  if (/\b4\s*k\b|\buhd\b/.test(text)) return '4K';
  if (/\b1\s*k\b/.test(text)) return '1K';
  return '2K';
}

/** The fixed sizes a model accepts, or null when it takes any legal size. */
function fixedSizesFor(model: string): readonly string[] | null {
  const name = (model.split('/').pop() ?? model).toLowerCase();
  if (name.startsWith('gpt-image-1') || name.startsWith('chatgpt-image')) {
    return ['1024x1024', '1536x1024', '1024x1536'];
  }
  if (name.startsWith('dall-e-3')) return ['1024x1024', '1792x1024', '1024x1792'];
  if (name.startsWith('dall-e-2')) return ['1024x1024'];
  return null;
}

function nearestByRatio(sizes: readonly string[], ratio: number): string {
  let best = sizes[0] ?? '1024x1024';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const size of sizes) {
    const [width = 1, height = 1] = size.split('x').map(Number);
    const distance = Math.abs(Math.log(width / height) - Math.log(ratio));
    if (distance < bestDistance) {
      best = size;
      bestDistance = distance;
    }
  }
  return best;
}

function legalize(requestedWidth: number, requestedHeight: number): string {
  let width = Math.max(requestedWidth, 1);
  let height = Math.max(requestedHeight, 1);
  if (width / height > MAX_RATIO) width = height * MAX_RATIO;
  if (height / width > MAX_RATIO) height = width * MAX_RATIO;
  const pixels = width * height;
  const scale =
    pixels < MIN_PIXELS
      ? Math.sqrt(MIN_PIXELS / pixels)
      : Math.min(1, MAX_EDGE / Math.max(width, height), Math.sqrt(MAX_PIXELS / pixels));
  const round = scale > 1 ? Math.ceil : scale < 1 ? Math.floor : Math.round;
  width = Math.max(SIZE_STEP, round((width * scale) / SIZE_STEP) * SIZE_STEP);
  height = Math.max(SIZE_STEP, round((height * scale) / SIZE_STEP) * SIZE_STEP);
  while (width * height > MAX_PIXELS || Math.max(width, height) > MAX_EDGE) {
    if (width >= height) width -= SIZE_STEP;
    else height -= SIZE_STEP;
  }
  while (width * height < MIN_PIXELS) {
    if (width <= height) width += SIZE_STEP;
    else height += SIZE_STEP;
  }
  return `${width}x${height}`;
}
