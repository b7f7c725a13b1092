/**
 * First run (no model configured): find local OpenAI-compatible servers on their default ports,
 * or pick a provider (or enter any OpenAI-compatible URL), its key and a model from the list the
 * server answers; the connection is checked before saving. Choosing a found server's model opens
 * the form on it and checks that server at once.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { ModelDraft } from './model-form';
import { ModelForm } from './model-form';
import { discoverModelServers } from '../../data/models';

type Servers = InvokeResponse<'models.discover'>;

/** The first-run screen. */
export function SetupScreen(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const finishSetup = useApp((state) => state.finishSetup);
  const showError = useApp((state) => state.showError);
  const [servers, setServers] = useState<Servers | null>(null);
  const [searching, setSearching] = useState(false);
  const [draft, setDraft] = useState<ModelDraft>({ baseUrl: '', model: '' });
  const [formKey, setFormKey] = useState(0);
  const discover = async (): Promise<void> => {
    if (!bridge) return;
    setSearching(true);
    try {
      setServers(await discoverModelServers(bridge));
    } catch (error) {
      showError(error);
    } finally {
      setSearching(false);
    }
  };
  const choose = (baseUrl: string, model: string): void => {
    setDraft({ baseUrl, model, check: true });
    setFormKey((key) => key + 1);
  };
  return (
    <div className="setup" data-testid="setup-screen">
      <div className="setup-card">
        <h1>{t('setup.title')}</h1>
        <p className="muted">{t('setup.intro')}</p>
        <section>
          <button
            type="button"
            className="button"
            data-testid="setup-discover"
            disabled={searching}
            onClick={() => void discover()}
          >
            {searching ? t('setup.discovering') : t('setup.discover')}
          </button>
          {servers !== null && servers.length === 0 && (
            <p className="muted">{t('setup.noneFound')}</p>
          )}
          {servers?.map((server) => (
            <div key={server.baseUrl} className="found-server" data-testid="setup-server">
              <div>{t('setup.found', { name: server.name, url: server.baseUrl })}</div>
              <div className="model-chips">
                {server.models.map((model) => (
                  <button
                    type="button"
                    key={model}
                    className="chip"
                    onClick={() => choose(server.baseUrl, model)}
                  >
                    {model}
                  </button>
                ))}
              </div>
            </div>
          ))}
        </section>
        <section>
          <h2>{t('setup.manual')}</h2>
          <ModelForm key={formKey} initial={draft} onSaved={() => void finishSetup()} />
        </section>
      </div>
    </div>
  );
}
