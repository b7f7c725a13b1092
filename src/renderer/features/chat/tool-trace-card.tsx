/**
 * One tool call as a card: its friendly name, status and duration, the arguments as key/value
 * rows, a result preview that expands. A python_execute call is a code cell instead
 * (`code-cell.tsx`). The call that read untrusted content says so, and what it read.
 */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import { PYTHON_TOOL } from '../../state/python-cell';
import { CodeCell } from './code-cell';
import { ToolArguments } from './tool-arguments';
import type { ToolTraceCardProps } from './tool-trace-parts';
import { ProgressLine, TaintNote, TraceHead } from './tool-trace-parts';

/** Characters of the result shown before "show full output". */
const PREVIEW_CHARS = 280;

/** The card of one tool call (`data-testid="tool-trace"`). */
export function ToolTraceCard(props: ToolTraceCardProps): ReactNode {
  if (props.trace.name === PYTHON_TOOL) return <CodeCell {...props} />;
  return <GenericCard {...props} />;
}

function GenericCard(props: ToolTraceCardProps): ReactNode {
  const t = useT();
  const { trace } = props;
  const output = trace.output ?? '';
  const long = output.length > PREVIEW_CHARS;
  return (
    <div
      className={`tool-trace status-${trace.status}`}
      data-testid="tool-trace"
      data-tool-name={trace.name}
      data-status={trace.status}
      {...(props.tainted ? { 'data-tainted': 'true' } : {})}
    >
      <div className="tool-trace-head">
        <TraceHead {...props} />
      </div>
      {trace.output === null && props.progress && <ProgressLine progress={props.progress} />}
      <TaintNote {...props} />
      {trace.arguments !== null && (
        <details className="tool-section">
          <summary>{t('trace.arguments')}</summary>
          <ToolArguments value={trace.arguments} />
        </details>
      )}
      {trace.output !== null && (
        <div className="tool-section tool-result">
          <span className="tool-section-label">{t('trace.result')}</span>
          <pre className="tool-preview" data-testid="tool-result-preview">
            {long ? `${output.slice(0, PREVIEW_CHARS)}…` : output}
          </pre>
          {long && (
            <details>
              <summary>{t('trace.showFull')}</summary>
              <pre>{output}</pre>
            </details>
          )}
        </div>
      )}
    </div>
  );
}
