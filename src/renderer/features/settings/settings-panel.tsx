/** Settings: language, models (keys masked), tool availability, version. */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import type { LanguageSetting } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { ModelForm } from '../setup/model-form';

type Models = InvokeResponse<'models.list'>;
type Tools = InvokeResponse<'tools.status'>;

/** The settings drawer. */
export function SettingsPanel(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const close = useApp((state) => state.setSettingsOpen);
  const languageSetting = useApp((state) => state.languageSetting);
  const setLanguage = useApp((state) => state.setLanguage);
  const version = useApp((state) => state.version);
  const showError = useApp((state) => state.showError);
  const [models, setModels] = useState<Models | null>(null);
  const [tools, setTools] = useState<Tools | null>(null);
  const [adding, setAdding] = useState(false);
  const load = async (): Promise<void> => {
    if (!bridge) return;
    try {
      const [modelList, toolList] = await Promise.all([
        bridge.invoke('models.list'),
        bridge.invoke('tools.status'),
      ]);
      setModels(modelList);
      setTools(toolList);
    } catch (error) {
      showError(error);
    }
  };
  // Loaded once when the panel opens.
  useEffect(() => {
    void load();
  }, []);
  const removeModel = async (id: string): Promise<void> => {
    try {
      await bridge?.invoke('models.delete', { id });
      await load();
    } catch (error) {
      showError(error);
    }
  };
  return (
    <div className="overlay" role="dialog" aria-modal="true" data-testid="settings-panel">
      <div className="panel">
        <header className="panel-header">
          <h1>{t('settings.title')}</h1>
          <button
            type="button"
            className="button ghost"
            data-testid="settings-close"
            onClick={() => close(false)}
          >
            ✕ {t('settings.close')}
          </button>
        </header>
        <section>
          <h2>{t('settings.language')}</h2>
          <select
            data-testid="settings-language"
            value={languageSetting}
            onChange={(event) => void setLanguage(event.target.value as LanguageSetting)}
          >
            <option value="system">{t('settings.language.system')}</option>
            <option value="zh-CN">简体中文</option>
            <option value="en">English</option>
          </select>
        </section>
        <section>
          <h2>{t('settings.models')}</h2>
          <ul className="settings-list">
            {models?.environmentModel && (
              <li>
                <span>
                  {models.environmentModel.model} @ {models.environmentModel.baseUrl}
                </span>
                <span className="muted">{t('settings.model.environment')}</span>
              </li>
            )}
            {models?.models.map((model) => (
              <li key={model.id} data-testid="settings-model">
                <span>
                  {model.label} — {model.model} @ {model.baseUrl}
                </span>
                <span className="muted">
                  {model.isDefault ? `${t('settings.model.default')} · ` : ''}
                  {model.apiKeyMasked
                    ? t('settings.model.key', { key: model.apiKeyMasked })
                    : t('settings.model.noKey')}
                </span>
                <button
                  type="button"
                  className="button ghost danger-text"
                  onClick={() => void removeModel(model.id)}
                >
                  {t('settings.model.delete')}
                </button>
              </li>
            ))}
          </ul>
          {adding ? (
            <ModelForm
              initial={{ baseUrl: '', model: '' }}
              onSaved={() => {
                setAdding(false);
                void load();
              }}
            />
          ) : (
            <button type="button" className="button" onClick={() => setAdding(true)}>
              ＋ {t('settings.model.add')}
            </button>
          )}
        </section>
        <section>
          <h2>{t('settings.tools')}</h2>
          <ul className="settings-list">
            {tools?.map((tool) => (
              <li key={tool.name} data-testid="settings-tool" data-available={tool.available}>
                <span className="tool-name">{tool.name}</span>
                <span className="muted">
                  {tool.available ? t('settings.tool.available') : tool.reason}
                </span>
              </li>
            ))}
          </ul>
        </section>
        <footer className="muted">{t('settings.version', { version })}</footer>
      </div>
    </div>
  );
}
