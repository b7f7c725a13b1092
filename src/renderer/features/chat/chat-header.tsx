/**
 * The chat's header: an open conversation's title (renamed in place), then its actions — the
 * most used as icon buttons, the rest in the "more" menu; a new chat's "New chat" and the model
 * its first message goes to, the same actions in place but disabled.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { ChatSettingsIcon, MoreIcon, PinIcon, UnpinIcon } from '../../components/icons';
import { MenuButton } from '../../components/menu';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { useChosenModelLabel } from '../composer/model-picker';
import { useConversationActions } from '../conversations/conversation-actions';
import { ConversationSettingsButton } from '../conversations/conversation-settings-dialog';
import { TitleEditor } from '../conversations/title-editor';

/** An always-visible icon button of the chat header. */
interface HeaderButton {
  id: string;
  label: string;
  icon: ReactNode;
  testId: string;
  /** Shown as pressed (`aria-pressed`), for a toggle. */
  pressed?: boolean;
  onClick(): void;
}

/**
 * The title, then the header's items: the most used ones as icon buttons (`buttons`, a list to
 * add to), the rest in the "more" menu (`menu`).
 */
export function ChatHeader(): ReactNode {
  const t = useT();
  const activeId = useApp((state) => state.activeId);
  const conversation = useApp((state) =>
    state.conversations.find((item) => item.id === state.activeId),
  );
  const pin = useApp((state) => state.pinConversation);
  const rename = useApp((state) => state.renameConversation);
  const [renaming, setRenaming] = useState<string | null>(null);
  const menu = useConversationActions(
    conversation,
    ['rename', 'export-md', 'export-json', 'delete'],
    {
      rename: 'conversation-rename',
      'export-md': 'conversation-export-md',
      'export-json': 'conversation-export-json',
      delete: 'conversation-delete',
    },
    () => setRenaming(activeId),
  );
  if (activeId === null) return <NewChatHeader />;
  const pinned = (conversation?.pinnedAt ?? null) !== null;
  const buttons: HeaderButton[] = [
    {
      id: 'pin',
      label: t(pinned ? 'sidebar.unpin' : 'sidebar.pin'),
      icon: pinned ? <UnpinIcon /> : <PinIcon />,
      testId: 'conversation-pin',
      pressed: pinned,
      onClick: () => void pin(activeId, !pinned),
    },
  ];
  return (
    <header className="chat-header">
      {renaming !== null && renaming === activeId && conversation ? (
        <TitleEditor
          initial={conversation.title}
          className="chat-title-input"
          testId="chat-title-input"
          onDone={(title) => {
            setRenaming(null);
            if (title !== null) void rename(activeId, title);
          }}
        />
      ) : (
        <h1 className="chat-title" data-testid="chat-title">
          {conversation?.title ?? ''}
        </h1>
      )}
      <div className="chat-header-actions">
        <ConversationSettingsButton conversationId={activeId} />
        {buttons.map((button) => (
          <button
            key={button.id}
            type="button"
            className="icon-button"
            data-testid={button.testId}
            aria-label={button.label}
            title={button.label}
            {...(button.pressed === undefined ? {} : { 'aria-pressed': button.pressed })}
            onClick={button.onClick}
          >
            {button.icon}
          </button>
        ))}
        <MenuButton
          label={t('chat.moreActions')}
          icon={<MoreIcon />}
          testId="conversation-menu"
          items={menu}
        />
      </div>
    </header>
  );
}

/**
 * A new chat's header: what it is ("New chat") and the model its first message goes to, as the
 * model picker names it. The conversation's actions keep their places, disabled: there is no
 * conversation to act on until the first message creates it.
 */
function NewChatHeader(): ReactNode {
  const t = useT();
  const model = useChosenModelLabel();
  const hint = t('empty.headerActionsHint');
  const actions = [
    { id: 'settings', label: t('convSettings.open'), icon: <ChatSettingsIcon /> },
    { id: 'pin', label: t('sidebar.pin'), icon: <PinIcon /> },
    { id: 'more', label: t('chat.moreActions'), icon: <MoreIcon /> },
  ];
  return (
    <header className="chat-header" data-testid="new-chat-header">
      <div className="chat-heading">
        <h1 className="chat-title" data-testid="chat-title">
          {t('empty.title')}
        </h1>
        {model !== null && (
          <span className="chat-model" data-testid="chat-header-model">
            <span className="visually-hidden">{t('empty.modelPrefix')}</span>
            {model}
          </span>
        )}
      </div>
      <div className="chat-header-actions">
        {actions.map((action) => (
          <button
            key={action.id}
            type="button"
            className="icon-button"
            data-testid={`new-chat-${action.id}`}
            aria-label={action.label}
            title={`${action.label} (${hint})`}
            disabled
          >
            {action.icon}
          </button>
        ))}
      </div>
    </header>
  );
}
