/**
 * The sidebar's date groups: pinned first, then Today / Yesterday / Previous 7 days / Previous
 * 30 days / months, by the local calendar day of the injected "now".
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  groupConversations,
  shownOrder,
} from '../../../src/renderer/features/conversations/date-groups';

interface Item {
  id: string;
  updatedAt: number;
  pinnedAt: number | null;
}

/** A local time (the machine's time zone, as the sidebar uses). */
function local(year: number, month: number, day: number, hour = 12, minute = 0): number {
  return new Date(year, month - 1, day, hour, minute).getTime();
}

function item(id: string, updatedAt: number, pinnedAt: number | null = null): Item {
  return { id, updatedAt, pinnedAt };
}

function summary(items: Item[], now: number): [string, string[]][] {
  return groupConversations(items, now).map((group) => [group.id, group.items.map((i) => i.id)]);
}

describe('groupConversations', () => {
  const originalTz = process.env.TZ;
  afterEach(() => {
    if (originalTz === undefined) delete process.env.TZ;
    else process.env.TZ = originalTz;
  });

  it('puts each conversation in its group, newest first, skipping empty groups', () => {
    const now = local(2025, 3, 15, 9, 30);
    const items = [
      item('today-late', local(2025, 3, 15, 9, 0)),
      item('today-midnight', local(2025, 3, 15, 0, 0)),
      item('yesterday-last-minute', local(2025, 3, 14, 23, 59)),
      item('yesterday-first', local(2025, 3, 14, 0, 0)),
      item('three-days', local(2025, 3, 12)),
      item('seven-days', local(2025, 3, 8, 0, 0)),
      item('eight-days', local(2025, 3, 7, 23, 0)),
      item('thirty-days', local(2025, 2, 13, 0, 0)),
      item('feb', local(2025, 2, 12, 23, 59)),
      item('jan', local(2025, 1, 2)),
      item('last-dec', local(2024, 12, 31)),
    ];
    expect(summary(items, now)).toEqual([
      ['today', ['today-late', 'today-midnight']],
      ['yesterday', ['yesterday-last-minute', 'yesterday-first']],
      ['previous7', ['three-days', 'seven-days']],
      ['previous30', ['eight-days', 'thirty-days']],
      ['month-2025-2', ['feb']],
      ['month-2025-1', ['jan']],
      ['month-2024-12', ['last-dec']],
    ]);
    const groups = groupConversations(items, now);
    expect(groups.at(-1)?.key).toEqual({ kind: 'month', year: 2024, month: 11 });
  });

  it('pinned conversations head the list, newest pin first, whatever their activity', () => {
    const now = local(2025, 3, 15);
    const items = [
      item('a', local(2025, 3, 15, 11)),
      item('old-pin', local(2024, 6, 1), local(2025, 1, 1)),
      item('b', local(2025, 3, 14)),
      item('new-pin', local(2025, 3, 15, 10), local(2025, 3, 10)),
    ];
    expect(summary(items, now)).toEqual([
      ['pinned', ['new-pin', 'old-pin']],
      ['today', ['a']],
      ['yesterday', ['b']],
    ]);
    expect(shownOrder(items, now).map((i) => i.id)).toEqual(['new-pin', 'old-pin', 'a', 'b']);
  });

  it('a clock behind the stored time still shows the conversation under Today', () => {
    const now = local(2025, 3, 15, 8);
    expect(summary([item('future', local(2025, 3, 16, 1))], now)).toEqual([['today', ['future']]]);
    expect(groupConversations([], now)).toEqual([]);
  });

  it('days are local calendar days: across a DST change and in another time zone', () => {
    // New York moved to summer time on 2025-03-09 (that day had 23 hours).
    process.env.TZ = 'America/New_York';
    const now = Date.parse('2025-03-10T00:30:00-04:00');
    const items = [
      // 2025-03-09 00:10 local (EST): yesterday.
      item('yesterday-across-dst', Date.parse('2025-03-09T00:10:00-05:00')),
      // 2025-03-08 23:50 local: two days ago, although within 24 hours of today's midnight
      // (a "midnight minus 24 h" rule would call it yesterday).
      item('two-days', Date.parse('2025-03-08T23:50:00-05:00')),
    ];
    expect(summary(items, now)).toEqual([
      ['yesterday', ['yesterday-across-dst']],
      ['previous7', ['two-days']],
    ]);
    // The same instants seen from Shanghai (UTC+8): now is 2025-03-10 12:30 there.
    process.env.TZ = 'Asia/Shanghai';
    expect(summary(items, now)).toEqual([['yesterday', ['yesterday-across-dst', 'two-days']]]);
  });
});
