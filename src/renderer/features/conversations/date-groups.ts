/**
 * The sidebar's groups: pinned conversations first (newest pin first), then the others by their
 * last activity — Today, Yesterday, Previous 7 days, Previous 30 days, then one group per month
 * (newest first). Days are local calendar days (midnight to midnight where the user is, so a
 * daylight-saving change never moves a conversation to the wrong day). Pure: "now" is passed in.
 */
import type { Conversation } from '../../../shared/dto';

/** Which group a conversation is in. */
export type DateGroupKey =
  | { kind: 'pinned' }
  | { kind: 'today' }
  | { kind: 'yesterday' }
  | { kind: 'previous7' }
  | { kind: 'previous30' }
  /** A calendar month; `month` is 0–11 as in `Date`. */
  | { kind: 'month'; year: number; month: number };

/** A group with its conversations in the order shown. */
export interface DateGroup<T> {
  /** Stable across renders: 'pinned', 'today', …, 'month-2024-03'. */
  id: string;
  key: DateGroupKey;
  items: T[];
}

type Listed = Pick<Conversation, 'updatedAt' | 'pinnedAt'>;

/** The groups in display order, each non-empty; `conversations` come newest activity first. */
export function groupConversations<T extends Listed>(
  conversations: readonly T[],
  now: number,
): DateGroup<T>[] {
  const today = startOfDay(now, 0);
  const bounds = {
    yesterday: startOfDay(now, -1),
    previous7: startOfDay(now, -7),
    previous30: startOfDay(now, -30),
  };
  const pinned = conversations
    .filter((item) => item.pinnedAt !== null)
    .sort((a, b) => (b.pinnedAt ?? 0) - (a.pinnedAt ?? 0));
  const groups: DateGroup<T>[] = [];
  if (pinned.length > 0) groups.push({ id: 'pinned', key: { kind: 'pinned' }, items: pinned });
  const byId = new Map<string, DateGroup<T>>();
  const rest = conversations
    .filter((item) => item.pinnedAt === null)
    .sort((a, b) => b.updatedAt - a.updatedAt);
  for (const item of rest) {
    const key: DateGroupKey =
      item.updatedAt >= today
        ? { kind: 'today' }
        : item.updatedAt >= bounds.yesterday
          ? { kind: 'yesterday' }
          : item.updatedAt >= bounds.previous7
            ? { kind: 'previous7' }
            : item.updatedAt >= bounds.previous30
              ? { kind: 'previous30' }
              : monthOf(item.updatedAt);
    const id = key.kind === 'month' ? `month-${key.year}-${key.month + 1}` : key.kind;
    let group = byId.get(id);
    if (group === undefined) {
      group = { id, key, items: [] };
      byId.set(id, group);
      groups.push(group);
    }
    group.items.push(item);
  }
  return groups;
}

/** The conversations in the order the sidebar shows them (what ↑/↓ walk through). */
export function shownOrder<T extends Listed>(conversations: readonly T[], now: number): T[] {
  return groupConversations(conversations, now).flatMap((group) => group.items);
}

/** Local midnight `days` calendar days from the day of `now` (negative: earlier). */
function startOfDay(now: number, days: number): number {
  const date = new Date(now);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days).getTime();
}

function monthOf(time: number): DateGroupKey {
  const date = new Date(time);
  return { kind: 'month', year: date.getFullYear(), month: date.getMonth() };
}
