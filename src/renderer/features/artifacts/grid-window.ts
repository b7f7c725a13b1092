/**
 * The rows and columns of a fixed-size grid that are on screen in a scroller, plus a margin: plain
 * arithmetic on scrollTop/scrollLeft, because every row and column has one fixed size. (The
 * table first used two `@tanstack/react-virtual` virtualisers; with 100,000 rows their scroll
 * handlers took most of the main thread in `npm run bench -- --only=ui-artifact`.) Updated once a
 * frame at most while scrolling, and when the scroller is resized.
 */
import type { RefObject } from 'react';
import { useEffect, useState } from 'react';

/** The part of the grid to draw: first and last index, both inclusive. */
export interface GridWindow {
  firstRow: number;
  lastRow: number;
  firstColumn: number;
  lastColumn: number;
}

/** Sizes of the grid in px; `top`/`left` are what sits before the first row/column (header, numbers). */
export interface GridGeometry {
  rows: number;
  columns: number;
  rowPx: number;
  columnPx: number;
  top: number;
  left: number;
  /** Rows and columns drawn beyond each edge. */
  overscanRows: number;
  overscanColumns: number;
}

/** The window for a scroll position and view size (pure: unit-tested). */
export function gridWindow(
  geometry: GridGeometry,
  view: { scrollTop: number; scrollLeft: number; height: number; width: number },
): GridWindow {
  const span = (
    offset: number,
    size: number,
    count: number,
    cell: number,
    overscan: number,
  ): [number, number] => {
    if (count === 0) return [0, -1];
    const first = Math.max(0, Math.floor(Math.max(0, offset) / cell) - overscan);
    const last = Math.min(count - 1, Math.ceil((Math.max(0, offset) + size) / cell) + overscan);
    return [Math.min(first, count - 1), last];
  };
  const [firstRow, lastRow] = span(
    view.scrollTop - geometry.top,
    view.height,
    geometry.rows,
    geometry.rowPx,
    geometry.overscanRows,
  );
  const [firstColumn, lastColumn] = span(
    view.scrollLeft - geometry.left,
    view.width,
    geometry.columns,
    geometry.columnPx,
    geometry.overscanColumns,
  );
  return { firstRow, lastRow, firstColumn, lastColumn };
}

function same(a: GridWindow, b: GridWindow): boolean {
  return (
    a.firstRow === b.firstRow &&
    a.lastRow === b.lastRow &&
    a.firstColumn === b.firstColumn &&
    a.lastColumn === b.lastColumn
  );
}

/** The window of `scroller`, re-rendering only when it changes. */
export function useGridWindow(
  scroller: RefObject<HTMLElement | null>,
  geometry: GridGeometry,
): GridWindow {
  const { rows, columns, rowPx, columnPx, top, left, overscanRows, overscanColumns } = geometry;
  const [window, setWindow] = useState<GridWindow>(() =>
    gridWindow(geometry, { scrollTop: 0, scrollLeft: 0, height: 800, width: 1200 }),
  );
  useEffect(() => {
    const element = scroller.current;
    if (element === null) return undefined;
    const shape = { rows, columns, rowPx, columnPx, top, left, overscanRows, overscanColumns };
    let frame = 0;
    const update = (): void => {
      frame = 0;
      const next = gridWindow(shape, {
        scrollTop: element.scrollTop,
        scrollLeft: element.scrollLeft,
        height: element.clientHeight,
        width: element.clientWidth,
      });
      setWindow((current) => (same(current, next) ? current : next));
    };
    const schedule = (): void => {
      if (frame === 0) frame = requestAnimationFrame(update);
    };
    update();
    element.addEventListener('scroll', schedule, { passive: true });
    const resize = new ResizeObserver(schedule);
    resize.observe(element);
    return () => {
      element.removeEventListener('scroll', schedule);
      resize.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [scroller, rows, columns, rowPx, columnPx, top, left, overscanRows, overscanColumns]);
  return window;
}
