/**
 * The model editor's fields (provider preset, name, URL, key, model, tool mode, vision, context,
 * default settings and tools) and what follows from them: the key rules and the `models.save`
 * request. Picking a preset fills the URL and tool mode; picking a listed model fills in what the
 * provider states about it.
 */
import { useState } from 'react';
import type { ToolMode } from '../../../shared/dto';
import type { InvokeRequest } from '../../../shared/ipc-contract';
import type { ListedModel, ProviderPreset } from '../../../shared/provider-presets';
import { DEFAULT_CONTEXT_WINDOW, presetForBaseUrl } from '../../../shared/provider-presets';
import type { ModelView } from '../../data/models';
import type { SettingsText } from '../conversations/settings-form';
import { parseSettings, settingsText } from '../conversations/settings-form';
import type { KeyRules } from './model-key-rules';
import { keyRules } from './model-key-rules';

/** Sets a field (through the form's `edited`, which clears the field's error). */
type Edited = <V>(field: string, set: (value: V) => void) => (value: V) => void;

/** The editor's fields, setters and derived values. */
export function useModelDraft(saved: ModelView | null, template: ModelView | null, edited: Edited) {
  const start = saved ?? template;
  const [label, setLabel] = useState(saved?.label ?? '');
  const [baseUrl, setBaseUrl] = useState(start?.baseUrl ?? '');
  const [presetId, setPresetId] = useState(
    start === null ? 'custom' : presetForBaseUrl(start.baseUrl).id,
  );
  const [apiKey, setApiKey] = useState('');
  const [clearKey, setClearKey] = useState(false);
  const [keepKey, setKeepKey] = useState(false);
  const [model, setModel] = useState(saved?.model ?? '');
  const [toolMode, setToolMode] = useState<ToolMode>(start?.toolMode ?? 'native');
  const [vision, setVision] = useState(saved?.vision ?? false);
  const [context, setContext] = useState(String(start?.contextWindow ?? DEFAULT_CONTEXT_WINDOW));
  const [tools, setTools] = useState<string[] | null>(saved?.defaultTools ?? null);
  const [services, setServices] = useState<string[] | null>(saved?.defaultMcpServices ?? null);
  const [defaults, setDefaults] = useState<SettingsText>(settingsText(saved?.defaults ?? {}));

  const keys: KeyRules = keyRules({ saved, template, baseUrl, apiKey, clearKey });
  const parsedDefaults = parseSettings(defaults);
  const request = (): InvokeRequest<'models.save'> => ({
    ...(parsedDefaults.ok ? { defaults: parsedDefaults.value } : {}),
    ...(saved ? { id: saved.id } : {}),
    ...(label.trim() ? { label: label.trim() } : {}),
    baseUrl: baseUrl.trim(),
    model: model.trim(),
    toolMode,
    vision,
    contextWindow: Number(context),
    defaultTools: tools,
    defaultMcpServices: services,
    ...(apiKey.trim() ? { apiKey: apiKey.trim() } : clearKey ? { apiKey: null } : {}),
    ...(keys.keyWouldMove && keepKey ? { keepKey: true } : {}),
    ...(keys.templateKeyApplies && keys.templateKey ? { keyFrom: keys.templateKey.id } : {}),
  });
  const choosePreset = (preset: ProviderPreset): void => {
    setPresetId(preset.id);
    if (preset.baseUrl !== '') edited('baseUrl', setBaseUrl)(preset.baseUrl);
    setToolMode(preset.toolMode);
  };
  const typeBaseUrl = (value: string): void => {
    edited('baseUrl', setBaseUrl)(value);
    setPresetId(presetForBaseUrl(value).id);
  };
  const pick = (id: string, stated: ListedModel | null): void => {
    edited('model', setModel)(id);
    // What the provider states; another model it says nothing about starts as text only.
    if (stated?.vision != null) setVision(stated.vision);
    else if (id !== model.trim()) setVision(false);
    if (stated?.tools != null) setToolMode(stated.tools ? 'native' : 'prompt');
  };
  return {
    label,
    setLabel,
    baseUrl,
    typeBaseUrl,
    presetId,
    choosePreset,
    apiKey,
    setApiKey,
    clearKey,
    setClearKey,
    keepKey,
    setKeepKey,
    model,
    setModel,
    pick,
    toolMode,
    setToolMode,
    vision,
    setVision,
    context,
    setContext,
    tools,
    setTools,
    services,
    setServices,
    defaults,
    setDefaults,
    parsedDefaults,
    keys,
    request,
  };
}

/** The draft as the editor's parts receive it. */
export type ModelDraft = ReturnType<typeof useModelDraft>;
