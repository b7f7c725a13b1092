/**
 * Renders a long conversation from its end: only the latest messages at first, more as the user
 * scrolls towards the top. Opening a conversation of thousands of messages then costs about what
 * a short one does (the goal: open under 500 ms), and a reload after a turn re-renders
 * only what is on screen. The view stays still while earlier messages are added above it: the
 * distance to the bottom is kept (browsers do not anchor a scroller that sits at the very top).
 * Only a page of the conversation is loaded at first: once every loaded message is rendered,
 * nearing the top reads the page before (`older`).
 */
import type { RefCallback } from 'react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * Messages rendered when a conversation opens: a screen or two of text (each rendered message
 * costs its Markdown on the first paint; more are added as the reader scrolls up).
 */
export const INITIAL_WINDOW = 24;
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

/** The pages above the loaded ones: whether there are any, and how to start reading one. */
export interface OlderPages {
  hasOlder: boolean;
  /** Starts reading the page before; false when none is read now (none left, or on its way). */
  loadOlder(): boolean;
}

/**
 * The window over the open conversation's messages. It resets when another conversation opens;
 * the sentinel's scroll container (its parent) widens it when scrolled near the top, or when the
 * rendered messages do not fill it at all; once all loaded messages are rendered, it reads the
 * page before and widens over it when it arrives. `minimumShown`: render at least that many of
 * the latest messages (a message to scroll to).
 */
export function useMessageWindow(
  conversationId: string | null,
  messages: readonly { id: string }[],
  pages: OlderPages,
  minimumShown = 0,
): MessageWindow {
  const total = messages.length;
  const [state, setState] = useState({ conversationId, shown: INITIAL_WINDOW });
  const current = state.conversationId === conversationId ? state.shown : INITIAL_WINDOW;
  const shown = Math.max(current, minimumShown);
  if (state.conversationId !== conversationId || shown !== state.shown) {
    setState({ conversationId, shown });
  }
  const start = windowStart(total, shown);
  const firstId = messages[start]?.id ?? null;
  const container = useRef<HTMLElement | null>(null);
  /** Distance from the scroll position to the bottom, taken just before widening. */
  const fromBottom = useRef<number | null>(null);
  const { hasOlder, loadOlder } = pages;

  const widenIfNearTop = useCallback(() => {
    const element = container.current;
    if (element === null) return;
    const fits = element.scrollHeight <= element.clientHeight;
    if (!fits && element.scrollTop > NEAR_TOP_PX) return;
    if (windowStart(total, shown) > 0) {
      fromBottom.current = element.scrollHeight - element.scrollTop;
      setState((previous) =>
        previous.conversationId === conversationId && windowStart(total, previous.shown) > 0
          ? { conversationId, shown: previous.shown + WINDOW_STEP }
          : previous,
      );
    } else if (hasOlder && loadOlder()) {
      // The page arrives above: it is rendered as it comes, and the view stays where it is.
      fromBottom.current = element.scrollHeight - element.scrollTop;
      setState((previous) =>
        previous.conversationId === conversationId
          ? { conversationId, shown: Math.max(previous.shown, total) + WINDOW_STEP }
          : previous,
      );
    }
  }, [conversationId, total, shown, hasOlder, loadOlder]);

  // Kept after the sentinel goes (start 0): the last widening still restores the position.
  const sentinel = useCallback<RefCallback<HTMLElement>>((element) => {
    if (element?.parentElement) container.current = element.parentElement;
  }, []);

  useLayoutEffect(() => {
    const element = container.current;
    const distance = fromBottom.current;
    if (element === null || distance === null) return;
    fromBottom.current = null;
    element.scrollTop = element.scrollHeight - distance;
  }, [firstId]);

  const more = start > 0 || hasOlder;
  useEffect(() => {
    const element = container.current;
    if (element === null || !more) return;
    element.addEventListener('scroll', widenIfNearTop, { passive: true });
    // Nothing to scroll yet (a tall window, short messages): widen until it overflows.
    if (element.scrollHeight <= element.clientHeight) widenIfNearTop();
    return () => element.removeEventListener('scroll', widenIfNearTop);
  }, [more, firstId, widenIfNearTop]);

  return { start, sentinel };
}
