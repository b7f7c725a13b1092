/**
 * A model's settings: provider (a preset fills the URL and tool mode), name, provider URL, key
 * (the saved one only masked), model, tool mode, vision, context window, and the built-in / MCP
 * tools checked by default. "Check connection and fetch models" lists the server's models to pick
 * from with a search box (a saved key is used only against the model's own URL); picking one
 * fills in what the provider states. "Another model from this provider" (`template`) starts a new
 * model on the same URL reusing the saved key, which the host copies only to the same origin.
 *
 * The parts: the fields and the request (`use-model-draft.ts`), the key rules
 * (`model-key-rules.ts`) and fields (`model-key-fields.tsx`), the server check
 * (`use-model-check.ts`); this file lays them out and saves.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { ToolMode } from '../../../shared/dto';
import { presetById } from '../../../shared/provider-presets';
import { listPrompts, PROMPTS_KEY } from '../../data/library';
import type { ModelView } from '../../data/models';
import { saveModel } from '../../data/models';
import { useQuery } from '../../data/use-query';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { ServerModels } from '../setup/server-models';
import { ProviderNote, ProviderSelect } from '../setup/provider-select';
import type { DefaultOption } from './defaults-picker';
import { DefaultsPicker } from './defaults-picker';
import type { FieldErrors, SaveState } from './form-controls';
import { Field, SaveRow } from './form-controls';
import { checkInteger, checkRequired, checkUrl, errorMessage, fieldOfError } from './form-rules';
import { ModelKeyFields } from './model-key-fields';
import { useFormErrors } from './use-form-errors';
import { useModelCheck } from './use-model-check';
import { useModelDraft } from './use-model-draft';
import { SettingsFields } from '../conversations/settings-fields';
import type { SettingsText } from '../conversations/settings-form';

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
  const { errors, setErrors, edited } = useFormErrors();
  const draft = useModelDraft(saved, template, edited);
  const check = useModelCheck(saved, template);
  // The saved prompts the default instructions may name (none shown until they arrive).
  const prompts = useQuery(PROMPTS_KEY, listPrompts, { reportErrors: false });
  const promptChoices = (prompts.data ?? []).map(({ id, title }) => ({ id, title }));
  const [state, setState] = useState<SaveState>('idle');
  const { label, baseUrl, apiKey, model, toolMode, vision, context, defaults } = draft;

  const save = async (): Promise<void> => {
    const problems: FieldErrors = {
      baseUrl: checkUrl(baseUrl, true),
      model: checkRequired(model),
      contextWindow: checkInteger(context, 1024, 10_000_000),
      ...(draft.parsedDefaults.ok ? {} : draft.parsedDefaults.errors),
    };
    setErrors(problems);
    if (Object.values(problems).some(Boolean) || !bridge) return;
    setState('saving');
    try {
      await saveModel(bridge, draft.request());
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
  const preset = presetById(draft.presetId);

  return (
    <div className="model-editor" data-testid="model-editor">
      <Field label="models.provider" testId="model-provider">
        <ProviderSelect
          value={draft.presetId}
          testId="model-provider"
          onChange={(next) => {
            draft.choosePreset(next);
            check.clear();
          }}
        />
      </Field>
      <ProviderNote preset={preset} baseUrl={baseUrl} testId="model-provider-note" />
      <Field label="set.models.label" testId="model-label" error={errors.label}>
        <input
          data-testid="model-label"
          value={label}
          onChange={(e) => edited('label', draft.setLabel)(e.target.value)}
        />
      </Field>
      <Field label="set.models.baseUrl" testId="model-base-url" error={errors.baseUrl}>
        <input
          data-testid="model-base-url"
          value={baseUrl}
          placeholder="https://api.example.com/v1"
          onChange={(e) => {
            draft.typeBaseUrl(e.target.value);
            check.clear();
          }}
        />
      </Field>
      <ModelKeyFields
        draft={draft}
        saved={saved}
        errors={errors}
        onKey={(value) => edited('apiKey', draft.setApiKey)(value)}
      />
      {check.check?.ok === true && (
        <ServerModels check={check.check} value={model} testId="model-list" onPick={draft.pick} />
      )}
      <Field label="set.models.model" testId="model-name" error={errors.model}>
        <input
          data-testid="model-name"
          value={model}
          onChange={(e) => edited('model', draft.setModel)(e.target.value)}
        />
      </Field>
      <Field label="set.models.toolMode" testId="model-tool-mode">
        <select
          data-testid="model-tool-mode"
          value={toolMode}
          onChange={(e) => draft.setToolMode(e.target.value as ToolMode)}
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
          onChange={(e) => draft.setVision(e.target.checked)}
        />
        <span>{t('models.vision')}</span>
      </label>
      <p className="field-hint">{t('models.visionHint')}</p>
      <Field label="set.models.contextWindow" testId="model-context" error={errors.contextWindow}>
        <input
          data-testid="model-context"
          inputMode="numeric"
          value={context}
          onChange={(e) => edited('contextWindow', draft.setContext)(e.target.value)}
        />
      </Field>
      <fieldset className="settings-fieldset" data-testid="model-defaults">
        <legend>{t('models.defaults')}</legend>
        <p className="field-hint">{t('models.defaultsHelp')}</p>
        <SettingsFields
          form={defaults}
          errors={errors}
          prompts={promptChoices}
          parametersHint={t('models.defaultsParametersHelp')}
          idPrefix="model-default"
          onChange={(field, text) =>
            edited(field, (value: SettingsText[typeof field]) =>
              draft.setDefaults((previous) => ({ ...previous, [field]: value })),
            )(text)
          }
        />
      </fieldset>
      <DefaultsPicker
        title="set.models.builtInDefaults"
        allLabel="set.models.allTools"
        someLabel="set.models.someTools"
        options={props.toolOptions}
        selected={draft.tools}
        testId="model-tool-defaults"
        onChange={draft.setTools}
      />
      <DefaultsPicker
        title="set.models.mcpDefaultsTitle"
        allLabel="set.models.allServices"
        someLabel="set.models.someServices"
        emptyLabel="set.models.noServices"
        options={props.mcpOptions}
        selected={draft.services}
        testId="model-mcp-defaults"
        onChange={draft.setServices}
      />
      <SaveRow state={state} testId="model-save" onSave={() => void save()}>
        <button
          type="button"
          className="button"
          data-testid="model-check"
          onClick={() => void check.run({ baseUrl, apiKey, model })}
        >
          {t('models.fetch')}
        </button>
        <button type="button" className="button ghost" onClick={props.onDone}>
          {t('form.cancel')}
        </button>
      </SaveRow>
      {check.check && (
        <p
          className={check.check.ok ? 'check-ok' : 'check-failed'}
          data-testid="model-check-result"
        >
          {check.check.ok
            ? t('set.models.checkOk', { count: check.check.models.length })
            : t('set.models.checkFailed', { message: check.check.error ?? '' })}
        </p>
      )}
    </div>
  );
}
