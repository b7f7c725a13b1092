/** English text of the in-app confirmations and inline renaming (merged into EN_MESSAGES). */
export const DIALOG_EN = {
  'dialog.cancel': 'Cancel',
  'dialog.deleteConversationTitle': 'Delete conversation?',
  'dialog.deleteConversation':
    '“{title}” and its messages will be deleted. Files it saved stay on disk. This cannot be undone.',
  'dialog.removeTitle': 'Remove?',
  'rename.label': 'Conversation title',
  'rename.hint': 'Enter saves, Esc cancels',
} as const;
