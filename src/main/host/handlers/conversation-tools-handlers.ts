/**
 * `conversations.tools` / `conversations.setTools`: a conversation's own tool switches (the third
 * availability layer, `store.setConversationToolToggles`) with the layer that decides each tool
 * (`toolLayer`): switched off globally, switched on/off for this conversation, or the model's
 * defaults. The model is the one the composer names, else the conversation's own.
 */
import type { Conversation } from '../../../shared/dto';
import { AivoryError } from '../../../shared/errors';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { defaultToolNames, toolLayer } from '../../services/tool-selection';
import { BACKEND_TOOLS } from '../../services/tool-preparation';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';

type ConversationToolsHandlers = Pick<
  ApiHandlers,
  'conversations.tools' | 'conversations.setTools'
>;
type ToolRows = InvokeResponse<'conversations.tools'>;

/** The handlers over the host context. */
export function createConversationToolsHandlers(context: HostContext): ConversationToolsHandlers {
  const { store } = context.app;
  const requireConversation = (id: string): Conversation => {
    const conversation = store.getConversation(id);
    if (!conversation) throw new AivoryError('not-found', `No conversation with id ${id}.`);
    return conversation;
  };
  return {
    'conversations.tools': ({ id, modelId }) => {
      const conversation = id === undefined ? null : requireConversation(id);
      return toolRows(context, modelDefaults(context, modelId ?? conversation?.modelId ?? null), {
        ...conversation?.toolToggles,
      });
    },
    'conversations.setTools': ({ id, modelId, toggles, reset }) => {
      const conversation = requireConversation(id);
      const next: Record<string, boolean> = reset ? {} : { ...conversation.toolToggles };
      for (const [name, value] of Object.entries(toggles ?? {})) {
        if (value === null) delete next[name];
        else next[name] = value;
      }
      store.setConversationToolToggles(id, next);
      return toolRows(context, modelDefaults(context, modelId ?? conversation.modelId), next);
    },
  };
}

/** The saved model's defaults; every tool for an unknown or environment model. */
function modelDefaults(
  context: HostContext,
  modelId: string | null,
): { defaultTools: string[] | null; defaultMcpServices?: string[] | null } {
  const model =
    modelId === null
      ? undefined
      : context.app.store.listModels().find((candidate) => candidate.id === modelId);
  return model ?? { defaultTools: null, defaultMcpServices: null };
}

/** Every known tool (built-in, backend and toggled names) with its layer and availability. */
async function toolRows(
  context: HostContext,
  model: { defaultTools: string[] | null; defaultMcpServices?: string[] | null },
  toggles: Record<string, boolean>,
): Promise<ToolRows> {
  const { store, tools } = context.app;
  // Registers every tool whose backend is there (as tools.status does), so the list is complete.
  await context.app.prepareTools();
  const switches = store.getToolAvailability();
  // Every built-in name, registered or not: a tool hidden by its backend still has a layer.
  const builtIns = [...new Set([...tools.all().map((tool) => tool.name), ...BACKEND_TOOLS])];
  const mcp = await context.app.mcpToolNames();
  const defaults = defaultToolNames(builtIns, model, mcp);
  const names = [
    ...new Set([
      ...tools.all().map((tool) => tool.name),
      ...mcp.map((entry) => entry.name),
      ...BACKEND_TOOLS,
      // A tool switched off globally is not registered, yet the list shows it (and why it is off).
      ...Object.keys(switches).filter((name) => switches[name] === false),
      ...Object.keys(toggles),
    ]),
  ].sort();
  const rows = await Promise.all(
    names.map(async (name) => {
      const globalOff = switches[name] === false;
      const layer = globalOff ? ('global-off' as const) : toolLayer(name, defaults, toggles);
      const isMcp = mcp.some((entry) => entry.name === name);
      const reason = globalOff
        ? 'switched off in settings'
        : isMcp
          ? null
          : await missingReason(context, name);
      return {
        name,
        on: layer === 'conversation-on' || layer === 'model-default',
        layer,
        defaultOn: defaults.includes(name),
        available: reason === null,
        reason,
      };
    }),
  );
  return { tools: rows };
}

/** Why a tool cannot run, or null when it is registered; a name only the switches know is no tool. */
async function missingReason(context: HostContext, name: string): Promise<string | null> {
  if (context.app.tools.get(name) !== undefined) return null;
  if (BACKEND_TOOLS.includes(name)) return context.app.toolStatus(name);
  return 'not a built-in tool';
}
