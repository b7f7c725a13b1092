/**
 * 能力与集成 → MCP 服务: the user's services as cards (test, sync, diff, accept, enable, approvals,
 * remove), the new-service form, the import dialog (a Claude Desktop / VS Code / Cursor config),
 * the seed's empty state, and the "allow local command servers" switch, and the advanced settings
 * (server log levels, the OAuth client metadata URL). The list is the shared
 * `['mcp', 'list']` query: every write reloads it, and so does a server announcing changed tools
 * (`mcp.stale`).
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { listMcpServices, MCP_SERVICES_KEY, setMcpSettings } from '../../data/mcp';
import { useQuery } from '../../data/use-query';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { Switch } from '../settings/form-controls';
import { McpAdvancedSection } from './mcp-advanced-section';
import { McpImportDialog } from './mcp-import-dialog';
import { McpServiceCard } from './mcp-service-card';
import { McpServiceForm } from './mcp-service-form';

/** The MCP services page. */
export function McpPage(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const list = useQuery(MCP_SERVICES_KEY, listMcpServices);
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const allowLocal = async (allow: boolean): Promise<void> => {
    if (!bridge) return;
    try {
      await setMcpSettings(bridge, { allowLocalCommands: allow });
    } catch (error) {
      showError(error);
    }
  };
  const data = list.data;
  if (data === null) return <p className="muted">{t('form.loading')}</p>;
  return (
    <div className="settings-page" data-testid="settings-page-mcp">
      <p className="muted">{t('mcp.intro')}</p>
      {data.services.length === 0 && !adding && <EmptyState />}
      <div className="mcp-services">
        {data.services.map((service) => (
          <McpServiceCard
            key={service.id}
            service={service}
            allowLocalCommands={data.allowLocalCommands}
          />
        ))}
      </div>
      {adding ? (
        <McpServiceForm
          allowLocalCommands={data.allowLocalCommands}
          onDone={() => setAdding(false)}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <div className="form-actions">
          <button
            type="button"
            className="button primary"
            data-testid="mcp-new"
            onClick={() => setAdding(true)}
          >
            ＋ {t('mcp.new')}
          </button>
          <button
            type="button"
            className="button"
            data-testid="mcp-import"
            onClick={() => setImporting(true)}
          >
            {t('mcp.import.open')}
          </button>
        </div>
      )}
      {importing && <McpImportDialog onClose={() => setImporting(false)} />}
      <section className="settings-block">
        <Switch
          checked={data.allowLocalCommands}
          label={t('mcp.allowLocal')}
          testId="mcp-allow-local"
          onChange={(allow) => void allowLocal(allow)}
        />
        <p className="muted">{t('mcp.allowLocalHint')}</p>
      </section>
      <McpAdvancedSection serviceNames={data.services.map((service) => service.name)} />
    </div>
  );
}

/** The seed's empty state: four questions to answer before adding a service. */
function EmptyState(): ReactNode {
  const t = useT();
  return (
    <div className="empty-state" data-testid="mcp-empty">
      <h3>{t('mcp.emptyTitle')}</h3>
      <ol>
        <li>{t('mcp.emptyQ1')}</li>
        <li>{t('mcp.emptyQ2')}</li>
        <li>{t('mcp.emptyQ3')}</li>
        <li>{t('mcp.emptyQ4')}</li>
      </ol>
      <p className="muted">{t('mcp.emptyAdvice')}</p>
    </div>
  );
}
