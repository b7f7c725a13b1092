/**
 * Files the user attaches to a message. Each is copied under `<data>/uploads/<conversation>/`
 * (the message keeps pointing at that copy, whatever happens to the original), described to the
 * model in the user message (small text files inline; images as image parts for a vision model,
 * `vision-input.ts`), staged without conversion into the sandbox's /workspace/uploads
 * (workspace-staging.ts), and offered to image_generate as the current turn's images.
 */
import { readFile } from 'node:fs/promises';
import type { MessagePart } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import { stripInvisibleCharacters } from '../../shared/untrusted-text';
import type { ArtifactReference } from '../../shared/turn-events';
import { neutraliseProtocolMarkup } from '../core/orchestrator/prompt-protocol';
import type { ArtifactSink, ChatImage, ImageFile } from '../core/ports';
import { sniffMimeType } from './mime-types';
import { visionInput, visionNote } from './vision-input';
import { formatBytes } from '../../shared/byte-size';
// The caps the contract and the composer check too: one definition, in the zod-free limits.
import {
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  MAX_ATTACHMENTS_TOTAL_BYTES,
} from '../../shared/ipc/limits';

/** Text attachments up to this many characters are also put in the message itself. */
const MAX_INLINE_TEXT_CHARS = 20_000;

export interface AttachmentInput {
  name: string;
  data: Uint8Array;
  /** Guessed from the name and the bytes when absent. */
  mime?: string;
}

/** Refuses too many or too large files before anything is stored. */
export function checkAttachments(inputs: readonly AttachmentInput[]): void {
  if (inputs.length > MAX_ATTACHMENTS) {
    throw new AivoryError(
      'invalid-input',
      `At most ${MAX_ATTACHMENTS} files can be attached to one message (got ${inputs.length}).`,
    );
  }
  const total = inputs.reduce((sum, input) => sum + input.data.byteLength, 0);
  if (total > MAX_ATTACHMENTS_TOTAL_BYTES) {
    throw new AivoryError(
      'invalid-input',
      // Rounded up: a total just over the cap must not read as equal to it.
      `The attached files add up to ${(Math.ceil((total / 1024 / 1024) * 10) / 10).toFixed(1)} MiB; one message can carry ${MAX_ATTACHMENTS_TOTAL_BYTES / 1024 / 1024} MiB.`,
    );
  }
  for (const input of inputs) {
    if (input.data.byteLength > MAX_ATTACHMENT_BYTES) {
      throw new AivoryError(
        'invalid-input',
        `${stripInvisibleCharacters(input.name)} is ${(input.data.byteLength / 1024 / 1024).toFixed(1)} MiB; attachments are limited to ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB.`,
      );
    }
  }
}

/** Stores each attachment and returns the message parts that reference the copies. */
export async function storeAttachments(
  sink: ArtifactSink,
  conversationId: string,
  inputs: readonly AttachmentInput[],
): Promise<MessagePart[]> {
  const parts: MessagePart[] = [];
  for (const input of inputs) {
    const mime = input.mime ?? sniffMimeType(input.name, input.data);
    const attachment = await sink.save(conversationId, input.name, input.data, mime);
    parts.push({ kind: 'attachment', attachment });
  }
  return parts;
}

/** The attachments of some message parts. */
export function attachmentsOf(parts: readonly MessagePart[]): ArtifactReference[] {
  return parts.flatMap((part) => (part.kind === 'attachment' ? [part.attachment] : []));
}

/** What the model reads about a message's attachments, and whose content that includes. */
export interface AttachmentNote {
  text: string;
  /**
   * Names of the files whose content the model reads in the message (text in `text`, images as
   * image parts): untrusted content the turn starts with.
   */
  inlined: string[];
  /** The images sent as image parts beside `text` (a vision model only; else empty). */
  images: ChatImage[];
}

/**
 * What the model reads about a message's attachments: where each one is staged, and the content
 * of small text files; for a `vision` model its raster images too (`vision-input.ts`), as
 * `images`. `sandbox` says whether python_execute can open them.
 */
export async function describeAttachments(
  attachments: readonly ArtifactReference[],
  sandbox: boolean,
  vision = false,
): Promise<AttachmentNote> {
  if (attachments.length === 0) return { text: '', inlined: [], images: [] };
  const lines = ['[Attached files]'];
  const inlined: string[] = [];
  for (const file of attachments) {
    const where = sandbox ? ` at /workspace/uploads/${file.name}` : '';
    lines.push(`- ${file.name} (${file.mime}, ${formatBytes(file.size)})${where}`);
    const text = await inlineText(file);
    if (text === null) continue;
    lines.push(text);
    inlined.push(file.name);
  }
  const seen = vision ? await visionInput(attachments) : null;
  if (seen) {
    lines.push(...visionNote(seen));
    inlined.push(...seen.sent.filter((name) => !inlined.includes(name)));
  }
  if (!sandbox) lines.push('(No code sandbox is configured, so tools cannot open these files.)');
  return { text: lines.join('\n'), inlined, images: seen?.images ?? [] };
}

/** The image attachments of the conversation's newest user message, read back from disk. */
export async function currentImageAttachments(
  messages: readonly { role: string; parts: readonly MessagePart[] }[],
): Promise<ImageFile[]> {
  const latest = messages.findLast((message) => message.role === 'user');
  if (!latest) return [];
  const images: ImageFile[] = [];
  for (const file of attachmentsOf(latest.parts)) {
    if (!file.mime.startsWith('image/')) continue;
    try {
      images.push({
        bytes: new Uint8Array(await readFile(file.path)),
        mime: file.mime,
        name: file.name,
      });
    } catch {
      // The copy was deleted by the user: it is simply no longer there.
    }
  }
  return images;
}

function isTextual(mime: string): boolean {
  return (
    mime.startsWith('text/') ||
    ['application/json', 'application/xml', 'application/yaml'].includes(mime)
  );
}

async function inlineText(file: ArtifactReference): Promise<string | null> {
  if (!isTextual(file.mime) || file.mime === 'image/svg+xml') return null;
  let text: string;
  try {
    text = await readFile(file.path, 'utf8');
  } catch {
    return null;
  }
  const cut = text.length > MAX_INLINE_TEXT_CHARS;
  const shown = cut ? text.slice(0, MAX_INLINE_TEXT_CHARS) : text;
  const marker = cut ? `\n[… ${text.length - MAX_INLINE_TEXT_CHARS} more characters]` : '';
  // The file is data, not instructions: protocol markup inside it cannot pose as a tool call.
  const body = neutraliseProtocolMarkup(shown).replaceAll('</file>', '&lt;/file>');
  return `<file name="${file.name.replace(/["<>]/g, '_')}">\n${body}${marker}\n</file>`;
}
