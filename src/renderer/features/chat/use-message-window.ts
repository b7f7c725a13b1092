/**
 * Renders a long conversation from its end: only the latest messages at first, more as the user
 * scrolls towards the top. Opening a conversation of thousands of messages then costs about what
 * a short one does (the goal: open under 500 ms), and a reload after a turn re-renders
 * only what is on screen. The view stays still while earlier messages are added above it: the
 * distance to the bottom is kept (browsers do not anchor a scroller that sits at the very top).
 */
import type { RefCallback } from 'react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Messages rendered when a conversation opens (several screens of text). */
export const INITIAL_WINDOW = 60;
/** Messages added each time the user nears the top. */
export const WINDOW_STEP = 100;
/** "Near the top": closer than this many pixels. */
const NEAR_TOP_PX = 800;

/** The first message to render and the ref of the sentinel placed above it. */
export interface MessageWindow {
  start: number;
  sentinel: RefCallback<HTMLElement>;
}

/** The first index of `total` messages to render for `conversationId`. */
export function windowStart(total: number, shown: number): number {
  return Math.max(0, total - shown);
}

/**
 * The window over the open conversation's messages. It resets when another conversation opens;
 * the sentinel's scroll container (its parent) widens it when scrolled near the top, or when the
 * rendered messages do not fill it at all.
 */
export function useMessageWindow(conversationId: string | null, total: number): MessageWindow {
  const [state, setState] = useState({ conversationId, shown: INITIAL_WINDOW });
  const shown = state.conversationId === conversationId ? state.shown : INITIAL_WINDOW;
  if (state.conversationId !== conversationId) setState({ conversationId, shown });
  const start = windowStart(total, shown);
  const container = useRef<HTMLElement | null>(null);
  /** Distance from the scroll position to the bottom, taken just before widening. */
  const fromBottom = useRef<number | null>(null);

  const widenIfNearTop = useCallback(() => {
    const element = container.current;
    if (element === null) return;
    const fits = element.scrollHeight <= element.clientHeight;
    if (!fits && element.scrollTop > NEAR_TOP_PX) return;
    fromBottom.current = element.scrollHeight - element.scrollTop;
    setState((current) =>
      current.conversationId === conversationId && windowStart(total, current.shown) > 0
        ? { conversationId, shown: current.shown + WINDOW_STEP }
        : current,
    );
  }, [conversationId, total]);

  // Kept after the sentinel goes (start 0): the last widening still restores the position.
  const sentinel = useCallback<RefCallback<HTMLElement>>((element) => {
    if (element?.parentElement) container.current = element.parentElement;
  }, []);

  useLayoutEffect(() => {
    const element = container.current;
    const distance = fromBottom.current;
    fromBottom.current = null;
    if (element !== null && distance !== null) element.scrollTop = element.scrollHeight - distance;
  }, [start]);

  useEffect(() => {
    const element = container.current;
    if (element === null || start === 0) return;
    element.addEventListener('scroll', widenIfNearTop, { passive: true });
    // Nothing to scroll yet (a tall window, short messages): widen until it overflows.
    if (element.scrollHeight <= element.clientHeight) widenIfNearTop();
    return () => element.removeEventListener('scroll', widenIfNearTop);
  }, [start, widenIfNearTop]);

  return { start, sentinel };
}
