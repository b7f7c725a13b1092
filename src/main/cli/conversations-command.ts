/** `aivory conversations list|show|export (ID or --all)|tools|set|version|pin|unpin|rename`. */
import { parseArgs } from 'node:util';
import type { Message, MessagePart } from '../../shared/dto';
import { MAX_TITLE_CHARS } from '../../shared/ipc/limits';
import type { AppContext } from '../composition/app-context';
import { exportPieces } from '../services/conversation-export';
import type { ExportFormat } from '../services/conversation-export';
import { requireConversation } from '../services/conversation-lookup';
import { writeExportFile } from '../services/export-file';
import type { ConversationToolRow } from '../services/conversation-tools';
import { conversationToolRows } from '../services/conversation-tools';
import { EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';
import { exportAllCommand } from './export-all-command';
import { preview, taintNotice } from './trace-format';
import {
  applyConversationSettingsFlags,
  CONVERSATION_SETTINGS_OPTIONS,
  describeConversationSettings,
  describeConversationSummary,
} from './settings-flags';
import { hasInvisibleCharacters } from '../../shared/untrusted-text';

export async function conversationsCommand(
  argv: string[],
  context: AppContext,
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'md' },
      output: { type: 'string' },
      all: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      on: { type: 'string', multiple: true },
      off: { type: 'string', multiple: true },
      reset: { type: 'boolean', default: false },
      'all-versions': { type: 'boolean', default: false },
      ...CONVERSATION_SETTINGS_OPTIONS,
    },
  });
  const [action, id] = positionals;
  const { stores } = context;
  if (action === 'list' || action === undefined) {
    const conversations = stores.conversations.listConversations();
    if (values.json) io.stdout(`${JSON.stringify(conversations)}\n`);
    else if (conversations.length === 0)
      io.stdout('No conversations yet. Start one with: aivory chat "Hello"\n');
    else {
      for (const conversation of conversations) {
        const when = new Date(conversation.updatedAt).toISOString().replace('T', ' ').slice(0, 16);
        const pinned = conversation.pinnedAt === null ? '' : 'pinned';
        io.stdout(`${conversation.id}\t${when}\t${pinned}\t${conversation.title}\n`);
      }
    }
    return EXIT_OK;
  }
  if (!['show', 'export', 'tools', 'set', 'version', 'pin', 'unpin', 'rename'].includes(action)) {
    throw usageError(
      `Unknown action "${action}". Use list, show ID, export ID, tools ID, set ID, version ID MESSAGE_ID, pin ID, unpin ID or rename ID TITLE.`,
    );
  }
  if (action === 'export' && values.all) {
    if (id !== undefined) throw usageError('Give either a conversation ID or --all, not both.');
    return exportAllCommand(context, io, exportFormat(values.format), values.output);
  }
  if (!id) throw usageError(`Usage: aivory conversations ${action} ID`);
  const conversation = requireConversation(stores.conversations, id);
  if (action === 'version') {
    const messageId = positionals[2];
    if (!messageId) throw usageError('Usage: aivory conversations version ID MESSAGE_ID');
    stores.conversations.showVersion(id, messageId);
    io.stdout(`The conversation now shows the path through ${messageId}.\n`);
    return EXIT_OK;
  }
  if (action === 'rename') {
    const title = checkedTitle(positionals.slice(2).join(' '));
    // The user's title: a title the model writes after the first answer never replaces it.
    stores.conversations.renameConversation(id, title);
    io.stdout(`Renamed ${id}: ${title}\n`);
    return EXIT_OK;
  }
  if (action === 'pin' || action === 'unpin') {
    // Not activity: the conversation keeps its place by activity; pinned ones head the app's list.
    stores.conversations.setConversationPinned(id, action === 'pin');
    io.stdout(`${action === 'pin' ? 'Pinned' : 'Unpinned'} ${id} (${conversation.title}).\n`);
    return EXIT_OK;
  }
  if (action === 'tools') {
    const toggles = updatedToggles(conversation.toolToggles, values);
    if (toggles !== conversation.toolToggles)
      stores.conversations.setConversationToolToggles(id, toggles);
    // The app's listing (MCP tools included), for the model the conversation's next turn uses.
    const rows = await conversationToolRows(
      {
        tools: context.tools,
        models: context.models,
        switches: () => stores.settings.getToolAvailability(),
      },
      conversation.modelId,
      toggles,
    );
    io.stdout(describeConversationTools(rows, toggles, values.json));
    return EXIT_OK;
  }
  if (action === 'set') {
    const modelDefaults = context.models.find(conversation.modelId)?.defaults;
    const settings = applyConversationSettingsFlags(conversation.settings, values, stores.library);
    stores.conversations.setConversationSettings(id, settings);
    io.stdout(describeConversationSettings(settings, modelDefaults, stores.library));
    return EXIT_OK;
  }
  const messages = stores.conversations.listMessages(id);
  if (action === 'export') {
    const pieces = exportPieces(conversation, messages, exportFormat(values.format));
    // A file appears whole or not at all (a full disk leaves no half export behind).
    if (values.output) await writeExportFile(values.output, pieces);
    else for await (const piece of pieces) io.stdout(piece);
    return EXIT_OK;
  }
  io.stdout(`${conversation.title}  (${conversation.id})\n`);
  const records = stores.conversations.listTurnRecords(id);
  io.stdout(describeConversationSummary(conversation.settings, stores.library, records));
  const taints = new Map(
    records.flatMap((record) => (record.taint ? [[record.messageId, record.taint] as const] : [])),
  );
  const versions = stores.conversations.listVersions(id);
  const modelOf = new Map(
    records.flatMap((record) =>
      record.modelName === null ? [] : [[record.messageId, record.modelName] as const],
    ),
  );
  const allVersions = values['all-versions'];
  const shown = new Set(messages.map((message) => message.id));
  const listed = allVersions
    ? treeOrder(stores.conversations.listAllMessages(id))
    : messages.map((message) => ({ message, depth: 0 }));
  for (const { message, depth } of listed) {
    const status = message.status === 'complete' ? '' : ` [${message.status}]`;
    const siblings = versions[message.id];
    // Versions written by different models (several models, or regenerated with another) are
    // named by their model.
    const models = new Set(siblings?.map((sibling) => modelOf.get(sibling) ?? null));
    const byModel = models.size > 1 ? `, ${modelOf.get(message.id) ?? 'model unknown'}` : '';
    const version = siblings
      ? ` [version ${siblings.indexOf(message.id) + 1}/${siblings.length}${byModel}]`
      : '';
    const extra = allVersions ? ` ${message.id}${shown.has(message.id) ? '' : ' (not shown)'}` : '';
    const indent = '  '.repeat(depth);
    io.stdout(`\n${indent}${message.role}${status}${version}${extra}:\n`);
    const taint = taints.get(message.id);
    // Files attached to the user's message tainted the turn from its start.
    if (taint?.toolCallId === null) io.stdout(`  ! ${taintNotice(taint.reasons)}\n`);
    for (const part of message.parts) {
      io.stdout(`${showPart(part)}\n`);
      // Under the result that tainted the turn: what it read, and what asked from there on.
      if (part.kind === 'tool-result' && part.toolCallId === taint?.toolCallId)
        io.stdout(`  ! ${taintNotice(taint.reasons)}\n`);
    }
  }
  if (!allVersions && Object.keys(versions).length > 0) {
    io.stdout(
      `\nSome messages have other versions: aivory conversations show ${id} --all-versions\n`,
    );
  }
  return EXIT_OK;
}

