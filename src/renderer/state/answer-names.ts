/** How an answer among several models' answers is named: its saved model's label, else its model. */
import type { ModelChoice } from './composer-rules';
import type { LiveTurn } from './live-turn';

/** The answer's model as the user named it (the saved label), else its name as sent. */
export function answerModelName(
  turn: Pick<LiveTurn, 'model' | 'modelId'>,
  choices: readonly ModelChoice[],
): string {
  const saved = choices.find((choice) => choice.id !== null && choice.id === turn.modelId);
  return saved?.label ?? turn.model ?? '';
}

/**
 * Which answer puts a question to the user (an approval, a sampling request): its model's name
 * when several models answer, null for a question's only answer (or an unknown turn).
 */
export function askingAnswer(
  turn: Pick<LiveTurn, 'model' | 'modelId' | 'group'> | undefined,
  choices: readonly ModelChoice[],
): string | null {
  if (turn?.group === undefined) return null;
  return answerModelName(turn, choices);
}
