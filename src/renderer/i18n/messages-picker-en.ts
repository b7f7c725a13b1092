/** English text of the composer's model picker (merged into EN_MESSAGES). */
export const PICKER_EN = {
  'composer.modelSearch': 'Search models',
  'composer.modelNone': 'No model matches',
  'composer.modelGroupDefault': 'Default',
  'composer.badgeVision': 'Vision',
  'composer.badgeVisionHint': 'Takes images',
  'composer.badgeTools': 'Tools',
  'composer.badgeToolsHint': 'Calls tools natively',
  'composer.badgePromptTools': 'Prompt tools',
  'composer.badgePromptToolsHint':
    'Calls tools through the prompt (for models without native tool calls)',
  'composer.badgeContextHint': 'Context window (tokens)',
} as const;
