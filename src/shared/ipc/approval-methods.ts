/**
 * MCP approvals in the desktop UI: the host pushes `approval.request` when a turn's MCP tool needs
 * the user's consent and waits; the renderer answers with `approval.answer`. `approval.settled`
 * tells every window that a request is over (answered, or denied because the turn was canceled,
 * the wait timed out or no window was left to ask).
 */
import { z } from 'zod';
import { idSchema } from './dto-schemas';
import { taintReasonSchema } from './turn-event-schema';

/** Allow once / for this conversation / always / deny. */
export const approvalAnswerSchema = z.enum(['once', 'conversation', 'always', 'deny']);

/** Why a pending request ended. */
export const approvalSettledReasonSchema = z.enum([
  'answered',
  'canceled',
  'timeout',
  'disconnected',
]);

/**
 * What the user is asked: the exact arguments that will be sent and the server's own hints. `kind`
 * 'web-fetch' is a web_fetch in a turn that read untrusted content (`arguments` is `{ url }`);
 * `reason` and `taint` say why a call is asked that the usual rule would let through.
 */
export const approvalRequestSchema = z.object({
  approvalId: z.string(),
  kind: z.enum(['mcp', 'web-fetch']),
  turnId: z.string().nullable(),
  conversationId: z.string().nullable(),
  /** The model-facing name, e.g. `everything__echo`. */
  toolName: z.string(),
  service: z.string(),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** Declared by the server: untrusted, shown as such. */
  readOnlyHint: z.boolean(),
  destructiveHint: z.boolean(),
  /** Why this is asked when it would not be otherwise (a tainted turn), or null. */
  reason: z.string().nullable(),
  /** What tainted the turn (empty when it is not tainted). */
  taint: z.array(taintReasonSchema),
});

/** The approval methods, spread into `invokeContract`. */
export const approvalMethods = {
  /** Answers a pending request; `accepted` is false when it had already ended. */
  'approval.answer': {
    request: z.object({ approvalId: idSchema, answer: approvalAnswerSchema }).strict(),
    response: z.object({ accepted: z.boolean() }),
  },
};

/** The approval events, spread into `eventContract`. */
export const approvalEvents = {
  'approval.request': approvalRequestSchema,
  'approval.settled': z.object({
    approvalId: z.string(),
    answer: approvalAnswerSchema,
    reason: approvalSettledReasonSchema,
  }),
};
