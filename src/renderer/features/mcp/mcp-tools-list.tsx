/**
 * A service's tools with their approval policy (default / ask every time / always allow / deny),
 * the server's read-only hint, and whether the tool is callable (accepted and unchanged).
 */
import type { ReactNode } from 'react';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { useLoaded } from '../settings/use-loaded';

type Policy = InvokeResponse<'mcp.tools'>[number]['approval'];
const POLICIES: readonly Policy[] = ['default', 'ask', 'allow', 'allow-even-after-web', 'deny'];

/** The tools of `serviceId`. */
export function McpToolsList(props: { serviceId: string }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const { serviceId } = props;
  const tools = useLoaded((bridgeNow) => bridgeNow.invoke('mcp.tools', { id: serviceId }));
  const setPolicy = async (tool: string, policy: Policy): Promise<void> => {
    try {
      const next = await bridge?.invoke('mcp.setApproval', { id: serviceId, tool, policy });
      if (next) tools.set(next);
    } catch (error) {
      showError(error);
    }
  };
  return (
    <ul className="settings-list mcp-tools" data-testid="mcp-tools">
      {tools.data?.map((tool) => {
        const info = tool.latest ?? tool.accepted;
        return (
          <li
            key={tool.name}
            data-testid="mcp-tool"
            data-tool={tool.name}
            data-callable={tool.callable}
          >
            <span>
              <code>{tool.name}</code>
              {info?.annotations?.readOnlyHint && (
                <span className="badge">{t('mcp.tool.readOnly')}</span>
              )}
              {!tool.callable && <span className="badge warn">{t('mcp.tool.notCallable')}</span>}
              <br />
              <span className="muted">{info?.description ?? ''}</span>
            </span>
            <label className="inline">
              <span>{t('mcp.policy')}</span>
              <select
                data-testid={`mcp-approval-${tool.name}`}
                value={tool.approval}
                onChange={(event) => void setPolicy(tool.name, event.target.value as Policy)}
              >
                {POLICIES.map((policy) => (
                  <option key={policy} value={policy}>
                    {t(`mcp.policy.${policy}`)}
                  </option>
                ))}
              </select>
            </label>
          </li>
        );
      })}
    </ul>
  );
}
