/**
 * Which tools a turn offers — the one decision, used by the chat service for every turn and by the
 * listings (`aivory conversations tools`, `conversations.tools`) to show it. Layers, strongest
 * first:
 *
 * 1. the global switch (`tool_availability`): a tool switched off is offered by no turn;
 * 2. a one-off selection for this turn (CLI `--tools` / `chat.send`'s `tools`): exactly those
 *    built-in tools, plus the tools of the `--mcp` services; the model's defaults and the
 *    conversation's switches do not apply;
 * 3. otherwise the model's defaults (`defaultTools`, `defaultMcpServices`, or the turn's `--mcp`
 *    services; null: all), which the conversation's own switches then add to or remove from.
 */
import { AivoryError } from '../../shared/errors';
import type { ToolCandidate } from '../core/ports';

/** The layer that decides a tool (`conversations.tools` shows it). */
export type ToolLayer =
  'global-off' | 'conversation-on' | 'conversation-off' | 'model-default' | 'not-model-default';

/** A model's tool defaults: built-in names and MCP services (ids or names); null: all of them. */
export interface ModelToolDefaults {
  defaultTools: readonly string[] | null;
  defaultMcpServices?: readonly string[] | null;
}

/** Everything but the turn's one-off selection. */
export interface ToolLayers {
  /** The global switches; false removes a tool everywhere. */
  switches: Readonly<Record<string, boolean>>;
  model: ModelToolDefaults;
  /** The conversation's own switches (empty for a new conversation). */
  toggles: Readonly<Record<string, boolean>>;
}

/** A turn's one-off selection; absent fields follow the layers. */
export interface TurnToolSelection {
  /** Exactly these tools (built-in or MCP names); [] for none. */
  tools?: readonly string[];
  /** MCP services (ids or names) whose tools this turn offers instead of the model's. */
  mcpServices?: readonly string[];
}

export interface ToolDecision {
  name: string;
  /** Whether a turn without a one-off selection offers it. */
  on: boolean;
  layer: ToolLayer;
  /** Whether the model's defaults include it. */
  defaultOn: boolean;
}

/** Each candidate with whether a turn offers it and the layer that decided. */
export function decideTools(
  candidates: readonly ToolCandidate[],
  layers: ToolLayers,
): ToolDecision[] {
  return candidates.map((candidate) => {
    const defaultOn = inModelDefaults(candidate, layers.model);
    const layer: ToolLayer =
      layers.switches[candidate.name] === false
        ? 'global-off'
        : toolLayer(candidate.name, defaultOn, layers.toggles);
    return {
      name: candidate.name,
      on: layer === 'conversation-on' || layer === 'model-default',
      layer,
      defaultOn,
    };
  });
}

/**
 * The names a turn offers, in candidate order. A one-off selection naming a tool that does not
 * exist or is switched off globally is refused (the user asked for it by name).
 */
export function turnToolNames(
  candidates: readonly ToolCandidate[],
  layers: ToolLayers,
  selection: TurnToolSelection = {},
): string[] {
  if (selection.tools) {
    const { tools, mcpServices } = selection;
    for (const name of tools) checkNamedTool(candidates, layers.switches, name);
    const services = mcpServices ?? [];
    return candidates
      .filter(
        (candidate) =>
          tools.includes(candidate.name) ||
          (layers.switches[candidate.name] !== false && inServices(candidate, services)),
      )
      .map((candidate) => candidate.name);
  }
  const model = selection.mcpServices
    ? { ...layers.model, defaultMcpServices: selection.mcpServices }
    : layers.model;
  return decideTools(candidates, { ...layers, model })
    .filter((decision) => decision.on)
    .map((decision) => decision.name);
}

/** The most tools one model request carries (OpenAI refuses more than 128). */
export const MAX_TURN_TOOLS = 128;

/** `capTurnTools`'s answer: what the request carries, and what was left out (both in order). */
export interface CappedTools {
  names: string[];
  dropped: string[];
}

/**
 * At most `max` of a turn's tool names: built-in tools first, then the tools the turn named
 * (`--tools`), then those of the MCP services it chose (`--mcp`), then the others in candidate
 * order. The kept names stay in their original order.
 */
export function capTurnTools(
  candidates: readonly ToolCandidate[],
  names: readonly string[],
  selection: TurnToolSelection = {},
  max: number = MAX_TURN_TOOLS,
): CappedTools {
  if (names.length <= max) return { names: [...names], dropped: [] };
  const byName = new Map(candidates.map((candidate) => [candidate.name, candidate]));
  const rank = (name: string): number => {
    const candidate = byName.get(name);
    // Not a candidate: a service's resource reader, which comes last and goes first.
    if (candidate === undefined) return 3;
    if (candidate.source === 'built-in') return 0;
    if (selection.tools?.includes(name)) return 1;
    if (selection.mcpServices && inServices(candidate, selection.mcpServices)) return 2;
    return 3;
  };
  const kept = new Set(
    names
      .map((name, index) => ({ name, index, rank: rank(name) }))
      .sort((left, right) => left.rank - right.rank || left.index - right.index)
      .slice(0, max)
      .map((entry) => entry.name),
  );
  return {
    names: names.filter((name) => kept.has(name)),
    dropped: names.filter((name) => !kept.has(name)),
  };
}

/** Refuses a tool the user named that no turn can offer: unknown, or switched off globally. */
export function checkNamedTool(
  candidates: readonly ToolCandidate[],
  switches: Readonly<Record<string, boolean>>,
  name: string,
): void {
  const known = candidates.some((candidate) => candidate.name === name);
  if (known && switches[name] !== false) return;
  const reason = known ? 'is switched off in settings' : 'does not exist';
  const available =
    candidates
      .filter((candidate) => switches[candidate.name] !== false)
      .map((candidate) => candidate.name)
      .join(', ') || 'none';
  throw new AivoryError(
    'invalid-input',
    `Tool "${name}" ${reason}. Available tools: ${available}.`,
  );
}

/** The layer below the global switch: the conversation's switch, else the model's defaults. */
export function toolLayer(
  name: string,
  defaultOn: boolean,
  toggles: Readonly<Record<string, boolean>>,
): Exclude<ToolLayer, 'global-off'> {
  const toggle = toggles[name];
  if (toggle !== undefined) return toggle ? 'conversation-on' : 'conversation-off';
  return defaultOn ? 'model-default' : 'not-model-default';
}

function inModelDefaults(candidate: ToolCandidate, model: ModelToolDefaults): boolean {
  if (candidate.source === 'mcp') return inServices(candidate, model.defaultMcpServices ?? null);
  return model.defaultTools?.includes(candidate.name) ?? true;
}

/** Whether an MCP tool belongs to one of the services (ids or names); null: every service. */
function inServices(candidate: ToolCandidate, services: readonly string[] | null): boolean {
  if (candidate.source !== 'mcp') return false;
  return (
    services === null ||
    services.includes(candidate.serviceId) ||
    services.includes(candidate.serviceName)
  );
}
