/**
 * The sidebar: new chat, search (full text), the conversations grouped by date with the pinned
 * ones first (`date-groups.ts`), settings. A long title ends in "…" and shows whole as the item's
 * tooltip; each row has a menu (pin or unpin, rename, delete) that shows on hover or focus;
 * renaming happens in the row (the menu's Rename, or a double click on the title);
 * ⌘/Ctrl+K focuses the search field.
 */
import type { ReactNode } from 'react';
import { useEffect, useMemo, useState } from 'react';
import type { Conversation } from '../../../shared/dto';
import { MoreIcon, NewChatIcon, PinIcon, SettingsIcon } from '../../components/icons';
import { MenuButton } from '../../components/menu';
import type { Translate } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import type { SearchHit } from '../../state/app-state';
import { useApp } from '../../state/store';
import { snippetPieces } from '../../../shared/search-snippet';
import { SEARCH_FIELD_ID } from '../shortcuts/use-shortcuts';
import { useConversationActions } from './conversation-actions';
import { TitleEditor } from './title-editor';
import type { DateGroupKey } from './date-groups';
import { groupConversations } from './date-groups';

/** The sidebar with the conversations and full-text search. */
export function ConversationList(): ReactNode {
  const t = useT();
  const locale = useApp((state) => state.locale);
  const conversations = useApp((state) => state.conversations);
  const hits = useApp((state) => state.hits);
  const query = useApp((state) => state.searchQuery);
  const newChat = useApp((state) => state.newChat);
  const search = useApp((state) => state.search);
  const openSettings = useApp((state) => state.setSettingsOpen);
  // Conversations with a turn still running are marked (a string, so renders stay cheap).
  const runningKey = useApp((state) =>
    Object.values(state.liveTurns)
      .filter((turn) => turn.end === null && turn.conversationId !== null)
      .map((turn) => turn.conversationId)
      .join(' '),
  );
  const running = new Set(runningKey.split(' '));
  const day = useLocalDay();
  const groups = useMemo(
    () => groupConversations(conversations, Date.now()),
    // `day` regroups at local midnight (Today becomes Yesterday) even when the list is unchanged.
    [conversations, day],
  );
  return (
    <nav className="sidebar" aria-label={t('app.title')}>
      <div className="sidebar-top">
        <div className="brand">{t('app.title')}</div>
        <button
          type="button"
          className="button primary wide with-icon"
          data-testid="new-chat"
          onClick={newChat}
        >
          <NewChatIcon />
          {t('sidebar.newChat')}
        </button>
        <input
          id={SEARCH_FIELD_ID}
          className="search"
          type="search"
          aria-label={t('sidebar.search')}
          data-testid="conversation-search"
          placeholder={t('sidebar.search')}
          value={query}
          onChange={(event) => void search(event.target.value)}
        />
      </div>
      <div className="conversation-list">
        {hits === null && conversations.length === 0 && (
          <p className="muted sidebar-note">{t('sidebar.empty')}</p>
        )}
        {hits !== null && hits.length === 0 && (
          <p className="muted sidebar-note">{t('sidebar.noHits')}</p>
        )}
        {hits === null ? (
          groups.map((group) => {
            const headingId = `conversation-group-${group.id}`;
            return (
              <section
                key={group.id}
                className="conversation-group"
                aria-labelledby={headingId}
                data-testid="conversation-group"
                data-group={group.id}
              >
                <h2 className="conversation-group-title" id={headingId}>
                  {groupTitle(group.key, t, locale)}
                </h2>
                <ul>
                  {group.items.map((conversation) => (
                    <ConversationRow
                      key={conversation.id}
                      conversation={conversation}
                      running={running.has(conversation.id)}
                    />
                  ))}
                </ul>
              </section>
            );
          })
        ) : (
          <ul>
            {hits.map((hit) => (
              <SearchHitRow key={hit.messageId} hit={hit} />
            ))}
          </ul>
        )}
      </div>
      <button
        type="button"
        className="button ghost wide with-icon"
        data-testid="settings-open"
        onClick={() => openSettings(true)}
      >
        <SettingsIcon />
        {t('sidebar.settings')}
      </button>
    </nav>
  );
}

