/** English text of the empty chat: the greeting and the starter prompts (merged into EN_MESSAGES). */
export const EMPTY_EN = {
  'empty.title': 'New chat',
  'empty.modelPrefix': 'Model: ',
  'empty.headerActionsHint': 'Available once the chat has its first message',
  'empty.greeting': 'What can I help with?',
  'empty.starters': 'Starter prompts',
  'empty.editStarters': 'Edit these in Settings → Prompts',
  'empty.ownStarters': 'Your own prompts (Settings → Prompts) show here instead',
  'starter.plot.title': 'Plot with Python',
  'starter.plot.text':
    'Plot the monthly average temperatures of Oslo and Singapore with Python and save the chart as a PNG.',
  'starter.search.title': 'Search the web',
  'starter.search.text':
    'Search the web for this week’s most important AI news and summarise it with sources.',
  'starter.summarise.title': 'Summarise a page',
  'starter.summarise.text': 'Summarise this page in five bullet points: ',
  'starter.explain.title': 'Explain simply',
  'starter.explain.text': 'Explain how public-key cryptography works, as if to a curious teenager.',
} as const;
