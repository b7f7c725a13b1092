/** English text of the sidebar groups, pins, menus and toolbars (merged into EN_MESSAGES). */
export const LOOK_EN = {
  'sidebar.group.pinned': 'Pinned',
  'sidebar.group.today': 'Today',
  'sidebar.group.yesterday': 'Yesterday',
  'sidebar.group.previous7': 'Previous 7 days',
  'sidebar.group.previous30': 'Previous 30 days',
  'sidebar.conversationMenu': 'Actions for “{title}”',
  'sidebar.pin': 'Pin to the top',
  'sidebar.unpin': 'Unpin',
  'sidebar.pinnedMark': 'Pinned',
  'chat.moreActions': 'More conversation actions',
  'message.toolbar': 'Message actions',
} as const;
