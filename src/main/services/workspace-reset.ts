/**
 * The user's way out when no save of a conversation's sandbox workspace can be read (see
 * src/shared/sandbox-workspace.ts): start with an empty /workspace, the damaged save kept aside.
 * The chat's button (`sandbox.resetWorkspace`) and `aivory sandbox reset-workspace` both come
 * here; whether the save is damaged is decided by the sidecar alone, which refuses otherwise.
 */
import { AivoryError } from '../../shared/errors';
import type { ConversationStore } from '../core/ports';
import { requireConversation } from './conversation-lookup';
import type { SandboxManager } from './sandbox-manager';
import { SCRATCH_CONVERSATION_ID } from './workspace-staging';

export interface WorkspaceResetOutcome {
  /** Where each damaged save is kept (a path on the sandbox's host, or a URL), newest first. */
  keptAs: string[];
  /** What the user reads. */
  message: string;
}

export async function resetDamagedWorkspace(
  deps: {
    sandbox: Pick<SandboxManager, 'resolve'>;
    conversations: Pick<ConversationStore, 'getConversation'>;
  },
  conversationId: string,
): Promise<WorkspaceResetOutcome> {
  // `aivory tool python_execute` runs in the scratch conversation, which is not stored.
  if (conversationId !== SCRATCH_CONVERSATION_ID) {
    requireConversation(deps.conversations, conversationId);
  }
  const { client, status } = await deps.sandbox.resolve();
  if (!client) {
    throw new AivoryError(
      'config',
      `The sandbox cannot be used: ${status.state === 'unavailable' ? status.reason : status.state}.`,
    );
  }
  const keptAs = await client.resetDamagedWorkspace(conversationId);
  const where =
    keptAs.length === 0
      ? ''
      : ` The damaged save is kept (not deleted) at ${keptAs.join(' and ')}.`;
  return {
    keptAs,
    message: `The next run in this conversation starts with an empty /workspace.${where}`,
  };
}
