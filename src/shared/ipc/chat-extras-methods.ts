/**
 * Contract pieces of the composer and the message files: attachments sent with `chat.send`
 * (base64, capped like `src/main/services/attachments.ts`), a conversation's tool switches
 * (`conversations.tools` / `conversations.setTools`) and the desktop's `files.open` /
 * `files.reveal` (the browser host downloads through its `/files` route instead).
 */
import { z } from 'zod';
import { formatBytes } from '../byte-size';
import { idSchema } from './dto-schemas';
import {
  ATTACHMENT_NAME_FORBIDDEN,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENT_NAME_CHARS,
  MAX_ATTACHMENTS,
  MAX_ATTACHMENTS_TOTAL_BYTES,
  MAX_FILE_PATH_CHARS,
} from './limits';

export {
  ATTACHMENT_NAME_FORBIDDEN,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENT_NAME_CHARS,
  MAX_ATTACHMENTS,
  MAX_ATTACHMENTS_TOTAL_BYTES,
  MAX_FILE_PATH_CHARS,
  MAX_REQUEST_FRAME_BYTES,
} from './limits';
/** A tool name as toggles store it (built-in names and `<service>__<tool>` MCP names). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MIME = /^[\w.+-]{1,100}\/[\w.+-]{1,100}$/;

/** Decoded size of a base64 text (no decoding needed). */
export function base64DecodedBytes(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor((text.length * 3) / 4) - padding;
}

/** One attached file as the renderer sends it. */
export const attachmentInputSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(MAX_ATTACHMENT_NAME_CHARS)
      // A browser never gives a file name with a path or control characters in it.
      .refine((name) => !ATTACHMENT_NAME_FORBIDDEN.test(name), 'must be a plain file name'),
    mime: z.string().regex(MIME, 'must be a MIME type').optional(),
    dataBase64: z
      .string()
      .refine((data) => data.length % 4 === 0 && BASE64.test(data), 'must be base64')
      .refine(
        (data) => base64DecodedBytes(data) <= MAX_ATTACHMENT_BYTES,
        `must be at most ${formatBytes(MAX_ATTACHMENT_BYTES)}`,
      ),
  })
  .strict();

/** A message's files: at most ten, together at most MAX_ATTACHMENTS_TOTAL_BYTES. */
export const attachmentsSchema = z
  .array(attachmentInputSchema)
  .max(MAX_ATTACHMENTS)
  .refine(
    (files) =>
      files.reduce((sum, file) => sum + base64DecodedBytes(file.dataBase64), 0) <=
      MAX_ATTACHMENTS_TOTAL_BYTES,
    `must be at most ${formatBytes(MAX_ATTACHMENTS_TOTAL_BYTES)} together`,
  );

/** One attached file as sent (`dataBase64` is the file's bytes). */
export type AttachmentInputPayload = z.infer<typeof attachmentInputSchema>;

/** Which layer decides whether a conversation offers a tool. */
export const toolLayerSchema = z.enum([
  'global-off',
  'conversation-on',
  'conversation-off',
  'model-default',
  'not-model-default',
]);

/** One tool of a conversation: offered or not, why, and whether its backend is there. */
export const conversationToolSchema = z.object({
  name: z.string(),
  /** The turn would offer it (layers only; `available` says whether it can run). */
  on: z.boolean(),
  layer: toolLayerSchema,
  /** Whether the model's defaults offer it (what clearing the conversation's switch gives). */
  defaultOn: z.boolean(),
  /** Registered (its backend found) and not switched off globally. */
  available: z.boolean(),
  /** Why it is not available, written for the user; null when it is. */
  reason: z.string().nullable(),
});

const toolName = z.string().regex(TOOL_NAME_PATTERN, 'must be a tool name');
/** A conversation's own tool switches: on or off by tool name (at most 200). */
export const toolTogglesSchema = z
  .record(toolName, z.boolean())
  .refine((record) => Object.keys(record).length <= 200, 'too many tools');
const filePath = z
  .string()
  .min(1)
  .max(MAX_FILE_PATH_CHARS)
  .refine((path) => !path.includes('\0'), 'must not contain NUL');
const ok = z.object({ ok: z.literal(true) });
const conversationTools = z.object({ tools: z.array(conversationToolSchema) });

/** The methods, spread into `invokeContract`. */
export const chatExtrasMethods = {
  /**
   * A conversation's tools with the layer that decides each (global switch, the conversation's
   * own switch, the model's defaults). `modelId` names the model the composer will use (absent:
   * the conversation's model). Without `id`: a new chat, whose switches are `toggles` (the
   * composer keeps them until the first message, which sends them as `chat.send`'s `toolToggles`).
   */
  'conversations.tools': {
    request: z
      .object({
        id: idSchema.optional(),
        modelId: idSchema.optional(),
        toggles: toolTogglesSchema.optional(),
      })
      .strict()
      .refine(
        (request) => request.id === undefined || request.toggles === undefined,
        'toggles are for a new chat (no id); a conversation keeps its own (conversations.setTools)',
      ),
    response: conversationTools,
  },
  /** Sets (true/false) or removes (null) some of a conversation's tool switches; `reset` clears all. */
  'conversations.setTools': {
    request: z
      .object({
        id: idSchema,
        modelId: idSchema.optional(),
        toggles: z
          .record(toolName, z.boolean().nullable())
          .refine((record) => Object.keys(record).length <= 200, 'too many tools')
          .optional(),
        reset: z.boolean().optional(),
      })
      .strict(),
    response: conversationTools,
  },
  /** Opens a file of the data directory's artifacts/ or uploads/ with the system's app. */
  'files.open': { request: z.object({ path: filePath }).strict(), response: ok },
  /** Shows such a file in the system's file manager. */
  'files.reveal': { request: z.object({ path: filePath }).strict(), response: ok },
};
