/**
 * A model's connection on the first-run screen: provider (a preset fills the base URL and tool
 * mode), base URL, key, model, tool mode, vision. "Check connection and fetch models" lists the
 * server's models to pick from, with a search box (`model-picker.tsx`); picking one fills in what
 * the provider states (vision, native tools). Saving needs a successful check of the current URL
 * and key; the model name can be changed after the check (a name the server does not list is
 * allowed, with a warning), and when Save is disabled a line under it says why.
 */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import type { ToolMode } from '../../../shared/dto';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import type { ListedModel, ProviderPreset } from '../../../shared/provider-presets';
import { presetById, presetForBaseUrl } from '../../../shared/provider-presets';
import type { MessageKey } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { ServerModels } from './server-models';
import { ProviderNote, ProviderSelect } from './provider-select';
import { saveModel, testModelServer } from '../../data/models';

/** Prefilled values (from a discovered server); `check` runs the connection check at once. */
export interface ModelDraft {
  baseUrl: string;
  model: string;
  check?: boolean;
}

type Check = InvokeResponse<'models.test'>;

/** Why "Save and start" is disabled, or null when it is not. */
export function saveBlocker(state: {
  check: Check | null;
  checkChanged: boolean;
  model: string;
}): MessageKey | null {
  if (state.check === null)
    return state.checkChanged ? 'models.saveHint.changed' : 'models.saveHint.check';
  if (!state.check.ok) return 'models.saveHint.failed';
  if (state.model.trim() === '') return 'models.saveHint.model';
  return null;
}

/** Check a connection, then save the model as the default. */
export function ModelForm(props: { initial: ModelDraft; onSaved(): void }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const [presetId, setPresetId] = useState(
    props.initial.baseUrl === '' ? 'custom' : presetForBaseUrl(props.initial.baseUrl).id,
  );
  const [baseUrl, setBaseUrl] = useState(props.initial.baseUrl);
  const [apiKey, setApiKey] = useState('');
  const [model, setModel] = useState(props.initial.model);
  const [toolMode, setToolMode] = useState<ToolMode>(presetById(presetId).toolMode);
  const [vision, setVision] = useState(false);
  const [check, setCheck] = useState<Check | null>(null);
  // A check answered for a URL and key that were then edited: it no longer counts.
  const [checkChanged, setCheckChanged] = useState(false);
  const [checking, setChecking] = useState(false);
  const preset = presetById(presetId);
  const connectionEdited = (apply: () => void): void => {
    apply();
    if (check !== null) setCheckChanged(true);
    setCheck(null);
  };
  const choosePreset = (next: ProviderPreset): void => {
    connectionEdited(() => {
      setPresetId(next.id);
      if (next.baseUrl !== '') setBaseUrl(next.baseUrl);
      setToolMode(next.toolMode);
    });
  };
  const pick = (id: string, stated: ListedModel | null): void => {
    setModel(id);
    // What the provider states; another model it says nothing about starts as text only.
    if (stated?.vision != null) setVision(stated.vision);
    else if (id !== model.trim()) setVision(false);
    if (stated?.tools != null) setToolMode(stated.tools ? 'native' : 'prompt');
  };
  const test = async (): Promise<void> => {
    if (!bridge) return;
    setChecking(true);
    try {
      setCheck(
        await testModelServer(bridge, {
          baseUrl,
          ...(apiKey.trim() ? { apiKey } : {}),
          ...(model.trim() ? { model } : {}),
        }),
      );
      setCheckChanged(false);
    } catch (error) {
      showError(error);
    } finally {
      setChecking(false);
    }
  };
  useEffect(() => {
    if (props.initial.check === true && props.initial.baseUrl !== '') void test();
    // Only once, for the draft this form was opened with.
  }, []);
  const save = async (): Promise<void> => {
    if (!bridge) return;
    try {
      await saveModel(bridge, {
        baseUrl,
        model,
        toolMode,
        vision,
        isDefault: true,
        ...(apiKey.trim() ? { apiKey } : {}),
      });
      props.onSaved();
    } catch (error) {
      showError(error);
    }
  };
  const blocker = saveBlocker({ check, checkChanged, model });
  const unlisted =
    check?.ok === true && check.models.length > 0 && model.trim() !== ''
      ? !check.models.includes(model.trim())
      : false;
  return (
    <div className="model-form">
      <label>
        <span>{t('models.provider')}</span>
        <ProviderSelect value={presetId} testId="setup-provider" onChange={choosePreset} />
      </label>
      <ProviderNote preset={preset} baseUrl={baseUrl} testId="setup-provider-note" />
      <label>
        <span>{t('setup.baseUrl')}</span>
        <input
          data-testid="setup-base-url"
          value={baseUrl}
          placeholder="http://127.0.0.1:11434/v1"
          onChange={(event) =>
            connectionEdited(() => {
              setBaseUrl(event.target.value);
              if (presetId !== 'custom' || event.target.value.trim() !== '')
                setPresetId(presetForBaseUrl(event.target.value).id);
            })
          }
        />
      </label>
      <label>
        <span>{preset.needsKey ? t('set.models.apiKey') : t('setup.apiKey')}</span>
        <input
          data-testid="setup-api-key"
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(event) => connectionEdited(() => setApiKey(event.target.value))}
        />
      </label>
      <div className="form-actions">
        <button
          type="button"
          className="button"
          data-testid="setup-test"
          disabled={checking || baseUrl.trim() === ''}
          onClick={() => void test()}
        >
          {checking ? t('models.fetching') : t('models.fetch')}
        </button>
      </div>
      {check !== null && (
        <p
          className={check.ok ? 'check-ok' : 'check-failed'}
          data-testid="setup-test-result"
          data-ok={check.ok}
        >
          {check.ok
            ? t('setup.testOk', { count: check.models.length })
            : t('setup.testFailed', { message: check.error ?? '' })}
        </p>
      )}
      {check?.ok === true && (
        <ServerModels check={check} value={model} testId="setup-models" onPick={pick} />
      )}
      <label>
        <span>{t('setup.model')}</span>
        <input
          data-testid="setup-model"
          value={model}
          onChange={(event) => setModel(event.target.value)}
        />
      </label>
      {unlisted && (
        <p className="muted" data-testid="setup-model-unlisted">
          {t('models.unlisted', { model: model.trim() })}
        </p>
      )}
      <label>
        <span>{t('setup.toolMode')}</span>
        <select
          data-testid="setup-tool-mode"
          value={toolMode}
          onChange={(event) => setToolMode(event.target.value as ToolMode)}
        >
          <option value="native">{t('setup.toolMode.native')}</option>
          <option value="prompt">{t('setup.toolMode.prompt')}</option>
        </select>
      </label>
      <label className="inline">
        <input
          type="checkbox"
          data-testid="setup-vision"
          checked={vision}
          onChange={(event) => setVision(event.target.checked)}
        />
        <span>{t('models.vision')}</span>
      </label>
      <div className="form-actions">
        <button
          type="button"
          className="button primary"
          data-testid="setup-save"
          disabled={blocker !== null}
          aria-describedby={blocker === null ? undefined : 'setup-save-hint'}
          onClick={() => void save()}
        >
          {t('setup.save')}
        </button>
      </div>
      {blocker !== null && (
        <p className="muted" id="setup-save-hint" data-testid="setup-save-hint">
          {t(blocker)}
        </p>
      )}
    </div>
  );
}
