/** English text of message versions: regenerate, edit and resend, ‹ 2/3 › (merged into EN_MESSAGES). */
export const VERSIONS_EN = {
  'message.regenerate': 'Regenerate',
  'message.regenerateHelp': 'Write a new version of this answer (the other versions are kept)',
  'message.regenerateIn': 'Regenerate in a mode or with another model…',
  'message.regenerateWith': 'Regenerate with {model}',
  'message.regenerateMode': 'Regenerate: {mode}',
  'message.edit': 'Edit',
  'message.editHelp': 'Edit this question and send it again (the conversation forks here)',
  'message.editLabel': 'Edit your question',
  'message.editSend': 'Send',
  'message.editCancel': 'Cancel',
  'message.editNote': 'The answers after this question stay in their own version.',
  'message.versionPrevious': 'Previous version',
  'message.versionNext': 'Next version',
  'message.versionOf': 'Version {index} of {count}',
  'markdown.tableMore': 'Show the other {count} rows',
  'shortcuts.regenerate': 'Regenerate the last answer',
} as const;
