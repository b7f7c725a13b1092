/** One tool call as a card: name, status, duration, arguments, a result preview that expands. */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import type { ToolProgressView } from '../../state/live-turn';
import type { ToolTrace } from '../../state/trace-items';

/** Characters of the result shown before "show full output". */
const PREVIEW_CHARS = 280;

/** The card of one tool call (`data-testid="tool-trace"`). */
export function ToolTraceCard(props: {
  trace: ToolTrace;
  /** This call's result tainted the turn: what it returned came from outside. */
  tainted?: boolean;
  /** The running call's latest progress report (live turns only). */
  progress?: ToolProgressView | null;
}): ReactNode {
  const t = useT();
  const { trace } = props;
  const argumentsText = trace.arguments === null ? '' : JSON.stringify(trace.arguments, null, 2);
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
        <span className="tool-status-dot" aria-hidden="true" />
        <span className="tool-name">{trace.name}</span>
        <span className="tool-status">
          {t(trace.overBudget ? 'trace.budget' : `trace.${trace.status}`)}
        </span>
        {props.tainted && (
          <span className="tool-tainted" data-testid="tool-tainted" title={t('trace.taintedHelp')}>
            {t('trace.tainted')}
          </span>
        )}
        {trace.durationMs !== null && (
          <span className="tool-duration">{t('trace.duration', { ms: trace.durationMs })}</span>
        )}
      </div>
      {trace.output === null && props.progress && <ProgressLine progress={props.progress} />}
      {argumentsText !== '' && (
        <details className="tool-section">
          <summary>{t('trace.arguments')}</summary>
          <pre>{argumentsText}</pre>
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

/** "message, n/total" and a bar when the total is known (`data-testid="tool-progress"`). */
function ProgressLine(props: { progress: ToolProgressView }): ReactNode {
  const t = useT();
  const { progress, total, message } = props.progress;
  const count = total === undefined ? `${progress}` : `${progress}/${total}`;
  const text = message === undefined ? count : `${message}, ${count}`;
  return (
    <div className="tool-progress" data-testid="tool-progress">
      {total !== undefined && (
        <progress max={total} value={Math.min(progress, total)} aria-label={t('trace.progress')} />
      )}
      <span className="tool-progress-text">{text}</span>
    </div>
  );
}