/**
 * A search hit on two lines: its conversation's title, then the matched text (Markdown's markers
 * taken out, the matches highlighted), cut after two lines. A click opens the conversation at
 * that message.
 */
function SearchHitRow(props: { hit: SearchHit }): ReactNode {
  const { hit } = props;
  const open = useApp((state) => state.openConversation);
  const current = useApp((state) => state.activeId === hit.conversationId);
  const pieces = snippetPieces(hit.snippet);
  return (
    <li className="search-hit-row">
      <button
        type="button"
        className={`search-hit${current ? ' active' : ''}`}
        data-testid="search-hit"
        title={hit.title}
        onClick={() => void open(hit.conversationId, hit.messageId)}
      >
        <span className="hit-title">{hit.title}</span>
        <span className="hit-snippet" data-testid="search-hit-snippet">
          {pieces.map((piece, index) =>
            piece.match ? <mark key={index}>{piece.text}</mark> : piece.text,
          )}
        </span>
      </button>
    </li>
  );
}

/** One conversation: the button that opens it, and its menu. */
function ConversationRow(props: { conversation: Conversation; running: boolean }): ReactNode {
  const t = useT();
  const { conversation, running } = props;
  const active = useApp((state) => state.activeId === conversation.id);
  const open = useApp((state) => state.openConversation);
  const rename = useApp((state) => state.renameConversation);
  const [renaming, setRenaming] = useState(false);
  const items = useConversationActions(
    conversation,
    ['pin', 'rename', 'delete'],
    {
      pin: 'conversation-row-pin',
      rename: 'conversation-row-rename',
      delete: 'conversation-row-delete',
    },
    () => setRenaming(true),
  );
  const pinned = conversation.pinnedAt !== null;
  if (renaming) {
    return (
      <li className="conversation-row renaming" data-testid="conversation-row">
        <TitleEditor
          initial={conversation.title}
          className="conversation-title-input"
          testId="conversation-title-input"
          onDone={(title) => {
            setRenaming(false);
            if (title !== null) void rename(conversation.id, title);
          }}
        />
      </li>
    );
  }
  return (
    <li
      className={`conversation-row${active ? ' active' : ''}`}
      data-testid="conversation-row"
      data-pinned={pinned ? 'true' : undefined}
    >
      <button
        type="button"
        className={`conversation-item${active ? ' active' : ''}`}
        data-testid="conversation-item"
        aria-current={active ? 'page' : undefined}
        title={conversation.title}
        data-running={running ? 'true' : undefined}
        onClick={() => void open(conversation.id)}
        onDoubleClick={() => setRenaming(true)}
      >
        {pinned && (
          <span className="conversation-pin" title={t('sidebar.pinnedMark')}>
            <PinIcon size={12} />
          </span>
        )}
        <span className="conversation-title">{conversation.title}</span>
        {running && (
          <span
            className="conversation-running"
            data-testid="conversation-running"
            role="status"
            aria-label={t('sidebar.running')}
            title={t('sidebar.running')}
          />
        )}
      </button>
      <MenuButton
        label={t('sidebar.conversationMenu', { title: conversation.title })}
        icon={<MoreIcon />}
        testId="conversation-row-menu"
        className="conversation-row-menu"
        items={items}
      />
    </li>
  );
}

/** The local day (its midnight, ms), changing at the next local midnight while mounted. */
function useLocalDay(): number {
  const [day, setDay] = useState(() => localMidnight(Date.now()));
  useEffect(() => {
    const next = new Date(day);
    next.setDate(next.getDate() + 1);
    const timer = window.setTimeout(
      () => setDay(localMidnight(Date.now())),
      Math.max(1000, next.getTime() - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [day]);
  return day;
}

function localMidnight(time: number): number {
  const date = new Date(time);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** A group's heading: a fixed name, or the month ("March 2025", "2025年3月"). */
function groupTitle(key: DateGroupKey, t: Translate, locale: string): string {
  if (key.kind !== 'month') return t(`sidebar.group.${key.kind}`);
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long' }).format(
    new Date(key.year, key.month, 1),
  );
}
