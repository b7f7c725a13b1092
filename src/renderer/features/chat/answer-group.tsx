/**
 * Several models' answers to one question, side by side (stacked in a narrow window): one column
 * per model, headed by its name, its time and a Stop for that answer alone while it runs; each
 * column is the answer as it streams (tool calls, files, tokens in its footer). Once all have
 * ended, "Keep this answer" under each makes it the conversation's answer (the others stay
 * versions of it, each named by its model) and closes the comparison.
 */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import { formatDuration } from '../../state/duration-text';
import { answerModelName, askingAnswer } from '../../state/answer-names';
import { useApp } from '../../state/store';
import { liveAnswer } from './chat-rows';

export function AnswerGroup(props: { groupId: string; turnIds: readonly string[] }): ReactNode {
  const t = useT();
  const liveTurns = useApp((state) => state.liveTurns);
  const choices = useApp((state) => state.modelChoices);
  const stop = useApp((state) => state.stop);
  const keepAnswer = useApp((state) => state.keepAnswer);
  const turns = props.turnIds.flatMap((id) => {
    const turn = liveTurns[id];
    return turn ? [turn] : [];
  });
  const running = turns.some((turn) => turn.end === null);
  return (
    <section
      className="answer-group"
      data-testid="answer-group"
      data-running={running}
      aria-label={t('compare.group', { count: turns.length })}
    >
      <div className="answer-group-columns" data-count={turns.length}>
        {turns.map((turn) => {
          const name = answerModelName(turn, choices);
          return (
            <article
              key={turn.turnId}
              className="answer-column"
              data-testid="answer-column"
              data-model={turn.model ?? ''}
              aria-label={t('compare.answerOf', { model: name })}
            >
              <header className="answer-column-head">
                <span
                  className="answer-column-model"
                  data-testid="answer-column-model"
                  title={turn.model ?? undefined}
                >
                  {name}
                </span>
                <span className="answer-column-time muted" data-testid="answer-column-time">
                  {turn.end === null
                    ? t('compare.writing')
                    : formatDuration(turn.end.durationMs, t)}
                </span>
                {turn.end === null && (
                  <button
                    type="button"
                    className="button ghost answer-column-stop"
                    data-testid="answer-column-stop"
                    aria-label={t('compare.stopOne', { model: name })}
                    title={t('compare.stopOne', { model: name })}
                    onClick={() => void stop(turn.turnId)}
                  >
                    ■
                  </button>
                )}
              </header>
              {liveAnswer(turn)}
              {!running && turn.messageId !== null && (
                <button
                  type="button"
                  className="button answer-column-keep"
                  data-testid="answer-keep"
                  onClick={() => void keepAnswer(props.groupId, turn.messageId ?? '')}
                >
                  {t('compare.keep')}
                </button>
              )}
            </article>
          );
        })}
      </div>
      {!running && (
        <p className="muted answer-group-note" data-testid="answer-group-note">
          {t('compare.keepNote')}
        </p>
      )}
    </section>
  );
}

/**
 * On a question put to the user (an approval, a sampling request) while several models answer:
 * which answer asks. Nothing for a turn that is its question's only answer.
 */
export function AskedBy(props: { turnId: string | null }): ReactNode {
  const t = useT();
  const turn = useApp((state) =>
    props.turnId === null ? undefined : state.liveTurns[props.turnId],
  );
  const choices = useApp((state) => state.modelChoices);
  const model = askingAnswer(turn, choices);
  if (model === null) return null;
  return (
    <p className="asked-by" data-testid="asked-by">
      {t('compare.askedBy', { model })}
    </p>
  );
}
