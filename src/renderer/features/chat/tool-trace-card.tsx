/**
 * One tool call as a card: its friendly name, status and duration, the arguments as key/value
 * rows, a result preview that expands. Once the call has finished well the card folds to its
 * head (`trace-fold.tsx`). A python_execute call is a code cell instead (`code-cell.tsx`). The
 * call that read untrusted content says so, and what it read.
 */
import type { ReactNode } from 'react';
import { useId } from 'react';
import { useT } from '../../i18n/use-t';
import { PYTHON_TOOL } from '../../state/python-cell';
import { isDamagedWorkspaceResult } from '../../../shared/sandbox-workspace';
import { CodeCell } from './code-cell';
import { ResetWorkspaceAction } from './reset-workspace-action';
import { ToolArguments } from './tool-arguments';
import type { ToolTraceCardProps } from './tool-trace-parts';
import { ProgressLine, StructuredSection, TaintNote } from './tool-trace-parts';
import { TraceToggle, useTraceFold } from './trace-fold';

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
  const [open, toggle] = useTraceFold(trace.toolCallId, trace.status);
  const bodyId = useId();
  return (
    <div
      className={`tool-trace status-${trace.status}`}
      data-testid="tool-trace"
      data-tool-name={trace.name}
      data-status={trace.status}
      data-open={open}
      {...(props.tainted ? { 'data-tainted': 'true' } : {})}
    >
      <TraceToggle {...props} open={open} onToggle={toggle} bodyId={bodyId} />
      {trace.output === null && props.progress && <ProgressLine progress={props.progress} />}
      {/* Folded, the body stays in the document (hidden): its text is still there to find. The
          head keeps the untrusted mark in view; what was read is told in the body. */}
      <div className="tool-trace-body" id={bodyId} data-testid="tool-trace-body" hidden={!open}>
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
        <StructuredSection trace={trace} />
      </div>
      {/* fetch_image into a conversation whose workspace save is damaged: the same way out. */}
      {trace.status === 'error' && isDamagedWorkspaceResult(output) && <ResetWorkspaceAction />}
    </div>
  );
}
