/**
 * zod schemas of a message's parts, apart from the rest of the contract: the SQLite adapter checks
 * every stored part against them, and every `aivory` start opens the store, so this module is
 * kept small (building all of the contract's schemas costs each start several milliseconds;
 * issue 24). `dto-schemas.ts` and `turn-event-schema.ts` re-export them.
 */
import { z } from 'zod';

/** A file produced by a tool and attached to the assistant message. */
export const artifactReferenceSchema = z.lazy(() =>
  z.object({
    name: z.string(),
    path: z.string(),
    mime: z.string(),
    size: z.number(),
  }),
);

/** Status of one tool call. */
export const toolCallStatusSchema = z.lazy(() => z.enum(['ok', 'error', 'skipped', 'budget']));

/** A tool's structured result as the trace card shows it (`StructuredToolOutput`). */
export const structuredToolOutputSchema = z.lazy(() =>
  z.object({
    json: z.string(),
    check: z.enum(['valid', 'invalid', 'unchecked', 'none']),
    problem: z.string().optional(),
  }),
);

/** One ordered part of a message. */
export const messagePartSchema = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('text'), text: z.string() }),
    z.object({
      kind: z.literal('reasoning'),
      text: z.string(),
      durationMs: z.number().int().nonnegative().optional(),
    }),
    z.object({
      kind: z.literal('tool-call'),
      toolCallId: z.string(),
      name: z.string(),
      arguments: z.unknown(),
    }),
    z.object({
      kind: z.literal('tool-result'),
      toolCallId: z.string(),
      name: z.string(),
      status: toolCallStatusSchema,
      output: z.string(),
      durationMs: z.number(),
      structured: structuredToolOutputSchema.optional(),
    }),
    z.object({ kind: z.literal('artifact'), artifact: artifactReferenceSchema }),
    z.object({ kind: z.literal('attachment'), attachment: artifactReferenceSchema }),
  ]),
);
