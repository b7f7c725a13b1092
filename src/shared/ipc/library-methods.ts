/**
 * Editing the user's library from settings: memories (edit, archive/restore, confirm a pending one, delete), skills
 * (create, edit, remove; optional assets) and prompt templates (create, edit, remove). The
 * services validate every field and answer with messages naming what to change.
 */
import { z } from 'zod';
import { idSchema, memorySchema, promptTemplateSchema } from './dto-schemas';
import { MAX_ASSET_UPLOAD_BYTES } from './limits';

export { MAX_ASSET_UPLOAD_BYTES } from './limits';
/** Base64 of MAX_ASSET_UPLOAD_BYTES, rounded up. */
const MAX_ASSET_BASE64_CHARS = Math.ceil(MAX_ASSET_UPLOAD_BYTES / 3) * 4;

/** A skill with its instructions and asset list, as the skill editor shows it. */
export const skillDetailSchema = z.object({
  name: z.string(),
  icon: z.string(),
  whenToUse: z.string(),
  instructions: z.string(),
  builtIn: z.boolean(),
  /** A user skill that replaces a built-in one of the same name. */
  overridesBuiltIn: z.boolean(),
  assets: z.array(
    z.object({ name: z.string(), mime: z.string(), size: z.number(), createdAt: z.number() }),
  ),
  /** Set when the text looks like it holds a credential (skills are shown to models). */
  secretWarning: z.string().nullable(),
  updatedAt: z.number(),
});

const skillName = z.string().trim().min(1, 'a name is required').max(64, 'at most 64 characters');
const skillFields = {
  icon: z.string().max(64).optional(),
  whenToUse: z.string().max(2000),
  instructions: z.string().max(300_000),
};
const assetInput = z
  .object({
    name: z.string().trim().min(1, 'a file name is required').max(255),
    mime: z.string().trim().min(3).max(200),
    dataBase64: z
      .string()
      .max(MAX_ASSET_BASE64_CHARS, 'the file is too large to upload here')
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64'),
  })
  .strict();
const promptFields = {
  title: z.string().max(1000),
  body: z.string().max(100_000),
  tags: z.array(z.string().max(200)).max(50).optional(),
};
const ok = z.object({ ok: z.literal(true) });

/** The library-editing methods, spread into `invokeContract`. */
export const libraryEditMethods = {
  'memories.update': {
    request: z.object({ id: idSchema, text: z.string().max(10_000) }).strict(),
    response: memorySchema,
  },
  /** ACTIVE puts a memory back into system prompts; ARCHIVED keeps it out. */
  'memories.setStatus': {
    request: z.object({ id: idSchema, status: z.enum(['ACTIVE', 'ARCHIVED']) }).strict(),
    response: memorySchema,
  },
  /**
   * Activates a PENDING memory (saved after a turn read untrusted content; `origin` says which
   * and why). A memory that is not pending is refused.
   */
  'memories.confirm': { request: z.object({ id: idSchema }).strict(), response: memorySchema },
  'memories.delete': { request: z.object({ id: idSchema }).strict(), response: ok },
  'skills.get': { request: z.object({ name: skillName }).strict(), response: skillDetailSchema },
  'skills.create': {
    request: z
      .object({ name: skillName, ...skillFields, assets: z.array(assetInput).max(20).optional() })
      .strict(),
    response: skillDetailSchema,
  },
  /** Changes a user skill (built-in ones are read-only); `changes.name` renames it. */
  'skills.update': {
    request: z
      .object({
        name: skillName,
        changes: z
          .object({
            name: skillName.optional(),
            icon: skillFields.icon,
            whenToUse: skillFields.whenToUse.optional(),
            instructions: skillFields.instructions.optional(),
          })
          .strict(),
      })
      .strict(),
    response: skillDetailSchema,
  },
  /** `restoredBuiltIn`: the removed skill overrode a built-in one, which applies again. */
  'skills.delete': {
    request: z.object({ name: skillName }).strict(),
    response: z.object({ restoredBuiltIn: z.boolean() }),
  },
  'skills.putAsset': {
    request: z.object({ skill: skillName, asset: assetInput }).strict(),
    response: skillDetailSchema,
  },
  'skills.deleteAsset': {
    request: z.object({ skill: skillName, asset: z.string().min(1).max(255) }).strict(),
    response: skillDetailSchema,
  },
  'prompts.create': {
    request: z.object(promptFields).strict(),
    response: promptTemplateSchema,
  },
  'prompts.update': {
    request: z
      .object({
        id: idSchema,
        title: promptFields.title.optional(),
        body: promptFields.body.optional(),
        tags: promptFields.tags,
      })
      .strict(),
    response: promptTemplateSchema,
  },
  'prompts.delete': { request: z.object({ id: idSchema }).strict(), response: ok },
};
