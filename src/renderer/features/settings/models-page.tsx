/**
 * AI 与模型 → 模型: the saved models (key masked, tool mode, vision, context, defaults with the
 * MCP markers), the start-up model from the environment, add / add another model from the same
 * provider (its saved key reused) / edit / make default / remove.
 */
import type { ReactNode } from 'react';
import type { Translate } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { mcpOptions } from './defaults-picker';
import { ModelEditor } from './model-editor';
import { CrudList } from './crud-list';
import { listMcpServices, MCP_SERVICES_KEY } from '../../data/mcp';
import type { ModelView } from '../../data/models';
import { deleteModel, listModels, MODELS_KEY, saveModel } from '../../data/models';
import { useQuery } from '../../data/use-query';
import { toolStatuses, TOOLS_KEY } from '../../data/settings';

/** What the model editor edits: a saved model, a new one, or a new one of a saved one's provider. */
type Editing = ModelView | 'new' | { sibling: ModelView };

/** The models page. */
export function ModelsPage(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const models = useQuery(MODELS_KEY, listModels);
  const tools = useQuery(TOOLS_KEY, toolStatuses);
  const services = useQuery(MCP_SERVICES_KEY, listMcpServices);
  const loaded =
    models.data && tools.data && services.data
      ? { models: models.data, tools: tools.data, services: services.data.services }
      : null;
  const environment = loaded?.models.environmentModel;
  const toolOptions = (loaded?.tools ?? []).map((tool) => ({
    value: tool.name,
    label: tool.name,
    marker: null,
  }));
  return (
    <CrudList<ModelView, Editing>
      testId="settings-page-models"
      intro={t('set.models.intro')}
      loading={t('form.loading')}
      items={loaded?.models.models ?? null}
      itemKey={(model) => model.id}
      before={
        environment && (
          <li>
            <span>
              {environment.model} @ {environment.baseUrl}
            </span>
            <span className="muted">{t('set.models.environment')}</span>
          </li>
        )
      }
      renderItem={(model, row) => (
        <li data-testid="settings-model">
          <span>
            <strong>{model.label}</strong> — {model.model} @ {model.baseUrl}
            <br />
            <span className="muted">{describeModel(t, model)}</span>
          </span>
          <button type="button" className="button ghost" onClick={() => row.edit(model)}>
            {t('form.edit')}
          </button>
          <button
            type="button"
            className="button ghost"
            data-testid="model-add-sibling"
            onClick={() => row.edit({ sibling: model })}
          >
            {t('models.addSibling')}
          </button>
          {!model.isDefault && (
            <button
              type="button"
              className="button ghost"
              onClick={() =>
                row.run(async () => {
                  if (!bridge) return;
                  await saveModel(bridge, {
                    id: model.id,
                    baseUrl: model.baseUrl,
                    model: model.model,
                    isDefault: true,
                  });
                })
              }
            >
              {t('set.models.makeDefault')}
            </button>
          )}
          <button
            type="button"
            className="button ghost danger-text"
            onClick={() =>
              row.remove(model.label, async () => {
                if (bridge) await deleteModel(bridge, model.id);
              })
            }
          >
            {t('form.remove')}
          </button>
        </li>
      )}
      add={{ label: t('set.models.add'), target: 'new' }}
      renderEditor={(editing, done) => (
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
            services.data?.services ?? [],
            editing === 'new' || 'sibling' in editing ? [] : (editing.mcpDefaults ?? []),
          )}
          onDone={done}
        />
      )}
    />
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
