/**
 * `conversations.tools` / `conversations.setTools`: a conversation's own tool switches (the third
 * availability layer, `stores.conversations.setConversationToolToggles`) with the layer that decides each tool
 * (`decideTools`, the chat service's own rule): switched off globally, switched on/off for this
 * conversation, or the model's defaults. The model is the one the composer names, else the
 * conversation's own.
 */
import type { Conversation } from '../../../shared/dto';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import type { ModelToolDefaults } from '../../services/tool-selection';
import { decideTools } from '../../services/tool-selection';
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
      return toolRows(context, modelDefaults(context, modelId ?? conversation?.modelId ?? null), {
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
      return toolRows(context, modelDefaults(context, modelId ?? conversation.modelId), next);
    },
  };
}

/** The saved model's defaults; every tool for an unknown or environment model. */
function modelDefaults(context: HostContext, modelId: string | null): ModelToolDefaults {
  const model =
    modelId === null
      ? undefined
      : context.app.stores.settings.listModels().find((candidate) => candidate.id === modelId);
  return model ?? { defaultTools: null, defaultMcpServices: null };
}

/**
 * Every tool a turn could offer (built-in, MCP), plus names only the switches know, each decided
 * by the chat service's own rule (`decideTools`) and with whether it can run now.
 */
async function toolRows(
  context: HostContext,
  model: ModelToolDefaults,
  toggles: Record<string, boolean>,
): Promise<ToolRows> {
  const { stores, tools } = context.app;
  const switches = stores.settings.getToolAvailability();
  const candidates = await tools.candidates();
  const known = new Set(candidates.map((candidate) => candidate.name));
  // A name switched off globally or toggled that is no tool now (a removed MCP tool) still shows.
  const others = [
    ...new Set([
      ...Object.keys(switches).filter((name) => switches[name] === false),
      ...Object.keys(toggles),
    ]),
  ]
    .filter((name) => !known.has(name))
    .map((name) => ({ name, source: 'built-in' as const }));
  const decisions = decideTools([...candidates, ...others], { switches, model, toggles }).sort(
    (left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0),
  );
  const rows = await Promise.all(
    decisions.map(async ({ name, on, layer, defaultOn }) => {
      const reason =
        layer === 'global-off'
          ? 'switched off in settings'
          : tools.builtInNames.includes(name)
            ? await tools.status(name)
            : known.has(name)
              ? null
              : 'not a built-in tool';
      return { name, on, layer, defaultOn, available: reason === null, reason };
    }),
  );
  return { tools: rows };
}
