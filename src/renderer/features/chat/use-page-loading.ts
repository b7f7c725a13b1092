/**
 * Reads more of the open conversation as the reader scrolls: the page before the loaded ones when
 * the view nears the top (`conversations.older`), the page after them when it nears the bottom of
 * a window opened far back (`conversations.newer`). The list (message-list.tsx) keeps the view
 * where it was as a page arrives above or below. A list too short to scroll reads on until it
 * fills the view or nothing is left.
 */
import type { RefObject } from 'react';
import { useEffect } from 'react';

/** "Near" an edge: closer than this many pixels (a few rows). */
export const NEAR_EDGE_PX = 800;

/** The pages around the loaded ones and how to start reading one (false: none read now). */
export interface AdjacentPages {
  hasOlder: boolean;
  hasNewer: boolean;
  loadOlder(): boolean;
  loadNewer(): boolean;
}

/**
 * Watches `scroller` and reads the next page on either side when it is near that edge.
 * `loadedKey` changes whenever the loaded messages do (their count): a list that still does not
 * fill the view after a page then reads the next one.
 */
export function usePageLoading(
  scroller: RefObject<HTMLElement | null>,
  pages: AdjacentPages,
  loadedKey: number,
): void {
  const { hasOlder, hasNewer, loadOlder, loadNewer } = pages;
  useEffect(() => {
    const element = scroller.current;
    if (element === null || (!hasOlder && !hasNewer)) return;
    const check = (): void => {
      const fromBottom = element.scrollHeight - element.scrollTop - element.clientHeight;
      if (hasOlder && element.scrollTop < NEAR_EDGE_PX) loadOlder();
      if (hasNewer && fromBottom < NEAR_EDGE_PX) loadNewer();
    };
    element.addEventListener('scroll', check, { passive: true });
    // Nothing to scroll yet (a tall window, short messages): read until it overflows.
    if (element.scrollHeight <= element.clientHeight) check();
    return () => element.removeEventListener('scroll', check);
  }, [scroller, hasOlder, hasNewer, loadOlder, loadNewer, loadedKey]);
}
