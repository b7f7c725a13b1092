/** English text of the settings' Data page (merged into EN_MESSAGES). */
export const DATA_EN = {
  'set.nav.data': 'Data',
  'data.export.title': 'Export all conversations',
  'data.export.intro':
    'Every conversation with its attachments and produced files, as one ZIP archive: a folder per conversation and an index.',
  'data.export.format': 'Format',
  'data.export.markdown': 'Markdown (to read)',
  'data.export.json': 'JSON (for programs)',
  'data.export.start': 'Export all conversations',
  'data.export.cancel': 'Cancel',
  'data.export.preparing': 'Preparing…',
  'data.export.progress': '{done} of {total} conversations',
  'data.export.done': 'Exported: {conversations} conversations, {files} files, {size}.',
  'data.export.download': 'Download again',
  'data.export.missing':
    'Files the conversations refer to but that were not found (deleted since), left out: {count}.',
} as const;