function exportFormat(format: string): ExportFormat {
  if (format !== 'md' && format !== 'json') throw usageError('--format must be md or json.');
  return format;
}

/** A title the user typed: one line, not empty, at most MAX_TITLE_CHARS, nothing hidden. */
export function checkedTitle(text: string): string {
  const title = text.trim();
  if (title === '') throw usageError('Usage: aivory conversations rename ID TITLE (not empty).');
  if (hasInvisibleCharacters(title))
    throw usageError(
      'The title may not contain control characters (line breaks, tabs, escapes) or invisible direction marks.',
    );
  if (title.length > MAX_TITLE_CHARS)
    throw usageError(`The title is too long: at most ${MAX_TITLE_CHARS} characters.`);
  return title;
}

/**
 * Depth-first, each message before the messages under it, versions oldest first; the depth counts
 * the branch points (messages with other versions) on the way, for indenting.
 */
function treeOrder(all: readonly Message[]): { message: Message; depth: number }[] {
  const children = new Map<string | null, Message[]>();
  for (const message of all) {
    const siblings = children.get(message.parentId) ?? [];
    siblings.push(message);
    children.set(message.parentId, siblings);
  }
  const ordered: { message: Message; depth: number }[] = [];
  const push = (parentId: string | null, depth: number) =>
    [...(children.get(parentId) ?? [])].reverse().map((message) => ({
      message,
      depth: depth + ((children.get(parentId)?.length ?? 0) > 1 ? 1 : 0),
    }));
  const stack = push(null, 0);
  while (stack.length > 0) {
    const next = stack.pop();
    if (!next) break;
    ordered.push(next);
    stack.push(...push(next.message.id, next.depth));
  }
  return ordered;
}

