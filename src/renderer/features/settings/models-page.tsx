/**
 * AI 与模型 → 模型: the saved models (key masked, tool mode, vision, context, defaults with the
 * MCP markers), the start-up model from the environment, add / add another model from the same
 * provider (its saved key reused) / edit / make default / remove.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import type { Translate } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { mcpOptions } from './defaults-picker';
import { ModelEditor } from './model-editor';
import type { BridgeTask } from './use-loaded';
import { useLoaded } from './use-loaded';
import { askRemove } from '../../components/confirm-dialog';

type ModelView = InvokeResponse<'models.save'>;

/** The models page. */
export function ModelsPage(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const data = useLoaded(async (bridgeNow) => {
    const [models, tools, mcp] = await Promise.all([
      bridgeNow.invoke('models.list'),
      bridgeNow.invoke('tools.status'),
      bridgeNow.invoke('mcp.list'),
    ]);
    return { models, tools, services: mcp.services };
  });
  const [editing, setEditing] = useState<ModelView | 'new' | { sibling: ModelView } | null>(null);
  const act = async (task: BridgeTask): Promise<void> => {
    try {
      await task();
      await data.reload();
    } catch (error) {
      showError(error);
    }
  };
  const loaded = data.data;
  if (loaded === null) return <p className="muted">{t('form.loading')}</p>;
  const environment = loaded.models.environmentModel;
  const toolOptions = loaded.tools.map((tool) => ({
    value: tool.name,
    label: tool.name,
    marker: null,
  }));
  const done = (): void => {
    setEditing(null);
    void data.reload();
  };
  return (
    <div className="settings-page" data-testid="settings-page-models">
      <p className="muted">{t('set.models.intro')}</p>
      <ul className="settings-list">
        {environment && (
          <li>
            <span>
              {environment.model} @ {environment.baseUrl}
            </span>
            <span className="muted">{t('set.models.environment')}</span>
          </li>
        )}
        {loaded.models.models.map((model) => (
          <li key={model.id} data-testid="settings-model">
            <span>
              <strong>{model.label}</strong> — {model.model} @ {model.baseUrl}
              <br />
              <span className="muted">{describeModel(t, model)}</span>
            </span>
            <button type="button" className="button ghost" onClick={() => setEditing(model)}>
              {t('form.edit')}
            </button>
            <button
              type="button"
              className="button ghost"
              data-testid="model-add-sibling"
              onClick={() => setEditing({ sibling: model })}
            >
              {t('models.addSibling')}
            </button>
            {!model.isDefault && (
              <button
                type="button"
                className="button ghost"
                onClick={() =>
                  void act(() =>
                    bridge?.invoke('models.save', {
                      id: model.id,
                      baseUrl: model.baseUrl,
                      model: model.model,
                      isDefault: true,
                    }),
                  )
                }
              >
                {t('set.models.makeDefault')}
              </button>
            )}
            <button
              type="button"
              className="button ghost danger-text"
              onClick={() => {
                void askRemove(t, model.label).then((confirmed) => {
                  if (confirmed) void act(() => bridge?.invoke('models.delete', { id: model.id }));
                });
              }}
            >
              {t('form.remove')}
            </button>
          </li>
        ))}
      </ul>
      {editing === null ? (
        <button type="button" className="button" onClick={() => setEditing('new')}>
          ＋ {t('set.models.add')}
        </button>
      ) : (
        <ModelEditor
          key={
            editing === 'new'
              ? 'new'
              : 'sibling' in editing
                ? `sibling-${editing.sibling.id}`
                : editing.id
          }
          model={editing === 'new' || 'sibling' in editing ? null : editing}
          template={editing !== 'new' && 'sibling' in editing ? editing.sibling : null}
          toolOptions={toolOptions}
          mcpOptions={mcpOptions(
            loaded.services,
            editing === 'new' || 'sibling' in editing ? [] : (editing.mcpDefaults ?? []),
          )}
          onDone={done}
        />
      )}
    </div>
  );
}

/** "default · prompt mode · 32768 tokens · key sk-…abcd · MCP defaults: a, b (已停用)". */
function describeModel(t: Translate, model: ModelView): string {
  const parts = [
    ...(model.isDefault ? [t('set.models.default')] : []),
    t(model.toolMode === 'prompt' ? 'setup.toolMode.prompt' : 'setup.toolMode.native'),
    ...(model.vision ? [t('models.cap.vision')] : []),
    `${model.contextWindow}`,
    model.apiKeyMasked ? t('set.models.key', { key: model.apiKeyMasked }) : t('set.models.noKey'),
  ];
  const defaults = model.mcpDefaults ?? [];
  if (defaults.length > 0) {
    const list = defaults
      .map((entry) => {
        const name = entry.name ?? entry.serviceId;
        return entry.marker ? `${name} (${t(`set.models.marker.${entry.marker}`)})` : name;
      })
      .join(', ');
    parts.push(t('set.models.mcpDefaults', { list }));
  }
  return parts.join(' · ');
}
