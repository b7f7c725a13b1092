/**
 * An MCP server's question during a turn's call (`elicitation.request`): a card that says which
 * (third-party) service asks, shows its message as plain text, and either one input per field
 * (text, number, checkbox, select, multi-select; problems shown under each) with Accept /
 * Decline / Cancel, or — URL mode — the page's origin in large type, the full URL, and Open
 * (opened in the system browser only on that click) / Decline. A page the server requires before
 * a call can run (-32042, `retry`) has a second step after Open: Done (the call is tried again)
 * or Cancel; the server's own "complete" closes the card. The card sits in the conversation at
 * the running call of its turn (`TurnElicitation`); a request whose turn is not on screen shows
 * as a modal card instead. Focus moves to it; Escape cancels. The values go to the server only.
 */
import type { KeyboardEvent, ReactNode } from 'react';
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import type {
  McpElicitationAnswer,
  McpElicitationField,
  McpElicitationProblem,
} from '../../../shared/mcp-elicitation';
import type { MessageKey, Translate } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { Draft, DraftValue, ElicitationRequestView } from './elicitation-form';
import { draftContent, initialDraft, urlOrigin } from './elicitation-form';
import { elicitationInbox, inlineRequest, modalRequest } from './elicitation-inbox';
import { answerElicitation } from '../../data/chat';

/** Sends the user's answer for `request`; the card goes away once the host took it. */
function useAnswer():
  ((request: ElicitationRequestView, reply: McpElicitationAnswer) => void) | null {
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  if (!bridge) return null;
  return (request, reply) => {
    void (async () => {
      try {
        await answerElicitation(bridge, {
          elicitationId: request.elicitationId,
          answer: reply,
        });
        elicitationInbox.remove(request.elicitationId);
      } catch (error) {
        showError(error);
      }
    })();
  };
}

function useInbox() {
  return useSyncExternalStore(
    elicitationInbox.subscribe,
    elicitationInbox.snapshot,
    elicitationInbox.snapshot,
  );
}

/**
 * Follows `elicitation.request` / `elicitation.settled` into the window's inbox (mounted once)
 * and shows, as a modal card, the oldest request whose turn is not on screen.
 */
export function ElicitationPrompt(): ReactNode {
  const bridge = useApp((state) => state.bridge);
  useEffect(() => {
    if (!bridge) return;
    const stopRequests = bridge.onEvent('elicitation.request', (request) =>
      elicitationInbox.add(request),
    );
    const stopSettled = bridge.onEvent('elicitation.settled', (settled) =>
      elicitationInbox.remove(settled.elicitationId),
    );
    return () => {
      stopRequests();
      stopSettled();
    };
  }, [bridge]);
  const state = useInbox();
  const answer = useAnswer();
  const current = modalRequest(state);
  if (!current || !answer) return null;
  return (
    <div className="overlay approval-overlay" role="dialog" aria-modal="true">
      <ElicitationCard
        key={current.elicitationId}
        request={current}
        waiting={state.queue.length - 1}
        onAnswer={(reply) => answer(current, reply)}
      />
    </div>
  );
}

/** The running turn's question, in the conversation at its running call. */
export function TurnElicitation(props: { turnId: string }): ReactNode {
  const { turnId } = props;
  useEffect(() => elicitationInbox.claim(turnId), [turnId]);
  const state = useInbox();
  const answer = useAnswer();
  const current = inlineRequest(state, turnId);
  if (!current || !answer) return null;
  return (
    <ElicitationCard
      key={current.elicitationId}
      request={current}
      inline
      waiting={state.queue.length - 1}
      onAnswer={(reply) => answer(current, reply)}
    />
  );
}

/** The card of one request (exported for static rendering in tests). */
export function ElicitationCard(props: {
  request: ElicitationRequestView;
  waiting: number;
  /** In the conversation (a group) rather than in the modal overlay. */
  inline?: boolean;
  onAnswer(answer: McpElicitationAnswer): void;
}): ReactNode {
  const t = useT();
  const { request } = props;
  const titleId = useId();
  const card = useRef<HTMLElement>(null);
  const [draft, setDraft] = useState<Draft>(() => initialDraft(request.fields));
  const [tried, setTried] = useState(false);
  const [opened, setOpened] = useState(false);
  const { content, problems } = draftContent(request.fields, draft);
  const origin = urlOrigin(request.url);
  const retry = request.mode === 'url' && request.retry === true;
  useEffect(() => {
    // In the conversation, the card may be below the fold: bring it into view.
    if (props.inline) card.current?.scrollIntoView?.({ block: 'nearest' });
  }, [props.inline]);
  const accept = (): void => {
    setTried(true);
    if (Object.keys(problems).length === 0) props.onAnswer({ action: 'accept', content });
  };
  const open = (): void => {
    if (request.url === null) return;
    // The shell hands a new window to the system browser (Electron) or opens a tab (browser).
    window.open(request.url, '_blank', 'noopener,noreferrer');
    // A required page: the user comes back and says Done; otherwise opening is the consent.
    if (retry) setOpened(true);
    else props.onAnswer({ action: 'accept', content: {} });
  };
  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    props.onAnswer({ action: 'cancel' });
  };
  const Heading = props.inline ? 'h3' : 'h2';
  const title: MessageKey =
    request.mode === 'form'
      ? 'elicitation.title'
      : retry
        ? 'elicitation.retryTitle'
        : 'elicitation.urlTitle';
  return (
    <section
      ref={card}
      className={`approval-card elicitation-card${props.inline ? ' elicitation-inline' : ''}`}
      data-testid="elicitation-card"
      data-elicitation-id={request.elicitationId}
      data-placement={props.inline ? 'inline' : 'modal'}
      data-step={opened ? 'waiting' : 'ask'}
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
    >
      <Heading id={titleId}>{t(title)}</Heading>
      <p>{t('elicitation.intro', { service: request.service })}</p>
      <p className="elicitation-message" data-testid="elicitation-message">
        {request.message === '' ? t('elicitation.noMessage') : request.message}
      </p>
      {request.mode === 'url' ? (
        <>
          <p className="muted">{t(retry ? 'elicitation.retryIntro' : 'elicitation.urlIntro')}</p>
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
      {opened ? (
        <p role="status" data-testid="elicitation-waiting">
          {t('elicitation.waiting', { origin: origin ?? '' })}
        </p>
      ) : (
        <p className="muted">{t('elicitation.private')}</p>
      )}
      <div className="form-actions">
        {opened && (
          <button
            type="button"
            className="button primary"
            data-testid="elicitation-done"
            autoFocus
            onClick={() => props.onAnswer({ action: 'accept', content: {} })}
          >
            {t('elicitation.done')}
          </button>
        )}
        {!opened && request.mode === 'url' && (
          <button
            type="button"
            className="button primary"
            data-testid="elicitation-open"
            disabled={origin === null}
            onClick={open}
          >
            {t('elicitation.open')}
          </button>
        )}
        {!opened && request.mode !== 'url' && (
          <button
            type="button"
            className="button primary"
            data-testid="elicitation-accept"
            onClick={accept}
          >
            {t('elicitation.accept')}
          </button>
        )}
        {!opened && (
          <button
            type="button"
            className="button"
            data-testid="elicitation-decline"
            autoFocus
            onClick={() => props.onAnswer({ action: 'decline' })}
          >
            {t('elicitation.decline')}
          </button>
        )}
        {(request.mode === 'form' || opened) && (
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
    </section>
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