function showPart(part: MessagePart): string {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'reasoning':
      return `  (reasoning) ${preview(part.text)}`;
    case 'tool-call':
      return `  → ${part.name} ${preview(JSON.stringify(part.arguments))}`;
    case 'tool-result':
      return `  ${part.status === 'ok' ? '✓' : '✗'} ${part.name} ${part.status} (${part.durationMs} ms): ${preview(part.output)}`;
    case 'artifact':
      return `  📎 ${part.artifact.name} → ${part.artifact.path}`;
    case 'attachment':
      return `  📎 attached ${part.attachment.name} (${part.attachment.mime}, ${part.attachment.size} bytes)`;
  }
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The toggles after --reset, --on and --off (the same object when nothing changes). */
function updatedToggles(
  current: Record<string, boolean>,
  flags: { on?: string[]; off?: string[]; reset?: boolean },
): Record<string, boolean> {
  const on = flags.on ?? [];
  const off = flags.off ?? [];
  if (!flags.reset && on.length === 0 && off.length === 0) return current;
  const bad = [...on, ...off].find((name) => !TOOL_NAME.test(name));
  if (bad !== undefined) throw usageError(`"${bad}" is not a tool name.`);
  const both = on.find((name) => off.includes(name));
  if (both !== undefined) throw usageError(`${both} is both --on and --off.`);
  const next: Record<string, boolean> = flags.reset ? {} : { ...current };
  for (const name of on) next[name] = true;
  for (const name of off) next[name] = false;
  return next;
}

/**
 * Each tool the app lists for the conversation (built-in and MCP, and each toggled name) with
 * whether its turns offer it, which layer decided, and why it cannot run now; `--json` gives the
 * app's rows (`conversations.tools`) as they are.
 */
function describeConversationTools(
  rows: readonly ConversationToolRow[],
  toggles: Record<string, boolean>,
  json: boolean,
): string {
  if (json) return `${JSON.stringify({ toggles, tools: rows })}\n`;
  const reasons: Record<string, string> = {
    'global-off': 'switched off globally',
    'conversation-on': 'switched on for this conversation',
    'conversation-off': 'switched off for this conversation',
    'model-default': "in the model's defaults",
    'not-model-default': "not in the model's defaults",
  };
  return rows
    .map((row) => {
      const unavailable =
        row.available || row.layer === 'global-off' ? '' : ` (cannot run now: ${row.reason})`;
      return `${row.on ? '✓' : '✗'} ${row.name.padEnd(22)} ${reasons[row.layer] ?? ''}${unavailable}\n`;
    })
    .join('');
}
