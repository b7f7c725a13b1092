/** A banner when an MCP server announces changed tools (`mcp.stale`): the user should re-sync. */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';

/** Shows the names of services that announced changes until dismissed. */
export function McpStaleBanner(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const [names, setNames] = useState<string[]>([]);
  useEffect(
    () =>
      bridge?.onEvent('mcp.stale', ({ name }) =>
        setNames((current) => (current.includes(name) ? current : [...current, name])),
      ),
    [bridge],
  );
  if (names.length === 0) return null;
  return (
    <div className="banner offline" role="status" data-testid="mcp-stale-banner">
      <span>{t('mcp.staleEvent', { name: names.join(', ') })}</span>
      <button type="button" className="button ghost" onClick={() => setNames([])}>
        {t('app.dismiss')}
      </button>
    </div>
  );
}
