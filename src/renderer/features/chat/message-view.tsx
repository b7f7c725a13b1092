/**
 * One message: the user's text, or the assistant's parts as text, reasoning, tool trace cards and
 * files, with the budget meter and the stop reason in plain words under it.
 */
import type { ReactNode } from 'react';
import { Markdown } from '../../components/markdown';
import type { MessagePart, MessageStatus } from '../../../shared/dto';
import type { BudgetUpdateEvent, PublicError } from '../../../shared/turn-events';
import { useT } from '../../i18n/use-t';
import { budgetText } from '../../state/budget-text';
import type { TurnSummary } from '../../state/app-state';
import { displayItems } from '../../state/trace-items';
import { ToolTraceCard } from './tool-trace-card';

/** A stop reason as stored (live reasons plus `interrupted`). */
export type StopReasonShown = TurnSummary['stopReason'];

/** An assistant message, stored or live. */
export interface AssistantMessageProps {
  parts: readonly MessagePart[];
  status: MessageStatus;
  budget: BudgetUpdateEvent | null;
  stopReason: StopReasonShown | null;
  error: PublicError | null;
}

/** The user's message, as plain text. */
export function UserMessage(props: { text: string }): ReactNode {
  const t = useT();
  return (
    <div className="message message-user" data-testid="message-user">
      <div className="message-role">{t('chat.you')}</div>
      <div className="message-body user-text">{props.text}</div>
    </div>
  );
}

/** The assistant message with its traces, meter and stop reason. */
export function AssistantMessage(props: AssistantMessageProps): ReactNode {
  const t = useT();
  const running = props.status === 'streaming';
  const items = displayItems(props.parts, running);
  return (
    <div
      className={`message message-assistant status-${props.status}`}
      data-testid="message-assistant"
      data-status={props.status}
    >
      <div className="message-role">{t('chat.assistant')}</div>
      <div className="message-body">
        {items.length === 0 && running && <div className="thinking">{t('chat.thinking')}</div>}
        {items.map((item, index) => {
          switch (item.kind) {
            case 'text':
              return <Markdown key={index} text={item.text} />;
            case 'reasoning':
              return (
                <details key={index} className="reasoning">
                  <summary>{t('chat.reasoning')}</summary>
                  <div className="reasoning-text">{item.text}</div>
                </details>
              );
            case 'tool':
              return <ToolTraceCard key={item.trace.toolCallId} trace={item.trace} />;
            case 'file':
              return (
                <div key={index} className="file-chip" title={item.artifact.path}>
                  📎{' '}
                  {t(item.attached ? 'chat.attachment' : 'chat.artifact', {
                    name: item.artifact.name,
                    size: formatSize(item.artifact.size),
                  })}
                </div>
              );
          }
        })}
      </div>
      <div className="message-footer">
        {props.budget && (
          <span className="budget-meter" data-testid="budget-meter">
            {budgetText(props.budget, t('budget.total'))}
          </span>
        )}
        <StopReason reason={props.stopReason} status={props.status} error={props.error} />
      </div>
    </div>
  );
}

function StopReason(props: {
  reason: StopReasonShown | null;
  status: MessageStatus;
  error: PublicError | null;
}): ReactNode {
  const t = useT();
  const reason = props.status === 'interrupted' ? 'interrupted' : props.reason;
  if (reason === null || reason === 'completed') return null;
  return (
    <span className={`stop-reason stop-${reason}`} data-testid="stop-reason" data-reason={reason}>
      {t(`stop.${reason}`, { message: props.error?.message ?? '' })}
    </span>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
