/**
 * The frames of the contract over `aivory serve`'s WebSocket (`/ws`), both directions. A request
 * carries a client-chosen numeric id that its result echoes; events have no id.
 */
import { z } from 'zod';
import { MAX_REQUEST_ID } from './limits';

export { MAX_REQUEST_ID } from './limits';

/** Browser → host: call one contract method. */
export const requestFrameSchema = z
  .object({
    id: z.number().int().min(0).max(MAX_REQUEST_ID),
    method: z.string().max(100),
    payload: z.unknown().optional(),
  })
  .strict();

/** A parsed request frame. */
export type RequestFrame = z.infer<typeof requestFrameSchema>;

/** Host → browser: the result of request `id` (an InvokeResult envelope). */
export interface ResultFrame {
  type: 'result';
  /** The request's id; -1 when the request frame itself could not be read. */
  id: number;
  result: { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };
}

/** Host → browser: one event of the contract's EventContract. */
export interface EventFrame {
  type: 'event';
  name: string;
  payload: unknown;
}

/** Any host → browser frame. */
export type HostFrame = ResultFrame | EventFrame;
