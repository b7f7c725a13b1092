/**
 * One MCP service: its endpoint and masked headers, the test state (未测试 / 连接正常 / 连接错误
 * with the reason), "found N / last synced at …", the stale marker, the diff waiting to be
 * accepted, the "available to me" switch (refused until synced), tools with their approval
 * policy, the OAuth sign-in (HTTP services), the shared folders (MCP roots), the resources (shown
 * and watched for changes), and remove. Each action's write reloads the service list (the data
 * module does it), so the card shows the service's new state.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { AivoryBridge } from '../../bridge/bridge';
import type { McpServiceView } from '../../data/mcp';
import {
  acceptMcpTools,
  mcpDiffKey,
  mcpToolChanges,
  removeMcpService,
  setMcpServiceEnabled,
  syncMcpService,
  testMcpService,
} from '../../data/mcp';
import { useQuery } from '../../data/use-query';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { FieldErrorText, Switch } from '../settings/form-controls';
import { errorMessage } from '../settings/form-rules';
import { McpSignInTrust } from './mcp-sign-in-trust';
import { McpSignInMove } from './mcp-sign-in-move';
import { McpDiffView } from './mcp-diff-view';
import { McpRootsSection } from './mcp-roots-section';
import { McpResourcesSection } from './mcp-resources-section';
import { McpServiceForm } from './mcp-service-form';
import { McpSignInSection } from './mcp-sign-in-section';
import { McpToolsList } from './mcp-tools-list';
import { askRemove } from '../../components/confirm-dialog';

type ServiceView = McpServiceView;
type Busy = 'test' | 'sync' | 'accept' | null;

/** The card of `service`. */
export function McpServiceCard(props: {
  service: ServiceView;
  allowLocalCommands: boolean;
}): ReactNode {
  const t = useT();
  const locale = useApp((state) => state.locale);
  const bridge = useApp((state) => state.bridge);
  const { service } = props;
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  // Whether this card synced or accepted: its diff (or "no changes") stays shown after that.
  const [acted, setActed] = useState(false);
  const [toolsOpen, setToolsOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const id = service.id;
  // The diff waiting to be accepted (a sync or an accept puts its answer in; failures stay quiet).
  const changes = useQuery(mcpDiffKey(id), (b) => mcpToolChanges(b, id), {
    enabled: service.pendingChanges > 0,
    reportErrors: false,
  }).data;
  const run = async (kind: Busy, task: (bridge: AivoryBridge) => Promise<unknown>) => {
    if (!bridge) return;
    setBusy(kind);
    setError(null);
    try {
      await task(bridge);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };
  const sync = () =>
    run('sync', async (b) => {
      await syncMcpService(b, id);
      setActed(true);
    });
  const accept = () =>
    run('accept', async (b) => {
      await acceptMcpTools(b, id);
      setActed(true);
    });
  // A sign-in refused for another origin of the service's host: the trust prompt says it (and
  // asks), so the same long message is not shown again as the test result or the action's error.
  // So is a move to another authorization server, which the move prompt asks about.
  const asked = (text: string | null) =>
    text !== null &&
    ((service.refusedSignInOrigin !== null && text.includes(service.refusedSignInOrigin)) ||
      (service.movedSignIn !== null && text.includes(service.movedSignIn.to)));
  const endpoint =
    service.transport === 'stdio'
      ? [service.command ?? '', ...service.args].join(' ')
      : (service.url ?? '');
  return (
    <article
      className="mcp-service"
      data-testid="mcp-service"
      data-name={service.name}
      data-enabled={service.enabled}
    >
      <header className="mcp-service-head">
        <span className="mcp-icon" aria-hidden="true">
          {service.icon}
        </span>
        <strong>{service.name}</strong>
        <span className="badge">{t(transportLabel(service.transport))}</span>
        <span
          className={`badge state-${service.testState}`}
          data-testid="mcp-test-state"
          data-state={service.testState}
        >
          {t(`mcp.state.${service.testState}`)}
        </span>
        <Switch
          checked={service.enabled}
          disabled={service.syncedAt === null}
          label={t('mcp.enabled')}
          testId="mcp-enabled"
          onChange={(enabled) => void run(null, (b) => setMcpServiceEnabled(b, id, enabled))}
        />
      </header>
      <p className="mcp-description">{service.description}</p>
      <p className="muted mcp-endpoint">
        <code>{endpoint}</code>
      </p>
      {service.headers.length > 0 && (
        <p className="muted" data-testid="mcp-headers">
          {t('mcp.headers', {
            list: service.headers.map((header) => `${header.name}: ${header.value}`).join(', '),
          })}
        </p>
      )}
      {service.testState === 'error' && service.testMessage && !asked(service.testMessage) && (
        <p className="check-failed" data-testid="mcp-test-message">
          {service.testMessage}
        </p>
      )}
      <p className="muted" data-testid="mcp-sync-info">
        {service.syncedAt === null
          ? t('mcp.neverSynced')
          : t('mcp.found', {
              count: service.toolCount,
              time: new Date(service.syncedAt).toLocaleString(locale),
            })}
        {service.syncedAt !== null &&
          ` · ${service.callableCount === 1 ? t('mcp.callableOne') : t('mcp.callable', { count: service.callableCount })}`}
      </p>
      {service.syncedAt === null && <p className="field-hint">{t('mcp.enableNeedsSync')}</p>}
      {service.stale && (
        <p className="notice" data-testid="mcp-stale">
          {t('mcp.stale')}
        </p>
      )}
      {service.pendingChanges > 0 && (
        <p className="notice" data-testid="mcp-pending">
          {service.pendingChanges === 1
            ? t('mcp.pendingOne')
            : t('mcp.pending', { count: service.pendingChanges })}
        </p>
      )}
      {changes !== null && (acted || service.pendingChanges > 0) && (
        <McpDiffView changes={changes} />
      )}
      <McpSignInTrust service={service} />
      <McpSignInMove service={service} />
      <McpSignInSection service={service} />
      <div className="row-actions">
        <button
          type="button"
          className="button"
          data-testid="mcp-test"
          disabled={busy !== null}
          onClick={() => void run('test', (b) => testMcpService(b, id))}
        >
          {busy === 'test' ? t('mcp.testing') : t('mcp.test')}
        </button>
        <button
          type="button"
          className="button"
          data-testid="mcp-sync"
          disabled={busy !== null}
          onClick={() => void sync()}
        >
          {busy === 'sync' ? t('mcp.syncing') : t('mcp.sync')}
        </button>
        {service.pendingChanges > 0 && (
          <button
            type="button"
            className="button primary"
            data-testid="mcp-accept"
            disabled={busy !== null}
            onClick={() => void accept()}
          >
            {t('mcp.accept')}
          </button>
        )}
        {service.syncedAt !== null && (
          <button
            type="button"
            className="button ghost"
            data-testid="mcp-tools-toggle"
            onClick={() => setToolsOpen(!toolsOpen)}
          >
            {t(toolsOpen ? 'mcp.hideTools' : 'mcp.showTools')}
          </button>
        )}
        <button
          type="button"
          className="button ghost"
          data-testid="mcp-edit"
          onClick={() => setEditing(true)}
        >
          {t('mcp.edit')}
        </button>
        <button
          type="button"
          className="button ghost danger-text"
          data-testid="mcp-remove"
          onClick={() => {
            void askRemove(t, service.name).then((confirmed) => {
              if (confirmed) void run(null, (b) => removeMcpService(b, id));
            });
          }}
        >
          {t('form.remove')}
        </button>
      </div>
      <FieldErrorText error={asked(error) ? null : error} testId="mcp-error" />
      {toolsOpen && <McpToolsList serviceId={id} />}
      <McpRootsSection serviceId={id} serviceName={service.name} />
      <McpResourcesSection serviceId={id} />
      {editing && (
        <McpServiceForm
          allowLocalCommands={props.allowLocalCommands}
          editing={service}
          onDone={() => setEditing(false)}
          onCancel={() => setEditing(false)}
        />
      )}
    </article>
  );
}

function transportLabel(transport: ServiceView['transport']) {
  if (transport === 'stdio') return 'mcp.form.stdio' as const;
  return transport === 'sse' ? ('mcp.form.sse' as const) : ('mcp.form.streamableHttp' as const);
}
