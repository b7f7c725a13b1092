/**
 * image_generate: generates a new image or edits exactly one existing image through an image
 * API (the `ImageClient` port; OpenAI's Images API in production). Definition verbatim from the
 * seed (docs/seeds/000_67077f376ad9eee3.txt); checked by a test. Every resulting image is saved
 * through the `ArtifactSink` and attached to the assistant message.
 */
import type { ArtifactReference } from '../../shared/turn-events';
import { IMAGE_REQUEST_TIMEOUT_MS } from '../core/ports';
import type {
  ArtifactSink,
  ImageClient,
  ImageData,
  ImageFile,
  Tool,
  ToolContext,
  ToolOutput,
} from '../core/ports';
import { builtInArgumentCheck } from './arguments/argument-check';
import { imageDimensions } from './image-dimensions';
import { normalizeImageSize } from './image-size';

export const IMAGE_GENERATE_NAME = 'image_generate';

export const IMAGE_GENERATE_DESCRIPTION =
  "Generate a new image or faithfully edit one existing image. You must explicitly choose action=generate or action=edit from the user's intent. Generate never sends conversation images to the image API. For edit, select exactly one authoritative base_image: previous_generation for the nearest generated image on the active branch, or current_attachment plus its 1-based base_image_index for an image uploaded this turn. Other current-turn images become edit references. Do not invent file ids.";

export const IMAGE_GENERATE_SCHEMA_JSON = `{"type":"object","properties":{"prompt":{"type":"string","description":"The requested new image or the exact edit instruction. For edits, describe only the requested change and preserve everything else."},"action":{"type":"string","enum":["generate","edit"],"description":"Use generate only when the user wants a new image. Use edit only when the user wants to modify an existing image."},"base_image":{"type":"string","enum":["none","previous_generation","current_attachment"],"description":"For generate use none. For edit, choose previous_generation only when continuing the prior generated result, or current_attachment when an image uploaded this turn is the authoritative base."},"base_image_index":{"type":"integer","minimum":1,"description":"Use only with base_image=current_attachment. This is the 1-based attachment position; omit it for previous_generation."},"n":{"type":"integer","default":1},"size":{"type":"string","description":"Optional explicit output size. OpenAI-format requests recognize the aspect ratio and the 1K, 2K, or 4K resolution tier from the exact user instruction; omitted resolution defaults to 2K. The final GPT Image 2 WIDTHxHEIGHT is normalized to legal multiples of 16. Edits preserve the selected base image's ratio unless the user requests another ratio. GPT Image 1.x is mapped to its supported fixed sizes."}},"required":["prompt","action","base_image"]}`;

/** Images one call may ask for. */
export const MAX_IMAGES_PER_CALL = 4;

export interface ImageGenerateOptions {
  images: ImageClient;
  artifacts: ArtifactSink;
  /** The nearest generated image on the conversation's active branch, or null when there is none. */
  previousGeneration: (conversationId: string) => Promise<ImageFile | null>;
  /** The images the user attached to the current turn, in attachment order (index 1 first). */
  currentAttachments: (conversationId: string) => Promise<ImageFile[]>;
  /** Conversation whose artifact folder is used outside a conversation (`aivory tool`). */
  scratchConversationId?: string;
}

/** Arguments after validation. */
export type ImageGenerateArguments =
  | { action: 'generate'; prompt: string; n: number; size: string | undefined }
  | {
      action: 'edit';
      prompt: string;
      n: number;
      size: string | undefined;
      base: { kind: 'previous_generation' } | { kind: 'current_attachment'; index: number };
    };

export function createImageGenerateTool(options: ImageGenerateOptions): Tool {
  return {
    name: IMAGE_GENERATE_NAME,
    description: IMAGE_GENERATE_DESCRIPTION,
    inputSchema: parseSchema(IMAGE_GENERATE_SCHEMA_JSON),
    timeoutMs: IMAGE_REQUEST_TIMEOUT_MS,
    validate: (args) => {
      const parsed = parseImageGenerateArguments(args);
      return parsed.ok ? null : parsed.message;
    },
    execute: async (args, context) => {
      const parsed = parseImageGenerateArguments(args);
      if (!parsed.ok) return { content: parsed.message, isError: true };
      return run(options, parsed.value, context);
    },
  };
}

const checkSchema = builtInArgumentCheck(IMAGE_GENERATE_SCHEMA_JSON, {
  properties: {
    prompt: { nonBlank: true },
    n: { minimum: 1, maximum: MAX_IMAGES_PER_CALL },
    size: { expected: 'a string such as "1536x1024", "16:9" or "4K landscape"' },
    base_image_index: { expected: 'an integer of at least 1 (the 1-based position)' },
  },
});

/**
 * Checks the model's arguments against the seed's schema, then the seed's rules for combining
 * them. Never throws: an invalid combination yields a message that tells the model how to
 * correct the call.
 */
