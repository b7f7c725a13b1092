/**
 * A model's settings: provider (a preset fills the URL and tool mode), name, provider URL, key
 * (the saved one only masked), model, tool mode, vision, context window, and the built-in / MCP
 * tools checked by default. "Check connection and fetch models" lists the server's models to pick
 * from with a search box (a saved key is used only against the model's own URL); picking one
 * fills in what the provider states. "Another model from this provider" (`template`) starts a new
 * model on the same URL reusing the saved key, which the host copies only to the same origin.
 */
import { originOf } from '../../../shared/url-origin';
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import type { ToolMode } from '../../../shared/dto';
import type { InvokeRequest, InvokeResponse } from '../../../shared/ipc-contract';
import type { ListedModel, ProviderPreset } from '../../../shared/provider-presets';
import {
  DEFAULT_CONTEXT_WINDOW,
  presetById,
  presetForBaseUrl,
} from '../../../shared/provider-presets';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { ServerModels } from '../setup/server-models';
import { ProviderNote, ProviderSelect } from '../setup/provider-select';
import type { DefaultOption } from './defaults-picker';
import { DefaultsPicker } from './defaults-picker';
import type { FieldErrors, SaveState } from './form-controls';
import { Field, SaveRow } from './form-controls';
import { checkInteger, checkRequired, checkUrl, errorMessage, fieldOfError } from './form-rules';
import { useFormErrors } from './use-form-errors';
import { SettingsFields } from '../conversations/settings-fields';
import type { SettingsText } from '../conversations/settings-form';
import { parseSettings, settingsText } from '../conversations/settings-form';

type ModelView = InvokeResponse<'models.save'>;
type Check = InvokeResponse<'models.test'>;

const FIELD_ALIASES = {
  baseUrl: ['url'],
  model: [],
  contextWindow: ['context'],
  label: [],
  apiKey: ['key'],
};

/**
 * The editor of a saved model (`model`) or a new one (null), optionally another model of the
 * provider of `template` (its URL, tool mode and context; its saved key by reference).
 */
