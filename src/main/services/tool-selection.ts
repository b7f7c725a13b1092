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
