/** English UI text. Keys are the contract for every language; `{name}` marks a parameter. */
import { KEYCHAIN_EN } from './messages-keychain-en';
import { LIGHTBOX_EN } from './messages-lightbox-en';
import { ARTIFACTS_EN } from './messages-artifacts-en';
import { LOOK_EN } from './messages-look-en';
import { ELICITATION_EN } from './messages-elicitation-en';
import { SAMPLING_EN } from './messages-sampling-en';
import { COMPOSER_EN } from './messages-composer-en';
import { MCP_EN } from './messages-mcp-en';
import { MODELS_EN } from './messages-models-en';
import { SETTINGS_EN } from './messages-settings-en';
import { UI_EN } from './messages-ui-en';
import { VERSIONS_EN } from './messages-versions-en';
import { COMPARE_EN } from './messages-compare-en';
import { CONV_SETTINGS_EN } from './messages-convsettings-en';
import { DIALOG_EN } from './messages-dialog-en';
import { PICKER_EN } from './messages-picker-en';
import { EMPTY_EN } from './messages-empty-en';
import { CELLS_EN } from './messages-cells-en';
import { DATA_EN } from './messages-data-en';

/** English UI text (the settings and MCP pages' text lives in their own files). */
export const EN_MESSAGES = {
  ...CELLS_EN,
  ...SETTINGS_EN,
  ...MCP_EN,
  ...KEYCHAIN_EN,
  ...MODELS_EN,
  ...UI_EN,
  ...VERSIONS_EN,
  ...COMPARE_EN,
  ...CONV_SETTINGS_EN,
  ...DIALOG_EN,
  ...PICKER_EN,
  ...EMPTY_EN,
  ...LIGHTBOX_EN,
  ...ARTIFACTS_EN,
  ...LOOK_EN,
  ...ELICITATION_EN,
  ...SAMPLING_EN,
  ...COMPOSER_EN,
  ...DATA_EN,
  'app.title': 'Aivory',
  'app.loading': 'Loading…',
  'app.offline':
    'Not connected to Aivory. Reconnecting… (if this lasts, open the URL printed by aivory serve again)',
  'app.error': 'Something went wrong: {message}',
  'app.dismiss': 'Dismiss',

  'sidebar.newChat': 'New chat',
  'sidebar.search': 'Search conversations',
  'sidebar.empty': 'No conversations yet.',
  'sidebar.noHits': 'Nothing found.',
  'sidebar.settings': 'Settings',

  'chat.empty': 'Ask anything. Tools run where you can watch them.',
  'chat.rename': 'Rename',
  'chat.delete': 'Delete',
  'chat.exportMarkdown': 'Export Markdown',
  'chat.exportJson': 'Export JSON',
  'chat.you': 'You',
  'chat.taintHelp':
    'After this, MCP calls and fetches that would send data ask first, and memories wait for your confirmation.',
  'chat.assistant': 'Aivory',
  'chat.thinking': 'Thinking…',
  'chat.emptyReply': 'The model sent back an empty answer.',
  'chat.retry': 'Retry',
  'chat.jumpToLatest': '↓ Jump to latest',
  'message.copy': 'Copy',
  'chat.usage': '{input} tokens in · {output} out',
  'message.copyText': 'Copy as text',
  'message.delete': 'Delete',
  'message.deleteConfirm': 'Delete question and answer?',
  'sidebar.running': 'Answering…',
  'chat.protocolRetry':
    'The model wrote a tool call that could not be read; it was asked to write it again ({attempt} of 2).',
  'chat.modelWait':
    'The model server answered HTTP {status}; trying again in {seconds} s (Stop gives up).',
  'chat.modelWaitNetwork':
    'The model server could not be reached; trying again in {seconds} s (Stop gives up).',
  'chat.retryHelp': 'Ask the model again for this answer (the failed one is replaced).',
  'chat.attachment': 'Attachment: {name} ({size})',
  'chat.artifact': 'File: {name} ({size})',

  'composer.placeholder': 'Message Aivory (Enter to send, Shift+Enter for a new line)',
  'composer.send': 'Send',
  'composer.stop': 'Stop',
  'composer.mode': 'Mode',
  'composer.attach': 'Attach',
  'composer.dropHint': 'Drop files to attach',
  'composer.attachmentChip': '{name} ({size})',
  'composer.removeAttachment': 'Remove {name}',
  'composer.model': 'Model',
  'composer.modelDefault': 'Default: {name}',
  'composer.tools': 'Tools',
  'composer.prompts': 'Prompts',

  'file.download': 'Download',
  'file.open': 'Open',
  'file.reveal': 'Show in folder',

  'tools.title': 'Tools in this conversation',
  'tools.newChatHint': 'For the new conversation: its first message uses these switches.',
  'tools.loading': 'Loading…',
  'tools.reset': "Reset to the model's defaults",
  'tools.unavailable': 'unavailable',
  'tools.layer.global-off': 'switched off in settings',
  'tools.layer.conversation-on': 'on for this conversation',
  'tools.layer.conversation-off': 'off for this conversation',
  'tools.layer.model-default': "model's default",
  'tools.layer.not-model-default': "not among the model's defaults",

  'prompts.title': 'Insert a prompt',
  'prompts.empty': 'No prompt templates yet (add them in Settings → Prompts).',
  'prompts.insert': 'Insert',
  'prompts.back': 'Back',
  'prompts.insertHint': 'Insert (Ctrl/⌘+Enter)',
  'prompts.slashHint': 'Tip: type / in the message box to pick a prompt.',
  'prompts.noMatch': 'No prompt matches.',

  'code.copy': 'Copy',
  'code.copied': 'Copied',
  'code.copyFailed': 'Copy failed',
  'mode.fast': 'Fast',
  'mode.normal': 'Normal',
  'mode.deep': 'Deep research',

  'trace.running': 'running',
  'trace.ok': 'ok',
  'trace.progress': 'Progress',
  'trace.tainted': '⚠ untrusted content',
  'trace.taintedHelp':
    'What this call returned came from outside (a page, a server, a program). From here on, MCP calls and fetches that would send data to new sites ask first, and memories wait for your confirmation.',
  'trace.error': 'error',
  'trace.skipped': 'skipped',
  'trace.budget': 'over budget',
  'trace.arguments': 'Arguments',
  'trace.result': 'Result',
  'trace.showFull': 'Show full output',
  'trace.structured': 'Structured content',
  'trace.structured.valid': 'Matches the tool’s output schema.',
  'trace.structured.invalid': 'Does not match the tool’s output schema: {problem}',
  'trace.structured.unchecked': 'Not checked: the tool’s output schema could not be used.',
  'trace.structured.none': 'The tool declares no output schema.',

  'budget.total': 'total',
  'budget.rounds': 'rounds',

  'stop.completed': 'Finished',
  'stop.tool_budget_exceeded': 'The tool budget ran out, so the answer uses the results so far.',
  'stop.tool_no_progress':
    'More tool calls would add nothing, so the answer uses the results so far.',
  'stop.tool_parse_failure': 'The model kept writing malformed tool calls.',
  'stop.length': "The answer reached the model's length limit.",
  'stop.canceled': 'Stopped.',
  'stop.error': 'The turn failed: {message}',
  'stop.errorUnknown': 'The turn failed (no reason was recorded).',
  'stop.interrupted': 'Interrupted: the app closed while this answer was being written.',

  'markdown.loadImage': 'Load image from {host}',
  'markdown.diagram': 'Diagram',
  'markdown.diagramFailed': 'This diagram could not be drawn; its code:',

  'setup.title': 'Set up a model',
  'setup.intro':
    'Aivory needs an OpenAI-compatible model: a local server or a provider with an API key.',
  'setup.discover': 'Find local servers',
  'setup.discovering': 'Looking on the default ports…',
  'setup.noneFound':
    'No local server answered (Ollama 11434, LM Studio 1234, llama.cpp 8080, vLLM 8000, Jan 1337).',
  'setup.found': '{name} at {url}',
  'setup.manual': 'Or enter a provider',
  'setup.baseUrl': 'Base URL',
  'setup.apiKey': 'API key (optional for local servers)',
  'setup.model': 'Model',
  'setup.toolMode': 'Tool calling',
  'setup.toolMode.native': 'Native (function calling)',
  'setup.toolMode.prompt': 'Prompt mode (<tool_call> text)',
  'setup.testing': 'Checking…',
  'setup.testOk': 'Connected. The server lists {count} models.',
  'setup.testOkUnlisted': 'Connected, but "{model}" is not in its list (it may still work).',
  'setup.testFailed': 'Could not connect: {message}',
  'setup.save': 'Save and start',

  'settings.title': 'Settings',
  'settings.close': 'Close',
  'settings.language': 'Language',
  'settings.language.system': 'Follow the system',
  'settings.version': 'Aivory {version}',
} as const;

/** Every UI text key. */
export type MessageKey = keyof typeof EN_MESSAGES;
