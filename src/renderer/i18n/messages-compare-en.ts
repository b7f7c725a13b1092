/** English text of several models answering one question (merged into EN_MESSAGES). */
export const COMPARE_EN = {
  'compare.toggle': 'Compare',
  'compare.toggleCount': 'Compare: +{count}',
  'compare.title': 'Also ask these models',
  'compare.hint':
    'The next question also goes to up to {max} more saved models; their answers appear side by side.',
  'compare.clear': 'Ask one model',
  'compare.group': 'Answers of {count} models',
  'compare.answerOf': 'Answer of {model}',
  'compare.writing': 'writing…',
  'compare.stopOne': 'Stop the answer of {model}',
  'compare.keep': 'Keep this answer',
  'compare.keepNote':
    'Keep one to continue from it; the others stay as versions of it, each named by its model.',
  'compare.askedBy': 'Asked by the answer of {model}',
} as const;
