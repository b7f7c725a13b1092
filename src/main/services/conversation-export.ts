/** Conversation export as Markdown (for people) or JSON (for programs), shared by CLI and UI. */
import type { Conversation, Message, MessagePart } from '../../shared/dto';
import { structuredCheckText } from '../../shared/structured-check';
import type { ArtifactReference, StructuredToolOutput } from '../../shared/turn-events';

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
  const lines = markdownHead(conversation);
  lines.push(...messagesToMarkdown(messages));
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Messages formatted between two turns of the event loop by `exportPieces`. */
const SLICE_MESSAGES = 500;

/**
 * `exportConversation`'s text in pieces, a slice of messages at a time with the event loop running
 * between slices (formatting 20,000 messages at once held serve's thread ~0.2 s), so that a big
 * export is written to a file as it is made instead of being held as one string. Joined, the
 * pieces are exactly `exportConversation`'s text.
 */
export async function* exportPieces(
  conversation: Conversation,
  messages: readonly Message[],
  format: ExportFormat,
): AsyncGenerator<string> {
  const slices = (async function* () {
    for (let start = 0; start < messages.length; start += SLICE_MESSAGES) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      yield formatSlice(messages.slice(start, start + SLICE_MESSAGES), format);
    }
  })();
  yield* piecesOf(conversation, slices, format);
}

/**
 * The messages of one slice of an export in `format` (`exportPieces` joins the slices, in order,
 * however the messages were cut), or '' for none.
 */
export function formatSlice(messages: readonly Message[], format: ExportFormat): string {
  return format === 'json' ? jsonItems(messages) : messagesToMarkdown(messages).join('\n');
}

/**
 * `exportPieces` over slices already formatted (`formatSlice`), first message first: a caller
 * that read the path in pages formats each as it comes and keeps only the text (see
 * `readShownPathPages`). Empty slices are skipped.
 */
export async function* formattedExportPieces(
  conversation: Conversation,
  slices: readonly string[],
  format: ExportFormat,
): AsyncGenerator<string> {
  yield* piecesOf(
    conversation,
    slices.filter((slice) => slice !== ''),
    format,
  );
}

async function* piecesOf(
  conversation: Conversation,
  slices: AsyncIterable<string> | Iterable<string>,
  format: ExportFormat,
): AsyncGenerator<string> {
  if (format === 'json') {
    // The document JSON.stringify(…, null, 2) writes, its message array written slice by slice.
    const head = JSON.stringify(
      { format: 'aivory-conversation', version: 1, conversation },
      null,
      2,
    );
    yield `${head.slice(0, -2)},\n  "messages": `;
    let first = true;
    for await (const slice of slices) {
      yield first ? `[\n${slice}` : `,\n${slice}`;
      first = false;
    }
    yield first ? '[]\n}\n' : '\n  ]\n}\n';
    return;
  }
  // The head and the slices joined by newlines, trailing white space dropped, one newline added:
  // white space at a piece's end is held back until something that is not white space follows.
  let held = '';
  const emit = function* (text: string): Generator<string> {
    const kept = text.trimEnd();
    if (kept.length > 0) yield held + kept;
    held = kept.length > 0 ? text.slice(kept.length) : held + text;
  };
  yield* emit(markdownHead(conversation).join('\n'));
  for await (const slice of slices) yield* emit(`\n${slice}`);
  yield '\n';
}

/** Messages as the items of an array two levels deep in a document indented by 2. */
function jsonItems(messages: readonly Message[]): string {
  return messages
    .map((message) => `    ${JSON.stringify(message, null, 2).replace(/\n/g, '\n    ')}`)
    .join(',\n');
}

function markdownHead(conversation: Conversation): string[] {
  return [
    `# ${escapeHtml(conversation.title)}`,
    '',
    `Exported from Aivory · ${new Date(conversation.createdAt).toISOString()}`,
    '',
  ];
}

function messagesToMarkdown(messages: readonly Message[]): string[] {
  const lines: string[] = [];
  for (const message of messages) {
    const status = message.status === 'complete' ? '' : ` (${message.status})`;
    lines.push(`## ${message.role === 'user' ? 'User' : 'Assistant'}${status}`, '');
    for (const part of message.parts) lines.push(...partToMarkdown(part), '');
  }
  return lines;
}

