/**
 * The artifact viewer table's window: which rows and columns of a fixed-size grid are drawn for a
 * scroll position (`features/artifacts/grid-window.ts`).
 */
import { describe, expect, it } from 'vitest';
import { gridWindow } from '../../../src/renderer/features/artifacts/grid-window';

const GEOMETRY = {
  rows: 100_000,
  columns: 50,
  rowPx: 28,
  columnPx: 150,
  top: 28,
  left: 64,
  overscanRows: 8,
  overscanColumns: 2,
};

describe('artifact viewer: the table window', () => {
  it('starts at the first row and column, with a margin below and to the right', () => {
    expect(gridWindow(GEOMETRY, { scrollTop: 0, scrollLeft: 0, height: 560, width: 600 })).toEqual({
      firstRow: 0,
      lastRow: 28,
      firstColumn: 0,
      lastColumn: 6,
    });
  });

  it('follows the scroll position, with the margin on both sides', () => {
    const view = gridWindow(GEOMETRY, {
      scrollTop: 28 + 50_000 * 28,
      scrollLeft: 64 + 20 * 150,
      height: 280,
      width: 300,
    });
    expect(view).toEqual({ firstRow: 49_992, lastRow: 50_018, firstColumn: 18, lastColumn: 24 });
  });

  it('never passes the last row or column, and is empty for an empty table', () => {
    const end = gridWindow(GEOMETRY, {
      scrollTop: 28 * 100_001,
      scrollLeft: 64 + 150 * 50,
      height: 560,
      width: 600,
    });
    expect(end.lastRow).toBe(99_999);
    expect(end.lastColumn).toBe(49);
    expect(end.firstRow).toBeLessThanOrEqual(end.lastRow);
    const empty = gridWindow(
      { ...GEOMETRY, rows: 0 },
      { scrollTop: 0, scrollLeft: 0, height: 560, width: 600 },
    );
    expect(empty.lastRow).toBe(-1);
  });
});
