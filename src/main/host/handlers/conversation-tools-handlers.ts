/**
 * `conversations.tools` / `conversations.setTools`: a conversation's own tool switches (the third
 * availability layer, `stores.conversations.setConversationToolToggles`) with the layer that
 * decides each tool, as `services/conversation-tools.ts` lists them for the CLI too. The model is
 * the one the composer names, else the conversation's own.
 */
import type { Conversation } from '../../../shared/dto';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { conversationToolRows } from '../../services/conversation-tools';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';
import { requireConversation as requireStoredConversation } from '../../services/conversation-lookup';

type ConversationToolsHandlers = Pick<
  ApiHandlers,
  'conversations.tools' | 'conversations.setTools'
>;
type ToolRows = InvokeResponse<'conversations.tools'>;

/** The handlers over the host context. */
export function createConversationToolsHandlers(context: HostContext): ConversationToolsHandlers {
  const { stores } = context.app;
  const requireConversation = (id: string): Conversation =>
    requireStoredConversation(stores.conversations, id);
  return {
    'conversations.tools': ({ id, modelId, toggles }) => {
      const conversation = id === undefined ? null : requireConversation(id);
      // A new chat (no id) shows the composer's switches for it, kept until its first message.
      return toolRows(context, modelId ?? conversation?.modelId ?? null, {
        ...(conversation ? conversation.toolToggles : toggles),
      });
    },
    'conversations.setTools': ({ id, modelId, toggles, reset }) => {
      const conversation = requireConversation(id);
      const next: Record<string, boolean> = reset ? {} : { ...conversation.toolToggles };
      for (const [name, value] of Object.entries(toggles ?? {})) {
        if (value === null) delete next[name];
        else next[name] = value;
      }
      stores.conversations.setConversationToolToggles(id, next);
      return toolRows(context, modelId ?? conversation.modelId, next);
    },
  };
}

/** The listing the CLI shows too (`services/conversation-tools.ts`). */
async function toolRows(
  context: HostContext,
  modelId: string | null,
  toggles: Record<string, boolean>,
): Promise<ToolRows> {
  const { stores, tools, models } = context.app;
  return {
    tools: await conversationToolRows(
      { tools, models, switches: () => stores.settings.getToolAvailability() },
      modelId,
      toggles,
    ),
  };
}
