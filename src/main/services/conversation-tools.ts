/**
 * The conversation-tools listing, one for the app (`conversations.tools` / `setTools`) and the
 * CLI (`aivory conversations tools`): every tool a turn of the conversation could offer — the
 * built-ins and the MCP tools callable now, from the services' synced catalogs (nothing is
 * connected to list them) — plus the names only the switches know (a removed MCP tool still
 * switched), each decided by the chat service's own rule (`decideTools`) with the model's defaults
 * (built-in names and MCP services), and with whether it can run now.
 */
import type { ToolCandidate } from '../core/ports';
import type { ToolLayer } from './tool-selection';
import { decideTools } from './tool-selection';
import type { ModelsService } from './models-service';
import type { ModelToolDefaults } from './tool-selection';

export interface ConversationToolRow {
  name: string;
  /** Whether a turn without a one-off selection offers it. */
  on: boolean;
  /** The layer that decided `on`. */
  layer: ToolLayer;
  /** Whether the model's defaults include it. */
  defaultOn: boolean;
  /** Whether it can run now (its backend is there; not switched off in settings). */
  available: boolean;
  /** Why it cannot run now, or null. */
  reason: string | null;
}

export interface ConversationToolsDeps {
  tools: {
    readonly builtInNames: readonly string[];
    candidates(): Promise<ToolCandidate[]>;
    status(name: string): Promise<string | null>;
  };
  /** The global switches (`tool_availability`). */
  switches: () => Readonly<Record<string, boolean>>;
  models: Pick<ModelsService, 'find'>;
}

/**
 * The rows for a conversation whose turns use model `modelId` (a saved model's id; null or an
 * unknown id — the environment's model — has no defaults: every tool) with these `toggles`,
 * sorted by name.
 */
export async function conversationToolRows(
  deps: ConversationToolsDeps,
  modelId: string | null,
  toggles: Readonly<Record<string, boolean>>,
): Promise<ConversationToolRow[]> {
  const model: ModelToolDefaults = deps.models.find(modelId) ?? {
    defaultTools: null,
    defaultMcpServices: null,
  };
  const switches = deps.switches();
  const candidates = await deps.tools.candidates();
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
  return Promise.all(
    decisions.map(async ({ name, on, layer, defaultOn }) => {
      const reason =
        layer === 'global-off'
          ? 'switched off in settings'
          : deps.tools.builtInNames.includes(name)
            ? await deps.tools.status(name)
            : known.has(name)
              ? null
              : 'not a built-in tool';
      return { name, on, layer, defaultOn, available: reason === null, reason };
    }),
  );
}
