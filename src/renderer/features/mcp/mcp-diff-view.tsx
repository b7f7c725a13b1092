/**
 * A sync diff: each added / removed / changed tool with what changed — the old and the new
 * description side by side, and the schema's and hints' changes line by line (server text cleaned
 * of control, bidi and zero-width characters, and bounded: `mcp-change-detail`) — so the user sees
 * exactly what they accept. The full before/after schemas stay one click away.
 */
import type { ReactNode } from 'react';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { changeDetail } from '../../../shared/mcp-change-detail';
import { boundedLine } from '../../../shared/untrusted-text';
import { useT } from '../../i18n/use-t';

type Change = InvokeResponse<'mcp.diff'>[number];

/** How much of a description the page shows. */
const DESCRIPTION_CHARS = 2000;
/** How much of a schema the full view shows. */
const SCHEMA_CHARS = 4000;

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
          <ChangeRow key={change.tool} change={change} />
        ))}
      </ul>
    </div>
  );
}

function ChangeRow({ change }: { change: Change }): ReactNode {
  const t = useT();
  const detail = changeDetail(change, DESCRIPTION_CHARS);
  const changed = change.kinds.includes('description');
  const lines = [...detail.schema, ...detail.annotations];
  return (
    <li data-testid="mcp-diff-row" data-tool={change.tool} data-kinds={change.kinds.join(',')}>
      <code>{boundedLine(change.tool, 120)}</code>{' '}
      {change.kinds.map((kind) => (
        <span key={kind} className={`badge diff-${kind}`}>
          {t(`mcp.kind.${kind}`)}
        </span>
      ))}
      {changed && detail.description !== null && (
        <div className="diff-columns" data-testid="mcp-diff-description">
          <div>
            <span className="muted">{t('mcp.before')}</span>
            <pre data-testid="mcp-diff-before">{detail.description.before}</pre>
          </div>
          <div>
            <span className="muted">{t('mcp.after')}</span>
            <pre data-testid="mcp-diff-after">{detail.description.after}</pre>
          </div>
        </div>
      )}
      {!changed && detail.description?.after != null && (
        <p className="muted">{detail.description.after}</p>
      )}
      {lines.length > 0 && (
        <pre className="diff-lines" data-testid="mcp-diff-lines">
          {lines.join('\n')}
        </pre>
      )}
      {change.kinds.includes('schema') && (
        <details>
          <summary>
            {t('mcp.schemaFull')} ({t('mcp.before')} / {t('mcp.after')})
          </summary>
          <div className="diff-columns">
            <pre>{schemaText(change.before)}</pre>
            <pre>{schemaText(change.after)}</pre>
          </div>
        </details>
      )}
    </li>
  );
}

function schemaText(info: Change['before']): string {
  if (info === null) return '';
  const text = JSON.stringify(info.inputSchema, null, 2);
  // Keep the layout (newlines, indents) but drop anything hidden, per line.
  const cleaned = text
    .split('\n')
    .map((line) => (/^\s*/.exec(line)?.[0] ?? '') + boundedLine(line, SCHEMA_CHARS))
    .join('\n');
  return cleaned.length > SCHEMA_CHARS
    ? `${cleaned.slice(0, SCHEMA_CHARS)}… (+${cleaned.length - SCHEMA_CHARS})`
    : cleaned;
}
