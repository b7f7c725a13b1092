/**
 * English text of an answer's parts (merged into EN_MESSAGES): durations, code cells, tool
 * arguments, reasoning, the budget meter, untrusted-content marks, blocked images, and the
 * friendly names of the built-in tools and skill (the model still reads their exact names and
 * descriptions).
 */
export const CELLS_EN = {
  'duration.underTenth': '< 0.1 s',
  'duration.seconds': '{seconds} s',
  'duration.minutes': '{minutes} min {seconds} s',
  'duration.hours': '{hours} h {minutes} min',

  'cell.stdout': 'Output',
  'cell.stderr': 'Errors',
  'cell.error': 'Error',
  'cell.notes': 'Notes',
  'cell.noArguments': 'No arguments',

  'workspaceReset.button': 'Start with an empty workspace',
  'workspaceReset.title': 'Start with an empty workspace?',
  'workspaceReset.question':
    'No save of this conversation’s sandbox files can be read. The next run starts with an empty /workspace; the damaged save is moved aside and kept, not deleted.',
  'workspaceReset.confirm': 'Start empty',
  'workspaceReset.done':
    'The next run starts with an empty /workspace. The damaged save is kept at: {where}',

  'reasoning.live': 'Thinking… {seconds} s',
  'reasoning.done': 'Thought for {duration}',
  'reasoning.doneUnknown': 'Reasoning',

  'budget.meter': 'Tool calls: {used} of {limit}',

  'taint.icon': 'Read untrusted content: {sources}. {help}',
  'taint.cardNote': 'This call read untrusted content: {sources}.',

  'image.notLoadedHttp': 'Image not loaded: images over http are blocked (only https can load).',
  'image.notLoadedData': 'Image not loaded: embedded (data:) images are blocked.',
  'image.notLoadedOther': 'Image not loaded: only https images can load.',
  'image.alt': 'Image: {alt}',

  'toolLabel.python_execute': 'Run Python',
  'toolLabel.aivory_web_search': 'Web search',
  'toolLabel.web_fetch': 'Read a web page',
  'toolLabel.fetch_image': 'Download an image',
  'toolLabel.image_generate': 'Generate images',
  'toolLabel.save_memory': 'Save to memory',
  'toolLabel.use_skill': 'Use a skill',
  'skillLabel.document-generation': 'Document generation',
  'skillAbout.document-generation':
    'Recipes and checks the assistant follows before it makes a PDF, PowerPoint, Word or Excel file.',
} as const;
