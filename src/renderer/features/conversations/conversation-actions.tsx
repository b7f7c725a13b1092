/**
 * What can be done to a conversation, as menu items: pin or unpin, rename (the caller's `onRename`
 * opens its title editor in place), export, delete (asks first, in the app's own dialog). The
 * sidebar's row menu and the chat header's menu share them.
 */
import { askConfirm } from '../../components/confirm-dialog';
import type { MenuItem } from '../../components/menu';
import { DeleteIcon, ExportIcon, PinIcon, RenameIcon, UnpinIcon } from '../../components/icons';
import type { Conversation } from '../../../shared/dto';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';

/** Which actions, by id; `testIds` names each item's `data-testid` when given. */
export type ConversationActionId = 'pin' | 'rename' | 'export-md' | 'export-json' | 'delete';

/** The conversation's actions in menu order (only those asked for). */
export function useConversationActions(
  conversation: Pick<Conversation, 'id' | 'title' | 'pinnedAt'> | undefined,
  wanted: readonly ConversationActionId[],
  testIds: Partial<Record<ConversationActionId, string>>,
  onRename: () => void,
): MenuItem[] {
  const t = useT();
  const remove = useApp((state) => state.deleteConversation);
  const pin = useApp((state) => state.pinConversation);
  const exportConversation = useApp((state) => state.exportConversation);
  if (conversation === undefined) return [];
  const { id } = conversation;
  const pinned = conversation.pinnedAt !== null;
  const all: Record<ConversationActionId, Omit<MenuItem, 'id'>> = {
    pin: {
      label: t(pinned ? 'sidebar.unpin' : 'sidebar.pin'),
      icon: pinned ? <UnpinIcon /> : <PinIcon />,
      onSelect: () => void pin(id, !pinned),
    },
    rename: {
      label: t('chat.rename'),
      icon: <RenameIcon />,
      onSelect: onRename,
    },
    'export-md': {
      label: t('chat.exportMarkdown'),
      icon: <ExportIcon />,
      onSelect: () => void exportConversation(id, 'md'),
    },
    'export-json': {
      label: t('chat.exportJson'),
      icon: <ExportIcon />,
      onSelect: () => void exportConversation(id, 'json'),
    },
    delete: {
      label: t('chat.delete'),
      icon: <DeleteIcon />,
      danger: true,
      onSelect: () => {
        void askConfirm({
          title: t('dialog.deleteConversationTitle'),
          message: t('dialog.deleteConversation', { title: conversation.title }),
          confirmLabel: t('chat.delete'),
          danger: true,
        }).then((confirmed) => {
          if (confirmed) void remove(id);
        });
      },
    },
  };
  return wanted.map((action) => {
    const testId = testIds[action];
    return { id: action, ...all[action], ...(testId === undefined ? {} : { testId }) };
  });
}
