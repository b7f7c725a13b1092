/**
 * MCP elicitation in the desktop UI: when an MCP server asks the user something during a turn's
 * call (a form, or a web page to open), the host pushes `elicitation.request` and waits; the
 * renderer answers with `elicitation.answer` (accept with the form's values, decline, cancel).
 * `elicitation.settled` tells every window that a request is over (answered, or canceled because
 * the call ended, the wait timed out or no window was left). The values go to the server only:
 * never into the turn's events or messages.
 */
import { z } from 'zod';
import { MAX_ELICITATION_STRING_CHARS } from '../mcp-elicitation';
import { idSchema } from './dto-schemas';

/** Most fields an answer may carry (the adapter shows at most 50). */
const MAX_ANSWER_FIELDS = 50;
const MAX_CHOICES = 100;

const optionSchema = z.object({ value: z.string(), label: z.string() });
const fieldBase = {
  name: z.string(),
  title: z.string(),
  description: z.string(),
  required: z.boolean(),
};

/** One field of the form, as the adapter normalised it. */
export const elicitationFieldSchema = z.discriminatedUnion('type', [
  z.object({
    ...fieldBase,
    type: z.literal('string'),
    format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
    default: z.string().optional(),
  }),
  z.object({
    ...fieldBase,
    type: z.enum(['number', 'integer']),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  }),
  z.object({ ...fieldBase, type: z.literal('boolean'), default: z.boolean().optional() }),
  z.object({
    ...fieldBase,
    type: z.literal('enum'),
    options: z.array(optionSchema),
    default: z.string().optional(),
  }),
  z.object({
    ...fieldBase,
    type: z.literal('multi-enum'),
    options: z.array(optionSchema),
    minItems: z.number().optional(),
    maxItems: z.number().optional(),
    default: z.array(z.string()).optional(),
  }),
]);

/** What the user is asked: which (third-party) service, its message, the form or the URL. */
export const elicitationRequestSchema = z.object({
  elicitationId: z.string(),
  turnId: z.string().nullable(),
  conversationId: z.string().nullable(),
  /** The service's name as the user saved it. */
  service: z.string(),
  mode: z.enum(['form', 'url']),
  /** The server's message: untrusted plain text. */
  message: z.string(),
  fields: z.array(elicitationFieldSchema),
  url: z.string().nullable(),
  /**
   * URL mode: the server refused the running call until the user has been to the page (-32042);
   * the card's second step is "Done", after which the call is tried again.
   */
  retry: z.boolean().optional(),
});

/** One value of an accepted form. */
const answerValueSchema = z.union([
  z.string().max(MAX_ELICITATION_STRING_CHARS),
  z.number().finite(),
  z.boolean(),
  z.array(z.string().max(MAX_ELICITATION_STRING_CHARS)).max(MAX_CHOICES),
]);

/** The user's answer (the host checks accepted values against the form again). */
export const elicitationAnswerSchema = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('accept'),
      content: z
        .record(z.string().max(200), answerValueSchema)
        .refine((content) => Object.keys(content).length <= MAX_ANSWER_FIELDS, {
          message: `at most ${MAX_ANSWER_FIELDS} fields`,
        }),
    })
    .strict(),
  z.object({ action: z.literal('decline') }).strict(),
  z.object({ action: z.literal('cancel') }).strict(),
]);

/** Why a pending request ended. */
export const elicitationSettledReasonSchema = z.enum([
  'answered',
  'canceled',
  'timeout',
  'disconnected',
  /** The server said the URL elicitation is complete (`notifications/elicitation/complete`). */
  'completed',
]);

/** The elicitation methods, spread into `invokeContract`. */
export const elicitationMethods = {
  /** Answers a pending request; `accepted` is false when it had already ended. */
  'elicitation.answer': {
    request: z.object({ elicitationId: idSchema, answer: elicitationAnswerSchema }).strict(),
    response: z.object({ accepted: z.boolean() }),
  },
};

/** The elicitation events, spread into `eventContract`. */
export const elicitationEvents = {
  'elicitation.request': elicitationRequestSchema,
  'elicitation.settled': z.object({
    elicitationId: z.string(),
    /** What was sent: never the values themselves. */
    action: z.enum(['accept', 'decline', 'cancel']),
    reason: elicitationSettledReasonSchema,
  }),
};
