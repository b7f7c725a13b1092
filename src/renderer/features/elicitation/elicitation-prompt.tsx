/**
 * An MCP server's question during a turn's call (`elicitation.request`): a card that says which
 * (third-party) service asks, shows its message as plain text, and either one input per field
 * (text, number, checkbox, select, multi-select; problems shown under each) with Accept /
 * Decline / Cancel, or — URL mode — the page's origin in large type, the full URL, and Open
 * (opened in the system browser only on that click) / Decline. The values go to the server only.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type {
  McpElicitationAnswer,
  McpElicitationField,
  McpElicitationProblem,
} from '../../../shared/mcp-elicitation';
import type { MessageKey, Translate } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import { useRequestQueue } from '../../components/use-request-queue';
import { useApp } from '../../state/store';
import type { Draft, DraftValue, ElicitationRequestView } from './elicitation-form';
import {
  draftContent,
  enqueueElicitation,
  initialDraft,
  settleElicitation,
  urlOrigin,
} from './elicitation-form';

function settledElicitation(
  queue: ElicitationRequestView[],
  { elicitationId }: { elicitationId: string },
): ElicitationRequestView[] {
  return settleElicitation(queue, elicitationId);
}

/** Follows `elicitation.request` / `elicitation.settled` and shows the oldest waiting request. */
export function ElicitationPrompt(): ReactNode {
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const [queue, setQueue] = useRequestQueue<
    ElicitationRequestView,
    'elicitation.request',
    'elicitation.settled'
  >('elicitation.request', 'elicitation.settled', enqueueElicitation, settledElicitation);
  const current = queue[0];
  if (!current || !bridge) return null;
  const answer = async (reply: McpElicitationAnswer): Promise<void> => {
    try {
      await bridge.invoke('elicitation.answer', {
        elicitationId: current.elicitationId,
        answer: reply,
      });
      setQueue((items) => settleElicitation(items, current.elicitationId));
    } catch (error) {
      showError(error);
    }
  };
  return (
    <ElicitationCard
      key={current.elicitationId}
      request={current}
      waiting={queue.length - 1}
      onAnswer={(reply) => void answer(reply)}
    />
  );
}

/** The card of one request (exported for static rendering in tests). */
export function ElicitationCard(props: {
  request: ElicitationRequestView;
  waiting: number;
  onAnswer(answer: McpElicitationAnswer): void;
}): ReactNode {
  const t = useT();
  const { request } = props;
  const [draft, setDraft] = useState<Draft>(() => initialDraft(request.fields));
  const [tried, setTried] = useState(false);
  const { content, problems } = draftContent(request.fields, draft);
  const origin = urlOrigin(request.url);
  const accept = (): void => {
    setTried(true);
    if (Object.keys(problems).length === 0) props.onAnswer({ action: 'accept', content });
  };
  const open = (): void => {
    if (request.url === null) return;
    // The shell hands a new window to the system browser (Electron) or opens a tab (browser).
    window.open(request.url, '_blank', 'noopener,noreferrer');
    props.onAnswer({ action: 'accept', content: {} });
  };
  return (
    <div className="overlay approval-overlay" role="dialog" aria-modal="true">
      <div
        className="approval-card elicitation-card"
        data-testid="elicitation-card"
        data-elicitation-id={request.elicitationId}
      >
        <h2>{t(request.mode === 'url' ? 'elicitation.urlTitle' : 'elicitation.title')}</h2>
        <p>{t('elicitation.intro', { service: request.service })}</p>
        <p className="elicitation-message" data-testid="elicitation-message">
          {request.message === '' ? t('elicitation.noMessage') : request.message}
        </p>
        {request.mode === 'url' ? (
          <>
            <p className="muted">{t('elicitation.urlIntro')}</p>
            <p className="elicitation-origin" data-testid="elicitation-origin">
              {origin ?? t('elicitation.badUrl')}
            </p>
            <p className="muted elicitation-url" data-testid="elicitation-url">
              {request.url}
            </p>
          </>
        ) : (
          <form
            className="elicitation-form"
            onSubmit={(event) => {
              event.preventDefault();
              accept();
            }}
          >
            {request.fields.map((field) => (
              <FieldInput
                key={field.name}
                field={field}
                value={draft[field.name] ?? ''}
                problem={tried ? problems[field.name] : undefined}
                onChange={(value) => setDraft((current) => ({ ...current, [field.name]: value }))}
              />
            ))}
          </form>
        )}
        <p className="muted">{t('elicitation.private')}</p>
        <div className="form-actions">
          {request.mode === 'url' ? (
            <button
              type="button"
              className="button primary"
              data-testid="elicitation-open"
              disabled={origin === null}
              onClick={open}
            >
              {t('elicitation.open')}
            </button>
          ) : (
            <button
              type="button"
              className="button primary"
              data-testid="elicitation-accept"
              onClick={accept}
            >
              {t('elicitation.accept')}
            </button>
          )}
          <button
            type="button"
            className="button"
            data-testid="elicitation-decline"
            autoFocus
            onClick={() => props.onAnswer({ action: 'decline' })}
          >
            {t('elicitation.decline')}
          </button>
          {request.mode === 'form' && (
            <button
              type="button"
              className="button"
              data-testid="elicitation-cancel"
              onClick={() => props.onAnswer({ action: 'cancel' })}
            >
              {t('elicitation.cancel')}
            </button>
          )}
        </div>
        {props.waiting > 0 && (
          <p className="muted">{t('elicitation.more', { count: props.waiting })}</p>
        )}
      </div>
    </div>
  );
}

