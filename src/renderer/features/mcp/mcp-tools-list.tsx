/**
 * A service's tools with their approval policy (default / ask every time / always allow / deny),
 * the server's read-only hint, and whether the tool is callable (accepted and unchanged). The
 * shared `['mcp', 'tools', id]` query: a sync or an accept reloads it.
 */
import type { ReactNode } from 'react';
import type { McpToolRecords } from '../../data/mcp';
import { listMcpTools, mcpToolsKey, setMcpToolApproval } from '../../data/mcp';
import { useQuery } from '../../data/use-query';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';

type Policy = McpToolRecords[number]['approval'];
const POLICIES: readonly Policy[] = ['default', 'ask', 'allow', 'allow-even-after-web', 'deny'];

/** The tools of `serviceId`. */
export function McpToolsList(props: { serviceId: string }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const { serviceId } = props;
  const tools = useQuery(mcpToolsKey(serviceId), (b) => listMcpTools(b, serviceId));
  const setPolicy = async (tool: string, policy: Policy): Promise<void> => {
    if (!bridge) return;
    try {
      await setMcpToolApproval(bridge, { id: serviceId, tool, policy });
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
