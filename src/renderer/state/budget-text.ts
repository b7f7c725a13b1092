/** The budget meter's text: used/limit of every tool used so far, then the turn's total. */
import type { BudgetUpdateEvent } from '../../shared/turn-events';
import type { TurnSummary } from './app-state';

/** Shorter names for the meter (the seed's example reads "search 3/16 · total 7/48"). */
const SHORT_NAMES: Record<string, string> = { aivory_web_search: 'search' };

/** E.g. `search 3/16 · web_fetch 1/8 · total 7/48`; `totalLabel` is translated by the caller. */
export function budgetText(budget: BudgetUpdateEvent, totalLabel: string): string {
  const counter = (used: number, limit: number | null): string =>
    limit === null ? `${used}` : `${used}/${limit}`;
  const tools = Object.entries(budget.perTool)
    .filter(([, value]) => value.used > 0)
    .map(([name, value]) => `${SHORT_NAMES[name] ?? name} ${counter(value.used, value.limit)}`);
  return [...tools, `${totalLabel} ${counter(budget.total.used, budget.total.limit)}`].join(' · ');
}

/**
 * A stored turn's meter as it last read live (with its limits), when the turn record kept it and
 * the turn called a tool; otherwise null.
 */
export function storedBudget(
  turn: Pick<TurnSummary, 'turnId' | 'budget'> | undefined,
): BudgetUpdateEvent | null {
  if (!turn?.budget || turn.budget.total.used === 0) return null;
  return { type: 'budget-update', turnId: turn.turnId, ...turn.budget };
}

/**
 * A stored turn's meter recorded before turns kept theirs: each tool's count and the total,
 * without limits. Null when the turn called no tool.
 */
export function budgetFromToolCalls(
  turnId: string,
  toolCalls: Readonly<Record<string, number>>,
): BudgetUpdateEvent | null {
  const entries = Object.entries(toolCalls).filter(([, used]) => used > 0);
  if (entries.length === 0) return null;
  const total = entries.reduce((sum, [, used]) => sum + used, 0);
  return {
    type: 'budget-update',
    turnId,
    perTool: Object.fromEntries(entries.map(([name, used]) => [name, { used, limit: null }])),
    total: { used: total, limit: null },
    rounds: { used: 0, limit: null },
  };
}
