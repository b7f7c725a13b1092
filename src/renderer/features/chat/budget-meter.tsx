/**
 * The turn's tool budget: a small meter of the calls used against the turn's cap (a native
 * `<meter>`, so screen readers get its values and its name), then the counts as text
 * ("python_execute 1/16 · total 1/48"). A stored turn recorded without its caps shows the text
 * alone.
 */
import type { ReactNode } from 'react';
import type { BudgetUpdateEvent } from '../../../shared/turn-events';
import { useT } from '../../i18n/use-t';
import { budgetText } from '../../state/budget-text';

/** The meter and its text (`data-testid="budget-meter"`). */
export function BudgetMeter(props: { budget: BudgetUpdateEvent }): ReactNode {
  const t = useT();
  const { used, limit } = props.budget.total;
  return (
    <span className="budget-meter" data-testid="budget-meter">
      {limit !== null && limit > 0 && (
        <meter
          className="budget-bar"
          data-testid="budget-bar"
          min={0}
          max={limit}
          value={Math.min(used, limit)}
          low={Math.ceil(limit * 0.5)}
          high={Math.ceil(limit * 0.85)}
          optimum={0}
          aria-label={t('budget.meter', { used, limit })}
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={Math.min(used, limit)}
          aria-valuetext={t('budget.meter', { used, limit })}
        />
      )}
      <span className="budget-text">{budgetText(props.budget, t('budget.total'))}</span>
    </span>
  );
}
