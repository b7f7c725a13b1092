/**
 * `sandbox.resetWorkspace`: the chat's button for a conversation whose sandbox files could not be
 * restored because no save of them can be read (src/shared/sandbox-workspace.ts): the next run
 * starts with an empty /workspace and the damaged save is kept aside. The sidecar refuses when a
 * save can be read (an error with its reason; nothing changed).
 */
import { z } from 'zod';
import { idSchema } from './dto-schemas';

export const workspaceResetSchema = z.object({
  /** Where each damaged save is kept (a path on the sandbox's host, or a URL), newest first. */
  keptAs: z.array(z.string()),
  /** What the user reads. */
  message: z.string(),
});

/** The sandbox methods, spread into `invokeContract`. */
export const sandboxMethods = {
  'sandbox.resetWorkspace': {
    request: z.object({ conversationId: idSchema }).strict(),
    response: workspaceResetSchema,
  },
};
