/**
 * The sidebar: new chat, search (full text), the conversations newest first, settings. A long
 * title ends in "…" and shows whole as the item's tooltip; ⌘/Ctrl+K focuses the search field.
 */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { SEARCH_FIELD_ID } from '../shortcuts/use-shortcuts';

/** The sidebar with the conversations and full-text search. */
export function ConversationList(): ReactNode {
  const t = useT();
  const conversations = useApp((state) => state.conversations);
  const hits = useApp((state) => state.hits);
  const query = useApp((state) => state.searchQuery);
  const activeId = useApp((state) => state.activeId);
  const open = useApp((state) => state.openConversation);
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
  return (
    <nav className="sidebar">
      <div className="sidebar-top">
        <div className="brand">{t('app.title')}</div>
        <button
          type="button"
          className="button primary wide"
          data-testid="new-chat"
          onClick={newChat}
        >
          ＋ {t('sidebar.newChat')}
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
      <ul className="conversation-list">
        {hits === null && conversations.length === 0 && (
          <li className="muted">{t('sidebar.empty')}</li>
        )}
        {hits !== null && hits.length === 0 && <li className="muted">{t('sidebar.noHits')}</li>}
        {hits === null
          ? conversations.map((conversation) => (
              <li key={conversation.id}>
                <button
                  type="button"
                  className={`conversation-item${conversation.id === activeId ? ' active' : ''}`}
                  data-testid="conversation-item"
                  aria-current={conversation.id === activeId ? 'page' : undefined}
                  title={conversation.title}
                  data-running={running.has(conversation.id) ? 'true' : undefined}
                  onClick={() => void open(conversation.id)}
                >
                  <span className="conversation-title">{conversation.title}</span>
                  {running.has(conversation.id) && (
                    <span
                      className="conversation-running"
                      data-testid="conversation-running"
                      role="status"
                      aria-label={t('sidebar.running')}
                      title={t('sidebar.running')}
                    />
                  )}
                </button>
              </li>
            ))
          : hits.map((hit) => (
              <li key={hit.messageId}>
                <button
                  type="button"
                  className="conversation-item"
                  data-testid="search-hit"
                  onClick={() => void open(hit.conversationId)}
                >
                  <span className="hit-title" title={hit.title}>
                    {hit.title}
                  </span>
                  <span className="hit-snippet">{hit.snippet}</span>
                </button>
              </li>
            ))}
      </ul>
      <button
        type="button"
        className="button ghost wide"
        data-testid="settings-open"
        onClick={() => openSettings(true)}
      >
        ⚙ {t('sidebar.settings')}
      </button>
    </nav>
  );
}