export function ModelEditor(props: {
  model: ModelView | null;
  template?: ModelView | null;
  toolOptions: readonly DefaultOption[];
  mcpOptions: readonly DefaultOption[];
  onDone(): void;
}): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const saved = props.model;
  const template = saved === null ? (props.template ?? null) : null;
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
  const [prompts, setPrompts] = useState<{ id: string; title: string }[]>([]);
  useEffect(() => {
    // The saved prompts the default instructions may name (none shown until they arrive).
    if (!bridge) return;
    let live = true;
    bridge.invoke('prompts.list').then(
      (list) => live && setPrompts(list.map(({ id, title }) => ({ id, title }))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [bridge]);
  const { errors, setErrors, edited } = useFormErrors();
  const [state, setState] = useState<SaveState>('idle');
  const [check, setCheck] = useState<Check | null>(null);

  // A saved key is for the server it was saved with: moving the model elsewhere drops it unless
  // the user keeps it on purpose (or types a new one).
  const keyWouldMove =
    saved !== null &&
    saved.apiKeyMasked !== null &&
    !clearKey &&
    apiKey.trim() === '' &&
    originOf(baseUrl.trim()) !== originOf(saved.baseUrl);
  // Another model of a saved one's provider reuses its key, on the same origin only.
  const templateKey =
    template !== null && template.apiKeyMasked !== null && apiKey.trim() === '' ? template : null;
  const templateKeyApplies =
    templateKey !== null && originOf(baseUrl.trim()) === originOf(templateKey.baseUrl);
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
    ...(keyWouldMove && keepKey ? { keepKey: true } : {}),
    ...(templateKeyApplies && templateKey ? { keyFrom: templateKey.id } : {}),
  });
  const save = async (): Promise<void> => {
    const problems: FieldErrors = {
      baseUrl: checkUrl(baseUrl, true),
      model: checkRequired(model),
      contextWindow: checkInteger(context, 1024, 10_000_000),
      ...(parsedDefaults.ok ? {} : parsedDefaults.errors),
    };
    setErrors(problems);
    if (Object.values(problems).some(Boolean) || !bridge) return;
    setState('saving');
    try {
      await bridge.invoke('models.save', request());
      setState('saved');
      props.onDone();
    } catch (error) {
      const message = errorMessage(error);
      const field = fieldOfError(message, FIELD_ALIASES);
      if (field === null) setState({ failed: message });
      else {
        setErrors({ ...problems, [field]: message });
        setState('idle');
      }
    }
  };
  const test = async (): Promise<void> => {
    if (!bridge || checkUrl(baseUrl, true)) return;
    try {
      setCheck(
        await bridge.invoke('models.test', {
          baseUrl: baseUrl.trim(),
          ...(apiKey.trim()
            ? { apiKey: apiKey.trim() }
            : saved
              ? { modelId: saved.id }
              : template
                ? { modelId: template.id }
                : {}),
          ...(model.trim() ? { model: model.trim() } : {}),
        }),
      );
    } catch (error) {
      setCheck({
        ok: false,
        models: [],
        modelListed: null,
        error: errorMessage(error),
        capabilities: [],
        truncated: false,
      });
    }
  };
  const choosePreset = (preset: ProviderPreset): void => {
    setPresetId(preset.id);
    if (preset.baseUrl !== '') edited('baseUrl', setBaseUrl)(preset.baseUrl);
    setToolMode(preset.toolMode);
    setCheck(null);
  };
  const pick = (id: string, stated: ListedModel | null): void => {
    edited('model', setModel)(id);
    // What the provider states; another model it says nothing about starts as text only.
    if (stated?.vision != null) setVision(stated.vision);
    else if (id !== model.trim()) setVision(false);
    if (stated?.tools != null) setToolMode(stated.tools ? 'native' : 'prompt');
  };
  const preset = presetById(presetId);

  return (
    <div className="model-editor" data-testid="model-editor">
      <Field label="models.provider" testId="model-provider">
        <ProviderSelect
          value={presetId}
          testId="model-provider"
          onChange={(next) => choosePreset(next)}
        />
      </Field>
      <ProviderNote preset={preset} baseUrl={baseUrl} testId="model-provider-note" />
      <Field label="set.models.label" testId="model-label" error={errors.label}>
        <input
          data-testid="model-label"
          value={label}
          onChange={(e) => edited('label', setLabel)(e.target.value)}
        />
      </Field>
      <Field label="set.models.baseUrl" testId="model-base-url" error={errors.baseUrl}>
        <input
          data-testid="model-base-url"
          value={baseUrl}
          placeholder="https://api.example.com/v1"
          onChange={(e) => {
            edited('baseUrl', setBaseUrl)(e.target.value);
            setPresetId(presetForBaseUrl(e.target.value).id);
            setCheck(null);
          }}
        />
      </Field>
      <Field label="set.models.apiKey" testId="model-api-key" error={errors.apiKey}>
        <input
          type="password"
          autoComplete="off"
          data-testid="model-api-key"
          value={apiKey}
          placeholder={
            saved?.apiKeyMasked ? t('set.models.apiKeySaved', { mask: saved.apiKeyMasked }) : ''
          }
          onChange={(e) => edited('apiKey', setApiKey)(e.target.value)}
        />
      </Field>
      {templateKey !== null && (
        <p className="field-hint" data-testid="model-sibling-key">
          {templateKeyApplies
            ? t('models.siblingKey', {
                label: templateKey.label,
                mask: templateKey.apiKeyMasked ?? '',
              })
            : t('models.siblingKeyStays', {
                label: templateKey.label,
                origin: originOf(templateKey.baseUrl),
              })}
        </p>
      )}
      {keyWouldMove && (
        <label className="inline" data-testid="model-key-moves">
          <input
            type="checkbox"
            data-testid="model-keep-key"
            checked={keepKey}
            onChange={(e) => setKeepKey(e.target.checked)}
          />
          <span>{t('set.models.keepKey', { origin: originOf(baseUrl.trim()) })}</span>
        </label>
      )}
      {saved?.apiKeyMasked && (
        <label className="inline">
          <input
            type="checkbox"
            data-testid="model-clear-key"
            checked={clearKey}
            onChange={(e) => setClearKey(e.target.checked)}
          />
          <span>{t('set.models.clearKey')}</span>
        </label>
      )}
      {check?.ok === true && (
        <ServerModels check={check} value={model} testId="model-list" onPick={pick} />
      )}
      <Field label="set.models.model" testId="model-name" error={errors.model}>
        <input
          data-testid="model-name"
          value={model}
          onChange={(e) => edited('model', setModel)(e.target.value)}
        />
      </Field>
      <Field label="set.models.toolMode" testId="model-tool-mode">
        <select
          data-testid="model-tool-mode"
          value={toolMode}
          onChange={(e) => setToolMode(e.target.value as ToolMode)}
        >
          <option value="native">{t('setup.toolMode.native')}</option>
          <option value="prompt">{t('setup.toolMode.prompt')}</option>
        </select>
      </Field>
      <label className="inline">
        <input
          type="checkbox"
          data-testid="model-vision"
          checked={vision}
          onChange={(e) => setVision(e.target.checked)}
        />
        <span>{t('models.vision')}</span>
      </label>
      <p className="field-hint">{t('models.visionHint')}</p>
      <Field label="set.models.contextWindow" testId="model-context" error={errors.contextWindow}>
        <input
          data-testid="model-context"
          inputMode="numeric"
          value={context}
          onChange={(e) => edited('contextWindow', setContext)(e.target.value)}
        />
      </Field>
      <fieldset className="settings-fieldset" data-testid="model-defaults">
        <legend>{t('models.defaults')}</legend>
        <p className="field-hint">{t('models.defaultsHelp')}</p>
        <SettingsFields
          form={defaults}
          errors={errors}
          prompts={prompts}
          parametersHint={t('models.defaultsParametersHelp')}
          idPrefix="model-default"
          onChange={(field, text) =>
            edited(field, (value: SettingsText[typeof field]) =>
              setDefaults((previous) => ({ ...previous, [field]: value })),
            )(text)
          }
        />
      </fieldset>
      <DefaultsPicker
        title="set.models.builtInDefaults"
        allLabel="set.models.allTools"
        someLabel="set.models.someTools"
        options={props.toolOptions}
        selected={tools}
        testId="model-tool-defaults"
        onChange={setTools}
      />
      <DefaultsPicker
        title="set.models.mcpDefaultsTitle"
        allLabel="set.models.allServices"
        someLabel="set.models.someServices"
        emptyLabel="set.models.noServices"
        options={props.mcpOptions}
        selected={services}
        testId="model-mcp-defaults"
        onChange={setServices}
      />
      <SaveRow state={state} testId="model-save" onSave={() => void save()}>
        <button
          type="button"
          className="button"
          data-testid="model-check"
          onClick={() => void test()}
        >
          {t('models.fetch')}
        </button>
        <button type="button" className="button ghost" onClick={props.onDone}>
          {t('form.cancel')}
        </button>
      </SaveRow>
      {check && (
        <p className={check.ok ? 'check-ok' : 'check-failed'} data-testid="model-check-result">
          {check.ok
            ? t('set.models.checkOk', { count: check.models.length })
            : t('set.models.checkFailed', { message: check.error ?? '' })}
        </p>
      )}
    </div>
  );
}
