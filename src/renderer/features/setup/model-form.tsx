/**
 * A model's connection: base URL, key, model name, tool mode. "Check connection" lists the
 * server's models; saving is possible only after a successful check.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { ToolMode } from '../../../shared/dto';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';

/** Prefilled values (from a discovered server). */
export interface ModelDraft {
  baseUrl: string;
  model: string;
}

type Check = InvokeResponse<'models.test'>;

/** Check a connection, then save the model as the default. */
export function ModelForm(props: { initial: ModelDraft; onSaved(): void }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const [baseUrl, setBaseUrl] = useState(props.initial.baseUrl);
  const [apiKey, setApiKey] = useState('');
  const [model, setModel] = useState(props.initial.model);
  const [toolMode, setToolMode] = useState<ToolMode>('native');
  const [check, setCheck] = useState<Check | null>(null);
  const [checking, setChecking] = useState(false);
  const edited = (apply: () => void) => () => {
    apply();
    setCheck(null);
  };
  const test = async (): Promise<void> => {
    if (!bridge) return;
    setChecking(true);
    try {
      setCheck(
        await bridge.invoke('models.test', {
          baseUrl,
          ...(apiKey.trim() ? { apiKey } : {}),
          ...(model.trim() ? { model } : {}),
        }),
      );
    } catch (error) {
      showError(error);
    } finally {
      setChecking(false);
    }
  };
  const save = async (): Promise<void> => {
    if (!bridge) return;
    try {
      await bridge.invoke('models.save', {
        baseUrl,
        model,
        toolMode,
        isDefault: true,
        ...(apiKey.trim() ? { apiKey } : {}),
      });
      props.onSaved();
    } catch (error) {
      showError(error);
    }
  };
  return (
    <div className="model-form">
      <label>
        <span>{t('setup.baseUrl')}</span>
        <input
          data-testid="setup-base-url"
          value={baseUrl}
          placeholder="http://127.0.0.1:11434/v1"
          onChange={(event) => edited(() => setBaseUrl(event.target.value))()}
        />
      </label>
      <label>
        <span>{t('setup.apiKey')}</span>
        <input
          data-testid="setup-api-key"
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(event) => edited(() => setApiKey(event.target.value))()}
        />
      </label>
      <label>
        <span>{t('setup.model')}</span>
        <input
          data-testid="setup-model"
          list="setup-model-options"
          value={model}
          onChange={(event) => edited(() => setModel(event.target.value))()}
        />
        <datalist id="setup-model-options">
          {(check?.models ?? []).map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </label>
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
      <div className="form-actions">
        <button
          type="button"
          className="button"
          data-testid="setup-test"
          disabled={checking || baseUrl.trim() === ''}
          onClick={() => void test()}
        >
          {checking ? t('setup.testing') : t('setup.test')}
        </button>
        <button
          type="button"
          className="button primary"
          data-testid="setup-save"
          disabled={!check?.ok || model.trim() === ''}
          onClick={() => void save()}
        >
          {t('setup.save')}
        </button>
      </div>
      {check !== null && (
        <p
          className={check.ok ? 'check-ok' : 'check-failed'}
          data-testid="setup-test-result"
          data-ok={check.ok}
        >
          {check.ok
            ? check.modelListed === false
              ? t('setup.testOkUnlisted', { model })
              : t('setup.testOk', { count: check.models.length })
            : t('setup.testFailed', { message: check.error ?? '' })}
        </p>
      )}
    </div>
  );
}
