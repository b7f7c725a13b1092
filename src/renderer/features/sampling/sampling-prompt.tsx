/**
 * An MCP server's sampling request during a turn's call (`sampling.request`): a card that says
 * which (third-party) service wants the model to write a reply, which model would answer and at
 * most how many tokens, then the server's system prompt and messages as plain text; Allow once /
 * Always for this server / Deny. The reply goes to the server only.
 */
import { AskedBy } from '../chat/answer-group';
import type { ReactNode } from 'react';
import type { EventPayload } from '../../../shared/ipc-contract';
import type { McpSamplingDecision } from '../../../shared/mcp-sampling';
import { useT } from '../../i18n/use-t';
import { useRequestQueue } from '../../components/use-request-queue';
import { useApp } from '../../state/store';
import { answerSampling } from '../../data/chat';

export type SamplingRequestView = EventPayload<'sampling.request'>;

function enqueueSampling(
  queue: SamplingRequestView[],
  request: SamplingRequestView,
): SamplingRequestView[] {
  return queue.some((item) => item.samplingId === request.samplingId) ? queue : [...queue, request];
}

function settleSampling(
  queue: SamplingRequestView[],
  { samplingId }: { samplingId: string },
): SamplingRequestView[] {
  return queue.filter((item) => item.samplingId !== samplingId);
}

/** Follows `sampling.request` / `sampling.settled` and shows the oldest waiting request. */
export function SamplingPrompt(): ReactNode {
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const [queue, setQueue] = useRequestQueue<
    SamplingRequestView,
    'sampling.request',
    'sampling.settled'
  >('sampling.request', 'sampling.settled', enqueueSampling, settleSampling);
  const current = queue[0];
  if (!current || !bridge) return null;
  const answer = async (decision: McpSamplingDecision): Promise<void> => {
    try {
      await answerSampling(bridge, { samplingId: current.samplingId, decision });
      setQueue((items) => items.filter((item) => item.samplingId !== current.samplingId));
    } catch (error) {
      showError(error);
    }
  };
  return (
    <SamplingCard
      key={current.samplingId}
      request={current}
      waiting={queue.length - 1}
      onAnswer={(decision) => void answer(decision)}
    />
  );
}

/** The card of one request (exported for static rendering in tests). */
export function SamplingCard(props: {
  request: SamplingRequestView;
  waiting: number;
  onAnswer(decision: McpSamplingDecision): void;
}): ReactNode {
  const t = useT();
  const { request } = props;
  return (
    <div className="overlay approval-overlay" role="dialog" aria-modal="true">
      <div
        className="approval-card sampling-card"
        data-testid="sampling-card"
        data-sampling-id={request.samplingId}
      >
        <h2>{t('sampling.title')}</h2>
        <AskedBy turnId={request.turnId} />
        <p data-testid="sampling-intro">{t('sampling.intro', { service: request.service })}</p>
        <p data-testid="sampling-model">
          {t('sampling.model', { model: request.model, tokens: request.maxTokens })}
        </p>
        {request.systemPrompt !== '' && (
          <>
            <p className="muted">{t('sampling.systemPrompt')}</p>
            <p className="elicitation-message" data-testid="sampling-system">
              {request.systemPrompt}
            </p>
          </>
        )}
        <p className="muted">{t('sampling.messages')}</p>
        <div className="sampling-messages" data-testid="sampling-messages">
          {request.messages.map((message, index) => (
            <p key={index} className="elicitation-message">
              <strong>
                {t(message.role === 'user' ? 'sampling.role.user' : 'sampling.role.assistant')}
              </strong>
              {'\n'}
              {message.text}
            </p>
          ))}
        </div>
        <p className="muted">{t('sampling.private')}</p>
        <div className="form-actions">
          <button
            type="button"
            className="button primary"
            data-testid="sampling-once"
            onClick={() => props.onAnswer('once')}
          >
            {t('sampling.once')}
          </button>
          <button
            type="button"
            className="button"
            data-testid="sampling-always"
            onClick={() => props.onAnswer('always')}
          >
            {t('sampling.always')}
          </button>
          <button
            type="button"
            className="button"
            data-testid="sampling-deny"
            autoFocus
            onClick={() => props.onAnswer('deny')}
          >
            {t('sampling.deny')}
          </button>
        </div>
        {props.waiting > 0 && (
          <p className="muted">{t('sampling.more', { count: props.waiting })}</p>
        )}
      </div>
    </div>
  );
}