export function parseImageGenerateArguments(
  args: unknown,
): { ok: true; value: ImageGenerateArguments } | { ok: false; message: string } {
  const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });
  const invalid = checkSchema(args);
  if (invalid !== null) return fail(invalid);
  const fields = Object.fromEntries(Object.entries(args ?? {}));
  // The schema has checked the types and enums; null counts as absent for the optional ones.
  const prompt = String(fields.prompt);
  const action = fields.action === 'edit' ? 'edit' : 'generate';
  const baseImage = String(fields.base_image);
  const index: unknown = fields.base_image_index ?? undefined;
  const count = typeof fields.n === 'number' ? fields.n : 1;
  const size: unknown = fields.size;
  const sizeText = typeof size === 'string' && size.trim() !== '' ? size : undefined;
  const hasIndex = typeof index === 'number';
  if (action === 'generate') {
    if (baseImage !== 'none') {
      return fail(
        'action=generate never uses a conversation image: set base_image to "none". To change an existing image, use action=edit.',
      );
    }
    if (hasIndex) {
      return fail('"base_image_index" is only used with base_image="current_attachment".');
    }
    return { ok: true, value: { action, prompt, n: count, size: sizeText } };
  }
  if (baseImage === 'none') {
    return fail(
      'action=edit needs exactly one base image: set base_image to "previous_generation" or to "current_attachment" with base_image_index. To make a new image, use action=generate.',
    );
  }
  if (baseImage === 'previous_generation') {
    if (hasIndex) {
      return fail(
        '"base_image_index" is only used with base_image="current_attachment"; omit it for previous_generation.',
      );
    }
    return {
      ok: true,
      value: { action, prompt, n: count, size: sizeText, base: { kind: 'previous_generation' } },
    };
  }
  if (!hasIndex) {
    return fail(
      'base_image="current_attachment" needs base_image_index, the 1-based position of the image uploaded this turn.',
    );
  }
  return {
    ok: true,
    value: {
      action,
      prompt,
      n: count,
      size: sizeText,
      base: { kind: 'current_attachment', index },
    },
  };
}

async function run(
  options: ImageGenerateOptions,
  request: ImageGenerateArguments,
  context: ToolContext,
): Promise<ToolOutput> {
  const conversationId = context.conversationId;
  const artifactConversation = conversationId ?? options.scratchConversationId ?? 'aivory-tool';
  const { images } = options;
  let result: { images: ImageData[] };
  let size: string;
  let summary: string;
  if (request.action === 'generate') {
    size = normalizeImageSize(request.size, images.model, null);
    result = await images.generate({
      prompt: request.prompt,
      n: request.n,
      size,
      signal: context.signal,
    });
    summary = `Generated ${plural(result.images.length, 'image')}`;
  } else {
    const selected = await selectBase(options, request.base, conversationId);
    if (!selected.ok) return { content: selected.message, isError: true };
    const { base, references } = selected;
    size = normalizeImageSize(request.size, images.model, imageDimensions(base.bytes));
    result = await images.edit({
      prompt: request.prompt,
      image: base,
      references,
      n: request.n,
      size,
      signal: context.signal,
    });
    const referenceNote =
      references.length > 0 ? ` with ${plural(references.length, 'reference image')}` : '';
    summary = `Edited ${base.name}${referenceNote} into ${plural(result.images.length, 'image')}`;
  }
  if (result.images.length === 0) {
    return { content: 'The image API returned no image; try again.', isError: true };
  }
  const artifacts: ArtifactReference[] = [];
  for (const [position, image] of result.images.entries()) {
    const name = `image-${position + 1}.${extensionOf(image.mime)}`;
    artifacts.push(
      await options.artifacts.save(artifactConversation, name, image.bytes, image.mime),
    );
  }
  const names = artifacts.map((artifact) => artifact.name).join(', ');
  return {
    content:
      `${summary} (${size}): ${names}. The files are attached to your answer automatically: ` +
      'refer to them by file name and do not write links or paths to them.',
    artifacts,
  };
}

/** The base image and the references for an edit, or a message for the model. */
async function selectBase(
  options: ImageGenerateOptions,
  base: { kind: 'previous_generation' } | { kind: 'current_attachment'; index: number },
  conversationId: string | null,
): Promise<
  { ok: true; base: ImageFile; references: ImageFile[] } | { ok: false; message: string }
> {
  const attachments =
    conversationId === null ? [] : await options.currentAttachments(conversationId);
  if (base.kind === 'previous_generation') {
    const previous =
      conversationId === null ? null : await options.previousGeneration(conversationId);
    if (previous === null) {
      return {
        ok: false,
        message:
          'There is no previously generated image in this conversation to edit. Use action=generate for a new image, or base_image="current_attachment" with base_image_index if the user uploaded the image this turn.',
      };
    }
    return { ok: true, base: previous, references: attachments };
  }
  if (attachments.length === 0) {
    return {
      ok: false,
      message:
        'No image was uploaded this turn, so base_image="current_attachment" has nothing to edit. Use base_image="previous_generation" to continue a generated image, or ask the user to attach the image.',
    };
  }
  const chosen = attachments[base.index - 1];
  if (chosen === undefined) {
    const range = attachments.length === 1 ? '1' : `1–${attachments.length}`;
    return {
      ok: false,
      message: `base_image_index ${base.index} is out of range: ${plural(attachments.length, 'image was', 'images were')} uploaded this turn (use ${range}).`,
    };
  }
  const references = attachments.filter((_, position) => position !== base.index - 1);
  return { ok: true, base: chosen, references };
}

function extensionOf(mime: string): string {
  if (mime === 'image/jpeg') return 'jpg';
  if (mime === 'image/webp') return 'webp';
  return 'png';
}

function plural(count: number, singular: string, pluralText = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralText}`;
}

function parseSchema(json: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(json);
  return typeof parsed === 'object' && parsed !== null
    ? Object.fromEntries(Object.entries(parsed))
    : {};
}
