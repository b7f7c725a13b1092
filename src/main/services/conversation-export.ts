/** Conversation export as Markdown (for people) or JSON (for programs), shared by CLI and UI. */
import type { Conversation, Message, MessagePart } from '../../shared/dto';
import type { ArtifactReference } from '../../shared/turn-events';

export type ExportFormat = 'md' | 'json';

/** Tool output longer than this is shortened in Markdown exports; JSON keeps everything. */
const MAX_MARKDOWN_TOOL_OUTPUT_CHARS = 2000;

export function exportConversation(
  conversation: Conversation,
  messages: readonly Message[],
  format: ExportFormat,
): string {
  if (format === 'json') {
    return `${JSON.stringify({ format: 'aivory-conversation', version: 1, conversation, messages }, null, 2)}\n`;
  }
  const lines = [
    `# ${conversation.title}`,
    '',
    `Exported from Aivory · ${new Date(conversation.createdAt).toISOString()}`,
    '',
  ];
  for (const message of messages) {
    const status = message.status === 'complete' ? '' : ` (${message.status})`;
    lines.push(`## ${message.role === 'user' ? 'User' : 'Assistant'}${status}`, '');
    for (const part of message.parts) lines.push(...partToMarkdown(part), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function partToMarkdown(part: MessagePart): string[] {
  switch (part.kind) {
    case 'text':
      return [part.text];
    case 'reasoning':
      return ['<details><summary>Reasoning</summary>', '', part.text, '', '</details>'];
    case 'tool-call':
      return [
        `**Tool call** \`${part.name}\``,
        '',
        fence(JSON.stringify(part.arguments, null, 2), 'json'),
      ];
    case 'tool-result': {
      const output =
        part.output.length > MAX_MARKDOWN_TOOL_OUTPUT_CHARS
          ? `${part.output.slice(0, MAX_MARKDOWN_TOOL_OUTPUT_CHARS)}\n[… ${part.output.length - MAX_MARKDOWN_TOOL_OUTPUT_CHARS} more characters]`
          : part.output;
      return [
        `**Tool result** \`${part.name}\` · ${part.status} · ${part.durationMs} ms`,
        '',
        fence(output, 'text'),
      ];
    }
    case 'artifact':
      return [fileLine('File', part.artifact)];
    case 'attachment':
      return [fileLine('Attachment', part.attachment)];
  }
}

function fileLine(label: string, file: ArtifactReference): string {
  return `**${label}** [${file.name}](${encodeURI(file.path)}) (${file.mime}, ${file.size} bytes)`;
}

/** A code fence longer than any backtick run inside the text, so the text cannot end it. */
function fence(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const marker = '`'.repeat(longest + 1);
  return `${marker}${language}\n${text}\n${marker}`;
}
