/**
 * Which tools a turn offers when it names none: the seed's layers, in order. A tool switched off
 * globally is already missing from `available` and stays off; the model's defaults say which of
 * the rest are checked (null: all of them); the conversation's own toggles then add or remove.
 */
export function turnToolNames(
  available: readonly string[],
  modelDefaults: readonly string[] | null,
  toggles: Readonly<Record<string, boolean>>,
): string[] {
  return available.filter((name) => toggles[name] ?? modelDefaults?.includes(name) ?? true);
}

/** Which layer decides a tool for a conversation, for `aivory doctor` and the UI. */
export function toolLayer(
  name: string,
  modelDefaults: readonly string[] | null,
  toggles: Readonly<Record<string, boolean>>,
): 'conversation-on' | 'conversation-off' | 'model-default' | 'not-model-default' {
  const toggle = toggles[name];
  if (toggle !== undefined) return toggle ? 'conversation-on' : 'conversation-off';
  return (modelDefaults?.includes(name) ?? true) ? 'model-default' : 'not-model-default';
}

/** An MCP tool as the turn names it, with its service. */
export interface McpToolName {
  name: string;
  serviceId: string;
  serviceName: string;
}

/** MCP tools of the given services (ids or names); null or undefined: every service. */
export function mcpToolNamesOf(
  mcp: readonly McpToolName[],
  services: readonly string[] | null | undefined,
): string[] {
  return mcp
    .filter(
      (entry) =>
        services == null ||
        services.includes(entry.serviceId) ||
        services.includes(entry.serviceName),
    )
    .map((entry) => entry.name);
}

/** The model's default names: its built-in defaults (null: all) and its MCP services' tools. */
export function defaultToolNames(
  builtIns: readonly string[],
  model: { defaultTools: readonly string[] | null; defaultMcpServices?: readonly string[] | null },
  mcp: readonly McpToolName[],
): string[] {
  return [...(model.defaultTools ?? builtIns), ...mcpToolNamesOf(mcp, model.defaultMcpServices)];
}
