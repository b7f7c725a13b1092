/**
 * The export of every conversation (Settings → Data): one at a time per host, written to the data
 * directory's exports/ folder as a ZIP that the renderer downloads like a one-conversation export
 * (`Bridge.fileUrl`); progress on `exports.progress` after each conversation; a cancel removes
 * what was written.
 */
import { z } from 'zod';

const exportFormatSchema = z.enum(['md', 'json']);

/** The export methods, spread into `invokeContract`. */
export const exportMethods = {
  /**
   * Exports every conversation; resolves once the archive is whole (a `busy` error while another
   * runs, `canceled` after `exports.cancel`).
   */
  'exports.all': {
    request: z.object({ format: exportFormatSchema }).strict(),
    response: z.object({
      fileName: z.string(),
      mime: z.string(),
      path: z.string(),
      bytes: z.number().int().nonnegative(),
      conversations: z.number().int().nonnegative(),
      files: z.number().int().nonnegative(),
      /** Files messages refer to that were not found: left out. */
      missingFiles: z.number().int().nonnegative(),
    }),
  },
  /** Stops the running export of every conversation (nothing when none runs). */
  'exports.cancel': {
    request: z.object({}).strict(),
    response: z.object({ ok: z.literal(true) }),
  },
};

/** The export events, spread into `eventContract`. */
export const exportEvents = {
  /** Conversations written so far by the running export of every conversation. */
  'exports.progress': z.object({
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
  }),
};
