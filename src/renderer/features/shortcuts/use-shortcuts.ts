/**
 * The one keydown handler of the app's shortcuts (`shortcut-keys.ts` says which press is which
 * action): installed on window while the chat screen shows, it runs the store's own actions —
 * newChat, openConversation, stop — shows or hides the sidebar (`features/layout`) and moves focus to the sidebar search or the composer. A
 * press a dialog already handled (defaultPrevented: Esc closing settings) is left alone, and no
 * shortcut works while a dialog (settings, the approval card, the help sheet, a composer
 * popover) is open: there Esc closes the dialog and nothing else.
 */
import { useEffect, useRef } from 'react';
import { appStore } from '../../state/store';
import { shownOrder } from '../conversations/date-groups';
import { toggleSidebar } from '../layout/sidebar-state';
import type { ShortcutAction } from './shortcut-keys';
import { isMacPlatform, neighbourConversation, shortcutFor } from './shortcut-keys';

/** The sidebar's search field (conversation-list.tsx gives it this id). */
export const SEARCH_FIELD_ID = 'conversation-search';
/** The composer's message box (owned by the chat feature; found by its place). */
const COMPOSER_SELECTOR = '.composer textarea';

/** Whether this platform uses ⌘ (else Ctrl). */
export function platformIsMac(): boolean {
  if (typeof navigator === 'undefined') return false;
  const withHints = navigator as Navigator & { userAgentData?: { platform?: string } };
  return isMacPlatform(withHints);
}

function textField(element: Element | null): HTMLInputElement | HTMLTextAreaElement | null {
  if (element instanceof HTMLTextAreaElement) return element;
  if (element instanceof HTMLInputElement) {
    const nonText = ['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'];
    return nonText.includes(element.type) ? null : element;
  }
  return null;
}

function isEditable(element: Element | null): boolean {
  return (
    textField(element) !== null ||
    element instanceof HTMLSelectElement ||
    (element instanceof HTMLElement && element.isContentEditable)
  );
}

function focusElement(element: HTMLElement | null): void {
  element?.focus();
  if (element instanceof HTMLInputElement) element.select();
}

/** Runs one action. */
function run(action: ShortcutAction, openHelp: () => void): void {
  const state = appStore.getState();
  switch (action) {
    case 'new-chat':
      state.newChat();
      // The composer mounts with the chat view; focus it once the new chat has rendered.
      window.requestAnimationFrame(() =>
        focusElement(document.querySelector<HTMLElement>(COMPOSER_SELECTOR)),
      );
      return;
    case 'search':
      focusElement(document.getElementById(SEARCH_FIELD_ID));
      return;
    case 'focus-composer':
      focusElement(document.querySelector<HTMLElement>(COMPOSER_SELECTOR));
      return;
    case 'previous-conversation':
    case 'next-conversation': {
      // In the order the sidebar shows them (pinned first, then by date).
      const ids = shownOrder(state.conversations, Date.now()).map(
        (conversation) => conversation.id,
      );
      const direction = action === 'next-conversation' ? 'next' : 'previous';
      // From where the reader is heading: quick presses step on before each page arrives.
      const id = neighbourConversation(ids, state.headingId, direction);
      if (id !== null) void state.openConversation(id);
      return;
    }
    case 'toggle-sidebar':
      toggleSidebar();
      return;
    case 'stop': {
      const turnId = runningTurnId();
      if (turnId !== null) void state.stop(turnId);
      return;
    }
    case 'regenerate': {
      // The last answer shown, when no turn runs here (as its Regenerate button).
      const last = state.messages.findLast((message) => message.role === 'assistant');
      if (last && runningTurnId() === null && last.status !== 'streaming')
        void state.regenerate(last.id);
      return;
    }
    case 'help':
      openHelp();
      return;
  }
}

/** The action a keydown event means here, or null. */
export function actionOfEvent(event: KeyboardEvent, mac: boolean): ShortcutAction | null {
  const active = document.activeElement;
  const field = textField(active);
  return shortcutFor(event, {
    mac,
    inTextField: isEditable(active),
    textFieldHasText: field !== null ? field.value !== '' : isEditable(active),
    // Modal dialogs, the composer's popovers and open menus (which close on Esc themselves).
    dialogOpen: document.querySelector('[role="dialog"], [role="menu"]') !== null,
  });
}

/** Installs the shortcuts while `enabled` (the chat screen shows); `openHelp` shows the sheet. */
export function useShortcuts(enabled: boolean, openHelp: () => void): void {
  const help = useRef(openHelp);
  help.current = openHelp;
  useEffect(() => {
    if (!enabled) return undefined;
    const mac = platformIsMac();
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented) return;
      const action = actionOfEvent(event, mac);
      if (action === null) return;
      // Holding ⌘/Ctrl+↓ walks the list; other shortcuts fire once per press.
      const walks = action === 'previous-conversation' || action === 'next-conversation';
      if (event.repeat && !walks) return;
      // Esc with nothing running stays an ordinary Esc (it clears a search field, for one).
      if (action === 'stop' && runningTurnId() === null) return;
      event.preventDefault();
      run(action, () => help.current());
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}

/**
 * The turn running in the open conversation, if any (what the Stop button stops: several models'
 * answers by their group's id, all of them).
 */
function runningTurnId(): string | null {
  const { activeId, liveTurns } = appStore.getState();
  if (activeId === null) return null;
  const running = Object.values(liveTurns).find(
    (turn) => turn.conversationId === activeId && turn.end === null,
  );
  if (running === undefined) return null;
  return running.group?.id ?? running.turnId;
}
