/**
 * "Shared folders (roots)" on an MCP service card: the folders the server is told about (MCP
 * roots; none by default), each with remove, and a path field to add one (on the desktop also a
 * "choose…" button opening the system's folder dialog). The host checks every path (an existing
 * folder, stored by its real path, no duplicates, at most `max`) and tells a live connection.
 * The shared `['mcp', 'roots', id]` query; an add or a remove answers with the new list.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import {
  addMcpRoot,
  listMcpRoots,
  mcpRootsKey,
  pickMcpRootFolder,
  removeMcpRoot,
} from '../../data/mcp';
import { useQuery } from '../../data/use-query';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { FieldErrorText } from '../settings/form-controls';
import { errorMessage } from '../settings/form-rules';

/** The shared folders of `serviceId`. */
export function McpRootsSection(props: { serviceId: string; serviceName: string }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const { serviceId } = props;
  const roots = useQuery(mcpRootsKey(serviceId), (b) => listMcpRoots(b, serviceId));
  const [path, setPath] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (task: () => Promise<void>) => {
    if (!bridge) return;
    setBusy(true);
    setError(null);
    try {
      await task();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  const add = () =>
    run(async () => {
      if (!bridge) return;
      await addMcpRoot(bridge, {
        id: serviceId,
        path: path.trim(),
        ...(name.trim() === '' ? {} : { name: name.trim() }),
      });
      setPath('');
      setName('');
    });
  const remove = (folder: string) =>
    run(async () => {
      if (bridge) await removeMcpRoot(bridge, serviceId, folder);
    });
  const pick = () =>
    run(async () => {
      const picked = bridge ? await pickMcpRootFolder(bridge) : null;
      if (picked) setPath(picked);
    });
  const list = roots.data?.roots ?? [];
  const full = roots.data !== null && list.length >= roots.data.max;
  return (
    <section className="mcp-roots" data-testid="mcp-roots" data-count={list.length}>
      <h4>{t('mcp.roots.title')}</h4>
      <p className="field-hint">{t('mcp.roots.hint')}</p>
      {roots.data !== null && list.length === 0 && (
        <p className="muted" data-testid="mcp-roots-empty">
          {t('mcp.roots.none', { name: props.serviceName })}
        </p>
      )}
      {list.length > 0 && (
        <ul className="settings-list" data-testid="mcp-roots-list">
          {list.map((root) => (
            <li key={root.path} data-testid="mcp-root" data-path={root.path}>
              <span>
                <code>{root.path}</code>
                {root.name !== undefined && <span className="badge">{root.name}</span>}
              </span>
              <button
                type="button"
                className="button ghost danger-text"
                data-testid="mcp-root-remove"
                aria-label={t('mcp.roots.removeLabel', { path: root.path })}
                disabled={busy}
                onClick={() => void remove(root.path)}
              >
                {t('form.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="mcp-roots-add"
        onSubmit={(event) => {
          event.preventDefault();
          if (path.trim() !== '' && !busy && !full) void add();
        }}
      >
        <input
          type="text"
          data-testid="mcp-root-path"
          aria-label={t('mcp.roots.path')}
          placeholder={t('mcp.roots.pathPlaceholder')}
          value={path}
          onChange={(event) => setPath(event.target.value)}
        />
        <input
          type="text"
          data-testid="mcp-root-name"
          aria-label={t('mcp.roots.name')}
          placeholder={t('mcp.roots.name')}
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        {bridge?.host === 'electron' && (
          <button
            type="button"
            className="button"
            data-testid="mcp-root-pick"
            disabled={busy}
            onClick={() => void pick()}
          >
            {t('mcp.roots.pick')}
          </button>
        )}
        <button
          type="submit"
          className="button"
          data-testid="mcp-root-add"
          disabled={busy || full || path.trim() === ''}
        >
          {t('mcp.roots.add')}
        </button>
      </form>
      {full && <p className="field-hint">{t('mcp.roots.full', { max: roots.data?.max ?? 0 })}</p>}
      <FieldErrorText error={error} testId="mcp-roots-error" />
    </section>
  );
}
