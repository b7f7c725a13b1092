/**
 * Follows the newest content of the message list only while the user is at its bottom: scrolling
 * up while an answer streams leaves the view where the user put it (and offers a jump back), and
 * content that grows after the last render (an image that loads, a diagram drawn late) keeps a
 * view that was at the bottom at the bottom.
 */
import type { RefObject } from 'react';
import { useCallback, useEffect, useRef, useState } from 'react';

/** "At the bottom": closer than this many pixels (a wheel notch is about 100). */
export const AT_BOTTOM_PX = 80;

/** Whether a scroller at these measures shows its end. */
export function isAtBottom(scroller: {
  scrollHeight: number;
  scrollTop: number;
  clientHeight: number;
}): boolean {
  return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= AT_BOTTOM_PX;
}

export interface StickToBottom {
  /** The scroller's ref. */
  scroller: RefObject<HTMLDivElement | null>;
  /** False once the user scrolled away from the bottom; the jump button shows then. */
  atBottom: boolean;
  /** Scrolls to the end and follows it again. */
  jumpToBottom(): void;
  /** Call after new content rendered: scrolls to the end if the view was following it. */
  follow(): void;
}

/**
 * `resetKey`: a new conversation starts at its end again. `hold`: do not follow the end now (a
 * search hit is being scrolled to, or the loaded messages stop short of the end: a window far
 * back, whose end is not the conversation's).
 */
export function useStickToBottom(resetKey: string | null, hold = false): StickToBottom {
  const scroller = useRef<HTMLDivElement | null>(null);
  const following = useRef(!hold);
  const held = useRef(hold);
  held.current = hold;
  const [atBottom, setAtBottom] = useState(true);

  // One scroll to the end per frame, in the frame's own rendering step: reading scrollHeight right
  // after each streamed word's render forced a layout per render (~1 s of a long answer's time).
  const frame = useRef<number | null>(null);
  const toEnd = useCallback(() => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      const element = scroller.current;
      // Following is checked again: the user may have scrolled away since it was asked for.
      if (element && following.current && !held.current) element.scrollTop = element.scrollHeight;
    });
  }, []);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );
  const follow = useCallback(() => {
    if (following.current) toEnd();
  }, [toEnd]);
  const jumpToBottom = useCallback(() => {
    following.current = true;
    setAtBottom(true);
    toEnd();
  }, [toEnd]);

  useEffect(() => {
    following.current = !held.current;
    setAtBottom(true);
    toEnd();
  }, [resetKey, toEnd]);

  // Held (a search hit opened in the conversation already shown): stop following at once, before
  // a resize would scroll back to the end.
  useEffect(() => {
    if (hold) following.current = false;
  }, [hold]);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const onScroll = (): void => {
      const bottom = isAtBottom(element);
      following.current = bottom;
      setAtBottom(bottom);
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    // Content that grows without a render of ours (images, late diagrams) while following.
    const resize = new ResizeObserver(() => {
      if (following.current) toEnd();
    });
    for (const child of Array.from(element.children)) resize.observe(child);
    const added = new MutationObserver((records) => {
      for (const record of records)
        for (const node of Array.from(record.addedNodes))
          if (node instanceof Element) resize.observe(node);
    });
    added.observe(element, { childList: true });
    return () => {
      element.removeEventListener('scroll', onScroll);
      resize.disconnect();
      added.disconnect();
    };
  }, [toEnd]);

  return { scroller, atBottom, jumpToBottom, follow };
}