function partToMarkdown(part: MessagePart): string[] {
  switch (part.kind) {
    case 'text':
      return [escapeHtmlOutsideCode(part.text)];
    case 'reasoning':
      return [
        '<details><summary>Reasoning</summary>',
        '',
        escapeHtmlOutsideCode(part.text),
        '',
        '</details>',
      ];
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
        ...(part.structured === undefined ? [] : structuredMarkdown(part.structured)),
      ];
    }
    case 'artifact':
      return [fileLine('File', part.artifact)];
    case 'attachment':
      return [fileLine('Attachment', part.attachment)];
  }
}

/**
 * A tool result's structured content (MCP `structuredContent`), as the trace card shows it: how it
 * compares with the tool's output schema, then its JSON (cut like the tool's output).
 */
function structuredMarkdown(structured: StructuredToolOutput): string[] {
  const json =
    structured.json.length > MAX_MARKDOWN_TOOL_OUTPUT_CHARS
      ? `${structured.json.slice(0, MAX_MARKDOWN_TOOL_OUTPUT_CHARS)}\n[… ${structured.json.length - MAX_MARKDOWN_TOOL_OUTPUT_CHARS} more characters]`
      : structured.json;
  return [
    '',
    `**Structured content** · ${escapeHtml(structuredCheckText(structured))}`,
    '',
    fence(json, 'json'),
  ];
}

function fileLine(label: string, file: ArtifactReference): string {
  const name = escapeHtml(file.name).replace(/[[\]\\]/g, '\\$&');
  const mime = escapeHtml(file.mime);
  return `**${label}** [${name}](${linkTarget(file.path)}) (${mime}, ${file.size} bytes)`;
}

/**
 * A path as a Markdown link target: spaces and the like percent-encoded, and `#` and parentheses
 * too (`report#1.pdf` would end at a fragment, `notes (2).md` may end the link early); a lone
 * surrogate, which encodeURI refuses, as U+FFFD.
 */
export function linkTarget(path: string): string {
  return encodeURI(path.replace(/[\uD800-\uDFFF]/gu, '\uFFFD')).replace(
    /[#()]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** `<` and `&` as entities: a Markdown viewer then shows them instead of running them as HTML. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

/**
 * The model's Markdown with raw HTML made inert: outside fenced code blocks and inline code
 * spans every `<` becomes `&lt;` (a viewer shows `<script>` as text); code keeps its bytes, since
 * viewers never interpret HTML there.
 */
export function escapeHtmlOutsideCode(text: string): string {
  let fence: string | null = null;
  return text
    .split('\n')
    .map((line) => {
      const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== null) {
        if (
          opener &&
          opener[0] === fence[0] &&
          opener.length >= fence.length &&
          /^ {0,3}[`~]+\s*$/.test(line)
        )
          fence = null;
        return line;
      }
      if (opener) {
        fence = opener;
        return line;
      }
      return escapeOutsideInlineCode(line);
    })
    .join('\n');
}

/** Escapes `<` outside inline code spans (a backtick run closed by a run of the same length). */
function escapeOutsideInlineCode(line: string): string {
  let result = '';
  let index = 0;
  while (index < line.length) {
    const open = line.indexOf('`', index);
    if (open === -1) break;
    const run = /^`+/.exec(line.slice(open))?.[0] ?? '`';
    const close = findClosingRun(line, open + run.length, run.length);
    if (close === -1) {
      result += line.slice(index, open + run.length).replace(/</g, '&lt;');
      index = open + run.length;
      continue;
    }
    result += line.slice(index, open).replace(/</g, '&lt;') + line.slice(open, close + run.length);
    index = close + run.length;
  }
  return result + line.slice(index).replace(/</g, '&lt;');
}

function findClosingRun(line: string, from: number, length: number): number {
  const pattern = /`+/g;
  pattern.lastIndex = from;
  for (let match = pattern.exec(line); match; match = pattern.exec(line)) {
    if (match[0].length === length) return match.index;
  }
  return -1;
}

/** A code fence longer than any backtick run inside the text, so the text cannot end it. */
function fence(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const marker = '`'.repeat(longest + 1);
  return `${marker}${language}\n${text}\n${marker}`;
}
