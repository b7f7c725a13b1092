/**
 * The ready screen's layout: the conversations sidebar and the chat, with the button that shows
 * or hides the sidebar (⌘/Ctrl+B does the same, `features/shortcuts`). In a wide window the
 * sidebar is a column that collapses to nothing; at NARROW_WIDTH and below it is a drawer over
 * the chat with a backdrop, closed by Esc, a click beside it or picking a conversation. A hidden
 * sidebar is `inert`: out of the tab order and the accessibility tree.
 */
import type { ReactNode, Ref } from 'react';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { SidebarCloseIcon, SidebarOpenIcon } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { ArtifactPanel } from '../artifacts/artifact-panel';
import { closeArtifact, useArtifactView } from '../artifacts/artifact-state';
import { ChatView } from '../chat/chat-view';
import { ConversationList } from '../conversations/conversation-list';
import { shortcutKeys } from '../shortcuts/shortcut-keys';
import { platformIsMac } from '../shortcuts/use-shortcuts';
import { closeSidebarDrawer, toggleSidebar, useSidebar } from './sidebar-state';

/** The id of the sidebar's slot (the toggle's aria-controls). */
export const SIDEBAR_ID = 'app-sidebar';

/** Sidebar + chat. */
export function AppLayout(): ReactNode {
  const { narrow, open } = useSidebar();
  const toggle = useRef<HTMLButtonElement>(null);
  const slot = useRef<HTMLDivElement>(null);
  const activeId = useApp((state) => state.activeId);
  const drawer = narrow && open;
  const artifact = useArtifactView();
  const layout = useRef<HTMLDivElement>(null);
  // Picking a conversation (or a new chat) in the drawer closes it, and the viewer (its files
  // belong to the conversation).
  useEffect(() => {
    closeSidebarDrawer();
    closeArtifact();
  }, [activeId]);
  // The viewer's width is a custom property set through the CSSOM (the CSP refuses style
  // attributes); the grid column reads it.
  useLayoutEffect(() => {
    layout.current?.style.setProperty('--artifact-width', `${artifact.width}px`);
  }, [artifact.width]);
  useEffect(() => {
    if (!drawer) return undefined;
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('[role="dialog"], [role="menu"]') !== null) return;
      event.preventDefault();
      closeSidebarDrawer();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [drawer]);
  // Focus inside a sidebar that hides goes back to the toggle (an inert element drops it).
  useEffect(() => {
    if (!open && slot.current?.contains(document.activeElement)) toggle.current?.focus();
  }, [open]);
  return (
    <div
      ref={layout}
      className="layout"
      data-sidebar={open ? 'open' : 'closed'}
      data-artifact={artifact.file === null ? 'closed' : 'open'}
      data-narrow={narrow ? 'true' : 'false'}
      data-testid="layout"
    >
      <SidebarToggle ref={toggle} open={open} />
      <div
        id={SIDEBAR_ID}
        ref={slot}
        className="sidebar-slot"
        inert={!open}
        onClick={(event) => {
          // A conversation, a search hit or "New chat" picked in the drawer closes it (also when
          // it is the conversation already open).
          const target = event.target instanceof Element ? event.target : null;
          if (drawer && target?.closest('.conversation-item, [data-testid="new-chat"]'))
            closeSidebarDrawer();
        }}
      >
        <ConversationList />
      </div>
      {drawer && (
        <div
          className="sidebar-backdrop"
          data-testid="sidebar-backdrop"
          onClick={closeSidebarDrawer}
        />
      )}
      <ChatView />
      <ArtifactPanel />
    </div>
  );
}

function SidebarToggle(props: { ref: Ref<HTMLButtonElement>; open: boolean }): ReactNode {
  const t = useT();
  const keys = shortcutKeys('toggle-sidebar', platformIsMac()).join('+');
  const label = props.open ? t('layout.hideSidebar') : t('layout.showSidebar');
  return (
    <button
      ref={props.ref}
      type="button"
      className="icon-button sidebar-toggle"
      aria-label={label}
      title={`${label} (${keys})`}
      aria-expanded={props.open}
      aria-controls={SIDEBAR_ID}
      data-testid="sidebar-toggle"
      onClick={toggleSidebar}
    >
      {props.open ? <SidebarCloseIcon size={18} /> : <SidebarOpenIcon size={18} />}
    </button>
  );
}
