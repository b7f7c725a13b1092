/**
 * The single entry of every transport: `dispatch(method, payload, sender)` checks the sender,
 * looks the method up in the contract, validates the payload with its zod schema and runs the
 * handler. It never throws: every failure is a bounded `{ code, message }` the renderer can show.
 */
import type { z } from 'zod';
import { toPublicError } from '../../shared/errors';
import type {
  InvokeMethod,
  InvokeResponse,
  InvokeResult,
  ParsedRequest,
  PublicErrorPayload,
} from '../../shared/ipc-contract';
import { invokeContract, isInvokeMethod } from '../../shared/ipc-contract';
import type { Logger } from '../core/ports';
import type { SenderDescriptor, SenderPolicy } from './sender';
import { senderRefusal } from './sender';

/** Longest error message sent to the renderer (a zod report of a huge payload stays short). */
export const MAX_ERROR_MESSAGE_CHARS = 500;
/** How many validation issues an invalid-request message lists. */
const MAX_LISTED_ISSUES = 3;

/** One function per contract method. */
export type ApiHandlers = {
  [M in InvokeMethod]: (
    request: ParsedRequest<M>,
    sender: SenderDescriptor,
  ) => Promise<InvokeResponse<M>> | InvokeResponse<M>;
};

/** Runs one call from a transport; resolves to a result envelope, never rejects. */
export type Dispatch = (
  method: unknown,
  payload: unknown,
  sender: SenderDescriptor,
) => Promise<InvokeResult<InvokeMethod>>;

/** What the dispatcher checks against and runs. */
export interface DispatcherOptions {
  handlers: ApiHandlers;
  policy: SenderPolicy;
  logger: Pick<Logger, 'warn' | 'error'>;
}

/** Builds the dispatch function the transports call. */
export function createDispatcher(options: DispatcherOptions): Dispatch {
  const { handlers, policy, logger } = options;
  return async (method, payload, sender) => {
    const refusal = senderRefusal(sender, policy);
    if (refusal !== null) {
      logger.warn('request from a refused sender', { transport: sender.transport, refusal });
      return failure('forbidden', 'This sender may not use the Aivory API.');
    }
    if (!isInvokeMethod(method)) {
      return failure('unknown-method', `Unknown method ${describe(method)}.`);
    }
    const schema: z.ZodType = invokeContract[method].request;
    const parsed = schema.safeParse(payload ?? undefined);
    if (!parsed.success) {
      return failure('invalid-input', `Invalid request for ${method}: ${issues(parsed.error)}`);
    }
    try {
      const value = await runHandler(handlers, method, parsed.data, sender);
      return { ok: true, value };
    } catch (error) {
      const publicError = toPublicError(error);
      if (publicError.code === 'internal') {
        logger.error('handler failed', { method, error: String(error) });
      }
      return failure(publicError.code, publicError.message);
    }
  };
}

/** Calls the handler of `method` with an already validated request. */
function runHandler(
  handlers: ApiHandlers,
  method: InvokeMethod,
  request: unknown,
  sender: SenderDescriptor,
): Promise<InvokeResponse<InvokeMethod>> {
  // The request was parsed by this method's own schema, so it has the handler's parameter type;
  // TypeScript cannot correlate the two through the union of methods.
  const handler = handlers[method] as (
    request: unknown,
    sender: SenderDescriptor,
  ) => Promise<InvokeResponse<InvokeMethod>> | InvokeResponse<InvokeMethod>;
  return Promise.resolve(handler(request, sender));
}

/** A failed result with the message cut to a bounded length. */
export function failure(code: string, message: string): { ok: false; error: PublicErrorPayload } {
  const bounded =
    message.length > MAX_ERROR_MESSAGE_CHARS
      ? `${message.slice(0, MAX_ERROR_MESSAGE_CHARS - 1)}…`
      : message;
  return { ok: false, error: { code, message: bounded } };
}

function issues(error: z.ZodError): string {
  const listed = error.issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  const more = error.issues.length - listed.length;
  return `${listed.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`;
}

function describe(value: unknown): string {
  if (typeof value !== 'string') return `(${typeof value})`;
  return `"${value.slice(0, 60)}"`;
}
