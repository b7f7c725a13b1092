/** English text of an MCP server's sampling card (merged into EN_MESSAGES). */
export const SAMPLING_EN = {
  'sampling.title': 'An MCP server asks your model to write a reply',
  'sampling.intro':
    '“{service}” is a third-party MCP server, not Aivory. It wants the model to answer the messages below.',
  'sampling.model': 'Model: {model} · at most {tokens} tokens',
  'sampling.systemPrompt': 'Its system prompt (as it wrote it):',
  'sampling.messages': 'Its messages (as it wrote them):',
  'sampling.role.user': 'User (from the server)',
  'sampling.role.assistant': 'Assistant (from the server)',
  'sampling.private':
    'The reply goes to this server only, with no tools and nothing from your conversation; its tokens count in this turn.',
  'sampling.once': 'Allow once',
  'sampling.always': 'Always for this server',
  'sampling.deny': 'Deny',
  'sampling.more': '{count} more waiting',
} as const;