function FieldInput(props: {
  field: McpElicitationField;
  value: DraftValue;
  problem: McpElicitationProblem | undefined;
  onChange(value: DraftValue): void;
}): ReactNode {
  const t = useT();
  const { field, value } = props;
  const id = `elicitation-field-${field.name}`;
  const describedBy = `${id}-help`;
  let input: ReactNode;
  switch (field.type) {
    case 'boolean':
      input = (
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          onChange={(event) => props.onChange(event.target.checked)}
        />
      );
      break;
    case 'enum':
      input = (
        <select
          id={id}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => props.onChange(event.target.value)}
        >
          <option value="">{t('elicitation.choose')}</option>
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'multi-enum': {
      const chosen = Array.isArray(value) ? value : [];
      input = (
        <span className="elicitation-choices" id={id} role="group">
          {field.options.map((option) => (
            <label key={option.value} className="elicitation-choice">
              <input
                type="checkbox"
                checked={chosen.includes(option.value)}
                onChange={(event) =>
                  props.onChange(
                    event.target.checked
                      ? [...chosen, option.value]
                      : chosen.filter((item) => item !== option.value),
                  )
                }
              />{' '}
              {option.label}
            </label>
          ))}
        </span>
      );
      break;
    }
    default:
      input = (
        <input
          id={id}
          className="input"
          type={inputType(field)}
          step={field.type === 'integer' ? 1 : field.type === 'number' ? 'any' : undefined}
          value={typeof value === 'string' ? value : ''}
          aria-invalid={props.problem !== undefined}
          aria-describedby={describedBy}
          onChange={(event) => props.onChange(event.target.value)}
        />
      );
  }
  return (
    <div className="elicitation-field" data-testid={`elicitation-field-${field.name}`}>
      <label htmlFor={id} className="elicitation-label">
        {field.title}
        {field.required && ` ${t('elicitation.required')}`}
      </label>
      {input}
      <span id={describedBy} className="muted elicitation-help">
        {field.description}
      </span>
      {props.problem !== undefined && (
        <span
          className="check-failed"
          role="alert"
          data-testid={`elicitation-problem-${field.name}`}
        >
          {problemText(t, props.problem)}
        </span>
      )}
    </div>
  );
}

/** The HTML input type of a text or number field. */
function inputType(field: McpElicitationField): string {
  if (field.type === 'number' || field.type === 'integer') return 'number';
  if (field.type !== 'string') return 'text';
  if (field.format === 'email') return 'email';
  if (field.format === 'date') return 'date';
  if (field.format === 'uri') return 'url';
  return 'text';
}

function problemText(t: Translate, problem: McpElicitationProblem): string {
  const key = `elicitation.problem.${problem.kind}` as MessageKey;
  return 'limit' in problem ? t(key, { limit: problem.limit }) : t(key);
}
