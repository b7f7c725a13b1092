/** English text of the theme setting and the keyboard shortcuts (merged into EN_MESSAGES). */
export const UI_EN = {
  'ui.theme': 'Theme',
  'ui.theme.system': 'Follow the system',
  'ui.theme.light': 'Light',
  'ui.theme.dark': 'Dark',

  'layout.showSidebar': 'Show the sidebar',
  'layout.hideSidebar': 'Hide the sidebar',

  'shortcuts.title': 'Keyboard shortcuts',
  'shortcuts.close': 'Close',
  'shortcuts.new-chat': 'New chat',
  'shortcuts.search': 'Search conversations',
  'shortcuts.focus-composer': 'Go to the message box',
  'shortcuts.previous-conversation': 'Previous conversation',
  'shortcuts.next-conversation': 'Next conversation',
  'shortcuts.toggle-sidebar': 'Show or hide the sidebar',
  'shortcuts.stop': 'Stop the running answer (Esc in a dialog closes the dialog)',
  'shortcuts.help': 'Show this list (outside text fields)',
  'shortcuts.browserNote':
    'In a browser tab the browser keeps some keys for itself: Ctrl+N may open a new window there, and Ctrl+Shift+R may reload the page instead of regenerating.',
} as const;
