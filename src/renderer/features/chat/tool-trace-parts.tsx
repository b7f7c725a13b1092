/** The pieces the tool cards share: props, head, untrusted-content note, progress line. */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import type { ToolProgressView } from '../../state/live-turn';
import type { ToolTrace } from '../../state/trace-items';
import { formatDuration } from '../../state/duration-text';
import { toolLabel } from '../../state/tool-labels';

/** What a card is told about its call. */
export interface ToolTraceCardProps {
  trace: ToolTrace;
  /** This call's result tainted the turn: what it returned came from outside. */
  tainted?: boolean;
  /** What the turn read that was untrusted (shown on the tainted card). */
  taintSources?: string;
  /** The running call's latest progress report (live turns only). */
  progress?: ToolProgressView | null;
}

/**
 * The head's items: status dot, friendly name (the real one as its tooltip), status, the untrusted
 * mark, the duration. The caller gives the element around them (a summary for a code cell).
 */
export function TraceHead(props: ToolTraceCardProps): ReactNode {
  const t = useT();
  const { trace } = props;
  return (
    <>
      <span className="tool-status-dot" aria-hidden="true" />
      <span className="tool-name" title={trace.name}>
        {toolLabel(trace.name, t)}
      </span>
      <span className="tool-status">
        {t(trace.overBudget ? 'trace.budget' : `trace.${trace.status}`)}
      </span>
      {props.tainted && (
        <span className="tool-tainted" data-testid="tool-tainted" title={t('trace.taintedHelp')}>
          {t('trace.tainted')}
        </span>
      )}
      {trace.durationMs !== null && (
        <span className="tool-duration" data-testid="tool-duration">
          {formatDuration(trace.durationMs, t)}
        </span>
      )}
    </>
  );
}

/** On the card that read untrusted content: what it read and what follows from it. */
export function TaintNote(props: ToolTraceCardProps): ReactNode {
  const t = useT();
  if (!props.tainted || !props.taintSources) return null;
  return (
    <p className="tool-taint-note" data-testid="tool-taint-note">
      {t('taint.cardNote', { sources: props.taintSources })} {t('chat.taintHelp')}
    </p>
  );
}

/** "message, n/total" and a bar when the total is known (`data-testid="tool-progress"`). */
export function ProgressLine(props: { progress: ToolProgressView }): ReactNode {
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

/**
 * An MCP tool's structured result (`structuredContent`) with how it compares with the tool's
 * output schema: a mismatch is marked, since the server's data is not what it promised.
 */
export function StructuredSection(props: { trace: ToolTrace }): ReactNode {
  const t = useT();
  const { structured } = props.trace;
  if (structured === undefined) return null;
  return (
    <details
      className="tool-section tool-structured"
      data-testid="tool-structured"
      data-check={structured.check}
      open={structured.check === 'invalid'}
    >
      <summary>{t('trace.structured')}</summary>
      <p
        className={`tool-structured-check check-${structured.check}`}
        data-testid="tool-structured-check"
      >
        {structured.check === 'invalid'
          ? t('trace.structured.invalid', { problem: structured.problem ?? '' })
          : t(`trace.structured.${structured.check}`)}
      </p>
      <pre data-testid="tool-structured-json">{structured.json}</pre>
    </details>
  );
}
