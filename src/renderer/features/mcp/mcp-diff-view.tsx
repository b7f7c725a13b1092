/**
 * A sync diff: each added / removed / changed tool with what changed, and the before/after
 * description and schema so the user sees exactly what they accept.
 */
import type { ReactNode } from 'react';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { useT } from '../../i18n/use-t';

type Change = InvokeResponse<'mcp.diff'>[number];

/** The diff (or "no changes"). */
export function McpDiffView(props: { changes: readonly Change[] }): ReactNode {
  const t = useT();
  if (props.changes.length === 0) {
    return (
      <p className="muted" data-testid="mcp-diff-empty">
        {t('mcp.noChanges')}
      </p>
    );
  }
  return (
    <div className="mcp-diff" data-testid="mcp-diff">
      <h4>{t('mcp.diffTitle')}</h4>
      <ul>
        {props.changes.map((change) => (
          <li
            key={change.tool}
            data-testid="mcp-diff-row"
            data-tool={change.tool}
            data-kinds={change.kinds.join(',')}
          >
            <code>{change.tool}</code>{' '}
            {change.kinds.map((kind) => (
              <span key={kind} className={`badge diff-${kind}`}>
                {t(`mcp.kind.${kind}`)}
              </span>
            ))}
            {(change.kinds.includes('description') || change.kinds.includes('schema')) && (
              <details>
                <summary>
                  {t('mcp.before')} / {t('mcp.after')}
                </summary>
                <div className="diff-columns">
                  <pre>{describe(change.before)}</pre>
                  <pre>{describe(change.after)}</pre>
                </div>
              </details>
            )}
            {change.kinds.includes('added') && change.after && (
              <p className="muted">{change.after.description}</p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function describe(info: Change['before']): string {
  if (info === null) return '';
  return `${info.description}\n\n${JSON.stringify(info.inputSchema, null, 2)}`;
}
