/** `aivory conversations list|show|export`. */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { MessagePart } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import type { AppContext } from '../services/app-context';
import { exportConversation } from '../services/conversation-export';
import { EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';
import { preview } from './trace-format';

export function conversationsCommand(argv: string[], context: AppContext, io: CliIo): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'md' },
      output: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [action, id] = positionals;
  const { store } = context;
  if (action === 'list' || action === undefined) {
    const conversations = store.listConversations();
    if (values.json) io.stdout(`${JSON.stringify(conversations)}\n`);
    else if (conversations.length === 0)
      io.stdout('No conversations yet. Start one with: aivory chat "Hello"\n');
    else {
      for (const conversation of conversations) {
        const when = new Date(conversation.updatedAt).toISOString().replace('T', ' ').slice(0, 16);
        io.stdout(`${conversation.id}\t${when}\t${conversation.title}\n`);
      }
    }
    return EXIT_OK;
  }
  if (action !== 'show' && action !== 'export') {
    throw usageError(`Unknown action "${action}". Use list, show ID or export ID.`);
  }
  if (!id) throw usageError(`Usage: aivory conversations ${action} ID`);
  const conversation = store.getConversation(id);
  if (!conversation) throw new AivoryError('not-found', `No conversation with id ${id}.`);
  const messages = store.listMessages(id);
  if (action === 'export') {
    const format = values.format;
    if (format !== 'md' && format !== 'json') throw usageError('--format must be md or json.');
    const text = exportConversation(conversation, messages, format);
    if (values.output) writeFileSync(values.output, text);
    else io.stdout(text);
    return EXIT_OK;
  }
  io.stdout(`${conversation.title}  (${conversation.id})\n`);
  for (const message of messages) {
    const status = message.status === 'complete' ? '' : ` [${message.status}]`;
    io.stdout(`\n${message.role}${status}:\n`);
    for (const part of message.parts) io.stdout(`${showPart(part)}\n`);
  }
  return EXIT_OK;
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
  }
}
