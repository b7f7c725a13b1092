/**
 * The message list, virtualised (`@tanstack/react-virtual`): only the rows on screen and a few
 * around them are in the DOM, so a conversation of 20,000 loaded messages costs what a short one
 * does to open, scroll and stream into. Rows are measured as they render (`measureElement`: a
 * streaming answer grows, an image loads) and keyed by message id, so a row keeps its component
 * when rows are added above or below it. The library writes each row's `top` and the list's
 * height through the CSSOM (`directDomUpdates`), which the app's CSP allows (inline `style`
 * attributes it refuses), and re-renders only when the visible range changes.
 *
 * `anchorTo: 'end'`: when rows are added above (an older page) or below (a newer one), the row at
 * the top of the view stays where it is; a list at its end stays at its end as the last row grows.
 */
import type { FocusEvent, ReactNode, RefObject } from 'react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Range } from '@tanstack/react-virtual';
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';

/** A row of the list: a stored message, a live turn's question or answer, one being sent. */
export interface ListRow {
  key: string;
}

/** Rows rendered beyond each edge of the view: a page-up's worth, and Tab to the next row. */
const OVERSCAN = 4;
/** A row's height before it is measured (a short question or answer). */
const ESTIMATED_ROW_PX = 140;

export interface MessageListProps<Row extends ListRow> {
  /** The scroll container (the `.messages` element this list sits in). */
  scroller: RefObject<HTMLDivElement | null>;
  rows: readonly Row[];
  renderRow(row: Row): ReactNode;
  /** A row to scroll to (a search hit), centred and highlighted; then `onScrolledTo`. */
  scrollToKey: string | null;
  onScrolledTo(): void;
}

/** The virtualised rows; the scroller around it keeps its padding, header and jump button. */
export function MessageList<Row extends ListRow>(props: MessageListProps<Row>): ReactNode {
  const { scroller, rows, renderRow, scrollToKey, onScrolledTo } = props;
  /** The row holding keyboard focus: kept mounted even when scrolled out of view. */
  const focusedKey = useRef<string | null>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  // The list starts below the scroller's top padding: offsets are counted from there. Read at
  // once when the scroller exists (another conversation opened), else after the first commit.
  const [scrollMargin, setScrollMargin] = useState(() =>
    scroller.current === null ? 0 : topPadding(scroller.current),
  );
  // A conversation opens at its end (or at a search hit): starting there, the first render
  // already has the rows that will show, not the first ones and then the last ones.
  const initialTarget =
    scrollToKey === null ? -1 : rows.findIndex((row) => row.key === scrollToKey);
  const getItemKey = useCallback((index: number) => rows[index]?.key ?? index, [rows]);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      const key = focusedKey.current;
      if (key === null) return indexes;
      const focused = rows.findIndex((row) => row.key === key);
      if (focused < 0 || indexes.includes(focused)) return indexes;
      return [...indexes, focused].sort((a, b) => a - b);
    },
    [rows],
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey,
    rangeExtractor,
    overscan: OVERSCAN,
    scrollMargin,
    initialOffset: () => {
      const view = scroller.current?.clientHeight ?? 0;
      return initialTarget >= 0
        ? Math.max(0, initialTarget * ESTIMATED_ROW_PX - view / 2)
        : Math.max(0, rows.length * ESTIMATED_ROW_PX - view);
    },
    anchorTo: 'end',
    directDomUpdates: true,
    // `top`, not a transform: a transformed row would become the containing block of the
    // `position: fixed` menus inside it (message actions), which must stay on the viewport.
    directDomUpdatesMode: 'position',
  });

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element !== null) setScrollMargin(topPadding(element));
  }, [scroller]);

  // A search hit: scroll it to the middle of the view (the library corrects the offset as the
  // rows on the way are measured), highlight it, and say it is done.
  const target = scrollToKey === null ? -1 : rows.findIndex((row) => row.key === scrollToKey);
  useEffect(() => {
    if (scrollToKey === null || target < 0) return;
    virtualizer.scrollToIndex(target, { align: 'center' });
    setHighlighted(scrollToKey);
    onScrolledTo();
  }, [scrollToKey, target, virtualizer, onScrolledTo]);

  const onFocus = (event: FocusEvent<HTMLDivElement>): void => {
    const row = event.target.closest<HTMLElement>('[data-row-key]');
    focusedKey.current = row?.dataset.rowKey ?? null;
  };
  const onBlur = (event: FocusEvent<HTMLDivElement>): void => {
    const next = event.relatedTarget;
    if (!(next instanceof Node) || !event.currentTarget.contains(next)) focusedKey.current = null;
  };

  return (
    <div
      ref={virtualizer.containerRef}
      className="message-rows"
      data-testid="message-rows"
      onFocus={onFocus}
      onBlur={onBlur}
    >
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index];
        if (row === undefined) return null;
        return (
          <div
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            data-row-key={row.key}
            className={row.key === highlighted ? 'message-row search-hit' : 'message-row'}
          >
            {renderRow(row)}
          </div>
        );
      })}
    </div>
  );
}

/** The scroller's top padding in px. */
function topPadding(element: HTMLElement): number {
  return Number.parseFloat(getComputedStyle(element).paddingTop);
}
