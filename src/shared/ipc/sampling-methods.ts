/**
 * MCP sampling in the desktop UI: when an MCP server asks the user's model for a completion
 * during a turn's call, the host pushes `sampling.request` (the server, its system prompt and
 * messages as plain text, the max tokens, the model that would answer) and waits; the renderer
 * answers with `sampling.answer` (once, always for this server, deny). `sampling.settled` tells
 * every window that a request is over (answered, or ended because the call ended, the wait timed
 * out or no window was left). The model's reply goes to the server only.
 */
import { z } from 'zod';
import { MCP_SAMPLING_DECISIONS } from '../mcp-sampling';
import { idSchema } from './dto-schemas';

/** What the user is asked to approve. */
export const samplingRequestSchema = z.object({
  samplingId: z.string(),
  turnId: z.string().nullable(),
  conversationId: z.string().nullable(),
  /** The service's name as the user saved it. */
  service: z.string(),
  /** The model that would answer (the conversation's). */
  model: z.string(),
  /** The server's system prompt: untrusted plain text ('' when none). */
  systemPrompt: z.string(),
  /** The server's messages: untrusted plain text. */
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), text: z.string() })),
  maxTokens: z.number(),
});

export const samplingDecisionSchema = z.enum(MCP_SAMPLING_DECISIONS);

/** Why a pending request ended. */
export const samplingSettledReasonSchema = z.enum([
  'answered',
  'canceled',
  'timeout',
  'disconnected',
]);

/** The sampling methods, spread into `invokeContract`. */
export const samplingMethods = {
  /** Answers a pending request; `accepted` is false when it had already ended. */
  'sampling.answer': {
    request: z.object({ samplingId: idSchema, decision: samplingDecisionSchema }).strict(),
    response: z.object({ accepted: z.boolean() }),
  },
};

/** The sampling events, spread into `eventContract`. */
export const samplingEvents = {
  'sampling.request': samplingRequestSchema,
  'sampling.settled': z.object({
    samplingId: z.string(),
    decision: samplingDecisionSchema,
    reason: samplingSettledReasonSchema,
  }),
};
