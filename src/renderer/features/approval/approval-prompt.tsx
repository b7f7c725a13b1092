/**
 * The MCP approval prompt: when a turn's MCP tool needs consent, a modal card shows the tool, its
 * service, the server's (untrusted) hints and the exact arguments, with four answers — allow
 * once, allow for this conversation, always allow, deny.
 */
import type { ReactNode } from 'react';

import { useT } from '../../i18n/use-t';
import { useRequestQueue } from '../../components/use-request-queue';
import { useApp } from '../../state/store';
import { AskedBy } from '../chat/answer-group';
import type { ApprovalRequestView } from './approval-queue';
import { argumentNotes, argumentsText, enqueue, LONG_BLANK_RUN, settle } from './approval-queue';
import { answerApproval } from '../../data/chat';

type Answer = 'once' | 'conversation' | 'always' | 'deny';
const ANSWERS: readonly Answer[] = ['once', 'conversation', 'always', 'deny'];
/** A fetch in a tainted turn is allowed one at a time: nothing to remember. */
const FETCH_ANSWERS: readonly Answer[] = ['once', 'deny'];

function settleEvent(
  queue: ApprovalRequestView[],
  { approvalId }: { approvalId: string },
): ApprovalRequestView[] {
  return settle(queue, approvalId);
}

/** Follows `approval.request` / `approval.settled` and shows the oldest waiting request. */
export function ApprovalPrompt(): ReactNode {
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const [queue, setQueue] = useRequestQueue<
    ApprovalRequestView,
    'approval.request',
    'approval.settled'
  >('approval.request', 'approval.settled', enqueue, settleEvent);
  const current = queue[0];
  if (!current || !bridge) return null;
  const answer = async (choice: Answer): Promise<void> => {
    setQueue((items) => settle(items, current.approvalId));
    try {
      await answerApproval(bridge, { approvalId: current.approvalId, answer: choice });
    } catch (error) {
      showError(error);
    }
  };
  return (
    <ApprovalCard
      request={current}
      waiting={queue.length - 1}
      onAnswer={(choice) => void answer(choice)}
    />
  );
}

/** The card of one request (exported for static rendering in tests). */
export function ApprovalCard(props: {
  request: ApprovalRequestView;
  waiting: number;
  onAnswer(answer: Answer): void;
}): ReactNode {
  const t = useT();
  const { request } = props;
  const fetch = request.kind === 'web-fetch';
  return (
    <div className="overlay approval-overlay" role="dialog" aria-modal="true">
      <div
        className="approval-card"
        data-testid="approval-card"
        data-tool-name={request.toolName}
        data-approval-id={request.approvalId}
      >
        <h2>{t('approval.title')}</h2>
        <AskedBy turnId={request.turnId} />
        <p className="muted">
          <code data-testid="approval-tool">{request.toolName}</code>
        </p>
        <p>
          {request.kind === 'web-fetch'
            ? t('approval.fetchIntro')
            : t('approval.intro', { service: request.service, tool: request.tool })}
        </p>
        {request.reason !== null && (
          <p className="notice" data-testid="approval-reason">
            {request.reason}
          </p>
        )}
        {request.taint.length > 0 && (
          <p className="muted" data-testid="approval-taint">
            {t('approval.taint', {
              sources: request.taint
                .map((item) => (item.detail === null ? item.tool : `${item.tool} ${item.detail}`))
                .join('; '),
            })}
          </p>
        )}
        <pre className="approval-arguments" data-testid="approval-arguments">
          {argumentsText(request)}
        </pre>
        <ArgumentNotes request={request} />
        {/* A server's own hints; a fetch has none, and allows one fetch at a time. */}
        {fetch === false && request.readOnlyHint && (
          <p className="muted">{t('approval.readOnly')}</p>
        )}
        {fetch === false && request.destructiveHint && (
          <p className="check-failed">{t('approval.destructive')}</p>
        )}
        <div className="form-actions">
          {(fetch ? FETCH_ANSWERS : ANSWERS).map((choice) => (
            <button
              key={choice}
              type="button"
              className={`button${choice === 'deny' ? ' danger' : choice === 'once' ? ' primary' : ''}`}
              data-testid={`approval-${choice}`}
              // Enter typed out of habit denies rather than allows.
              autoFocus={choice === 'deny'}
              onClick={() => props.onAnswer(choice)}
            >
              {t(`approval.${choice}`)}
            </button>
          ))}
        </div>
        {props.waiting > 0 && (
          <p className="muted">{t('approval.more', { count: props.waiting })}</p>
        )}
      </div>
    </div>
  );
}

/** Lengths of long or padded string arguments, so nothing hides past the visible part. */
function ArgumentNotes(props: { request: ApprovalRequestView }): ReactNode {
  const t = useT();
  const notes = argumentNotes(props.request);
  if (notes.length === 0) return null;
  return (
    <ul className="approval-notes muted" data-testid="approval-notes">
      {notes.map((note) => (
        <li key={note.path}>
          {t('approval.length', { path: note.path, length: note.length.toLocaleString() })}
          {note.longestBlankRun >= LONG_BLANK_RUN &&
            ` ${t('approval.blankRun', { count: note.longestBlankRun.toLocaleString() })}`}
        </li>
      ))}
    </ul>
  );
}
