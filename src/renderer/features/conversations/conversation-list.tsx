/** The sidebar: new chat, search (full text), the conversations newest first, settings. */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';

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
          className="search"
          type="search"
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
                  onClick={() => void open(conversation.id)}
                >
                  {conversation.title}
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
                  <span className="hit-title">{hit.title}</span>
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
