/** English text of an MCP server's question card (merged into EN_MESSAGES). */
export const ELICITATION_EN = {
  'elicitation.title': 'An MCP server asks you for information',
  'elicitation.urlTitle': 'An MCP server asks you to open a web page',
  'elicitation.intro':
    '“{service}” is a third-party MCP server, not Aivory. Its message (as it wrote it):',
  'elicitation.noMessage': '(no message)',
  'elicitation.urlIntro': 'It wants you to open a page on this site:',
  'elicitation.badUrl': '(not a web address)',
  'elicitation.private':
    'Your answer goes to this server only, never to the model. Nothing is sent until you choose.',
  'elicitation.retryTitle': 'An MCP server needs you to open a web page first',
  'elicitation.retryIntro':
    'The tool cannot run until you have been to this site. Open it, finish there, then come back:',
  'elicitation.waiting':
    'Opened. When you have finished on {origin}, choose Done: the tool is tried again. (The server may also say by itself that it is done.)',
  'elicitation.done': 'Done',
  'elicitation.accept': 'Accept',
  'elicitation.open': 'Open in browser',
  'elicitation.decline': 'Decline',
  'elicitation.cancel': 'Cancel',
  'elicitation.more': '{count} more waiting',
  'elicitation.required': '(required)',
  'elicitation.choose': '— choose —',
  'elicitation.problem.required': 'A value is required.',
  'elicitation.problem.type': 'This is not a valid value.',
  'elicitation.problem.email': 'Enter an email address.',
  'elicitation.problem.uri': 'Enter a full address (e.g. https://…).',
  'elicitation.problem.date': 'Enter a date (YYYY-MM-DD).',
  'elicitation.problem.date-time': 'Enter a date and time (YYYY-MM-DDTHH:MM:SSZ).',
  'elicitation.problem.min-length': 'At least {limit} characters.',
  'elicitation.problem.max-length': 'At most {limit} characters.',
  'elicitation.problem.minimum': 'At least {limit}.',
  'elicitation.problem.maximum': 'At most {limit}.',
  'elicitation.problem.integer': 'A whole number.',
  'elicitation.problem.choice': 'Choose one of the options.',
  'elicitation.problem.min-items': 'Choose at least {limit}.',
  'elicitation.problem.max-items': 'Choose at most {limit}.',
} as const;
