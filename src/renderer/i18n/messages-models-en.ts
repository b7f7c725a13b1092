/** English text of providers, model lists and model capabilities (merged into EN_MESSAGES). */
export const MODELS_EN = {
  'models.provider': 'Provider',
  'models.provider.cloud': 'Cloud providers',
  'models.provider.local': 'Local servers',
  'models.provider.custom': 'Custom (any OpenAI-compatible server)',
  'models.provider.needsKey': 'Needs an API key.',
  'models.provider.getKey': 'Create a key at {host}',
  'models.provider.local.hint':
    'A server on this computer, on its default port: no key needed. Start it first.',
  'models.provider.custom.hint':
    'Enter the base URL of any OpenAI-compatible server (it usually ends in /v1).',
  'models.provider.auth': 'The key is sent as an "Authorization: Bearer" header, to {origin} only.',
  'models.fetch': 'Check connection and fetch models',
  'models.fetching': 'Fetching…',
  'models.search': 'Search models',
  'models.listed': 'Pick a model, or type its name in the field below.',
  'models.listedMatch': '{shown} of {count} models match.',
  'models.listedMore': 'Showing the first {shown} of {count}; search to narrow the list.',
  'models.listedNone': 'The server lists no models: type the model name.',
  'models.noMatch': 'No model matches "{query}".',
  'models.truncated':
    'The server listed more models than are shown here; type the name if yours is missing.',
  'models.cap.vision': 'vision',
  'models.cap.tools': 'tools',
  'models.cap.noTools': 'no native tools',
  'models.cap.reasoning': 'reasoning',
  'models.vision': 'Reads images (vision)',
  'models.visionHint':
    'Filled in from what the provider states about the model, when it does; change it if it is wrong.',
  'models.saveHint.check':
    'Check the connection first: Save and start needs a server that answers.',
  'models.saveHint.changed':
    'The URL or key changed since the last check: check the connection again to save.',
  'models.saveHint.failed': 'The server did not answer: fix the URL or key and check again.',
  'models.saveHint.model': 'Pick a model from the list or type its name to save.',
  'models.unlisted': '"{model}" is not in the server\'s list (it may still work).',
  'models.addSibling': 'Add another model from this provider',
  'models.siblingKey': 'Uses the saved key of "{label}" ({mask}); type a key to use another one.',
  'models.siblingKeyStays':
    'The key of "{label}" is only sent to {origin}: enter a key for this server.',
  'models.toolsPage.imagesOff':
    'image generation is off: choose a provider under "Image generation" below',
  'composer.visionHint':
    "This model does not take images: it will get the image's description (name, type, size, where it is) instead.",
} as const;
