/**
 * A python_execute call as a notebook-style code cell (after Open WebUI's and LobeChat's): the
 * head (name, status, duration), then the code highlighted, its stdout and stderr. Open while the
 * code runs and when it failed; folded to its head once it is done well (the head is a button
 * that opens it again; `trace-fold.tsx`). The files it wrote follow the cell as the answer's
 * files, always in view.
 */
import type { ReactNode } from 'react';
import { useId } from 'react';
import { CodeBlock } from '../../components/code-block';
import { useT } from '../../i18n/use-t';
import { parsePythonResult, pythonCode } from '../../state/python-cell';
import { isDamagedWorkspaceResult } from '../../../shared/sandbox-workspace';
import { ResetWorkspaceAction } from './reset-workspace-action';
import type { ToolTraceCardProps } from './tool-trace-parts';
import { ProgressLine, TaintNote } from './tool-trace-parts';
import { TraceToggle, useTraceFold } from './trace-fold';

/** The cell (`data-testid="tool-trace"`, its foldable body `data-testid="code-cell"`). */
export function CodeCell(props: ToolTraceCardProps): ReactNode {
  const t = useT();
  const { trace } = props;
  const code = pythonCode(trace.arguments);
  const result = trace.output === null ? null : parsePythonResult(trace.output);
  const running = trace.status === 'running';
  const [open, toggle] = useTraceFold(trace.toolCallId, trace.status);
  const bodyId = useId();
  return (
    <div
      className={`tool-trace code-cell status-${trace.status}`}
      data-testid="tool-trace"
      data-tool-name={trace.name}
      data-status={trace.status}
      data-open={open}
      {...(props.tainted ? { 'data-tainted': 'true' } : {})}
    >
      <TraceToggle {...props} open={open} onToggle={toggle} bodyId={bodyId} />
      {/* Folded, the body stays in the document (hidden): its text is still there to find. */}
      <div className="code-cell-fold" id={bodyId} data-testid="code-cell" hidden={!open}>
        <TaintNote {...props} />
        {code !== null && <CodeBlock language="python" text={code} copyTestId="cell-code-copy" />}
        {result && <CellStreams result={result} />}
      </div>
      {running && props.progress && <ProgressLine progress={props.progress} />}
      {result?.other != null && (
        <pre className="cell-stream cell-other" data-testid="cell-other">
          {result.other}
        </pre>
      )}
      {trace.status === 'error' && isDamagedWorkspaceResult(trace.output ?? '') && (
        <ResetWorkspaceAction />
      )}
      {/* Folded by the user, a failed cell still says what went wrong. */}
      {!open && result?.error != null && (
        <pre className="cell-stream cell-error-summary" aria-label={t('cell.error')}>
          {lastLine(result.error)}
        </pre>
      )}
    </div>
  );
}

function CellStreams(props: { result: ReturnType<typeof parsePythonResult> }): ReactNode {
  const t = useT();
  const { stdout, stderr, error, notes } = props.result;
  return (
    <div className="cell-outputs">
      {stdout !== null && (
        <section className="cell-output">
          <span className="tool-section-label">{t('cell.stdout')}</span>
          <pre className="cell-stream" data-testid="cell-stdout">
            {stdout}
          </pre>
        </section>
      )}
      {stderr !== null && (
        <section className="cell-output">
          <span className="tool-section-label">{t('cell.stderr')}</span>
          <pre className="cell-stream cell-stderr" data-testid="cell-stderr">
            {stderr}
          </pre>
        </section>
      )}
      {error !== null && (
        <section className="cell-output">
          <span className="tool-section-label">{t('cell.error')}</span>
          <pre className="cell-stream cell-stderr" data-testid="cell-error">
            {error}
          </pre>
        </section>
      )}
      {notes.length > 0 && (
        <ul className="cell-notes muted" aria-label={t('cell.notes')}>
          {notes.map((note, index) => (
            <li key={index}>{note}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The last non-blank line of an error: what went wrong, in view while the cell is folded. */
function lastLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .at(-1) ?? text
  );
}
