/**
 * Every conversation exported at once, to take elsewhere (`aivory conversations export --all`, the
 * app's Settings → Data): one folder per conversation named after its title, holding
 * `conversation.md` or `.json` (what the one-conversation export writes) and `files/`, the
 * attachments and produced files it references, its links pointing there; `index.md` or
 * `index.json` at the top lists them with their titles and dates. Written to an `ArchiveWriter`
 * (a ZIP file or a folder) a conversation at a time, read in pages and formatted in slices with
 * the event loop running in between, so that serve is never held long whatever the number of
 * conversations; cancellable through a signal, with progress after each conversation.
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { Conversation, Message, MessagePart } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import type { ArtifactReference } from '../../shared/turn-events';
import type { ConversationStore } from '../core/ports';
import { safeComponent } from '../policy/file-names';
import type { ArchiveWriter } from './archive-writers';
import { CHUNK_BYTES } from './archive-writers';
import type { ExportFormat } from './conversation-export';
import { exportPieces, linkTarget } from './conversation-export';
import { readShownPath } from './shown-path';

export interface ArchiveSource {
  conversations: Pick<ConversationStore, 'listConversationPage' | 'listMessagePage'>;
  /**
   * The real path of a file a message references when it is one of the app's own files
   * (artifacts, uploads), else null: a path from the database is never read blindly.
   */
  resolveFile(path: string): Promise<string | null>;
}

export interface ArchiveProgress {
  /** Conversations written so far, of `total`. */
  done: number;
  total: number;
}

export interface ArchiveOptions {
  format: ExportFormat;
  signal?: AbortSignal;
  onProgress?: (progress: ArchiveProgress) => void;
  /** When the export was made (ms), for the index. */
  now?: number;
}

export interface ArchiveSummary {
  path: string;
  bytes: number;
  conversations: number;
  files: number;
  /** Files messages reference that were not found (deleted, or not the app's): not included. */
  missingFiles: number;
}

/** One conversation as the index lists it. */
interface IndexEntry {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** Its document, relative to the archive's top. */
  document: string;
  messages: number;
  files: { name: string; path: string; mime: string; size: number }[];
}

/** Types whose bytes are compressed already: stored, not deflated again. */
const COMPRESSED_TYPES =
  /^(image\/(png|jpeg|gif|webp|avif)|audio\/.*|video\/.*|application\/(zip|gzip|x-7z-compressed|x-xz|x-bzip2|pdf|vnd\.openxmlformats-officedocument\..*))$/;

/**
 * Writes every conversation to `writer` and completes it; on a failure or a cancel, removes what
 * was written and throws (a cancel as `canceled`).
 */
export async function writeConversationsArchive(
  source: ArchiveSource,
  writer: ArchiveWriter,
  options: ArchiveOptions,
): Promise<ArchiveSummary> {
  try {
    const summary = await writeEntries(source, writer, options);
    options.signal?.throwIfAborted();
    return { ...summary, ...(await writer.finish()) };
  } catch (error) {
    await writer.abort();
    if (options.signal?.aborted)
      throw new AivoryError('canceled', 'The export was canceled; nothing was kept.');
    throw error;
  }
}

async function writeEntries(
  source: ArchiveSource,
  writer: ArchiveWriter,
  { format, signal, onProgress, now = Date.now() }: ArchiveOptions,
): Promise<Omit<ArchiveSummary, 'path' | 'bytes'>> {
  const conversations = await listAll(source);
  const folders = new UniqueNames();
  const index: IndexEntry[] = [];
  let files = 0;
  let missingFiles = 0;
  onProgress?.({ done: 0, total: conversations.length });
  for (const [position, conversation] of conversations.entries()) {
    signal?.throwIfAborted();
    await new Promise((resolve) => setImmediate(resolve));
    const messages = await readShownPathIfThere(source, conversation.id);
    if (messages !== null) {
      const folder = folders.take(safeComponent(conversation.title, 'conversation'));
      const copied = await localFiles(source, messages);
      missingFiles += copied.missing;
      const document = `${folder}/conversation.${format}`;
      const mtime = conversation.updatedAt;
      const pieces = exportPieces(conversation, withLinks(messages, copied.byPath), format);
      await writer.add(document, encoded(pieces), { mtime, compress: true });
      for (const file of copied.files) {
        signal?.throwIfAborted();
        await writer.add(`${folder}/${file.entry}`, fileChunks(file.realPath, conversation), {
          mtime,
          compress: !COMPRESSED_TYPES.test(file.reference.mime),
        });
      }
      files += copied.files.length;
      index.push(indexEntry(conversation, document, messages.length, folder, copied.files));
    }
    onProgress?.({ done: position + 1, total: conversations.length });
  }
  const text = format === 'json' ? indexJson(index, now) : indexMarkdown(index, now);
  await writer.add(`index.${format}`, encoded(text), { mtime: now, compress: true });
  return { conversations: index.length, files, missingFiles };
}

/** Conversations read at once, and index entries formatted at once. */
const PAGE = 500;

/**
 * Every conversation, oldest first, a page at a time with the event loop running in between.
 * Oldest first: a conversation keeps its folder's name from one export to the next (a newer one
 * with the same title is the one numbered).
 */
async function listAll(source: ArchiveSource): Promise<Conversation[]> {
  const conversations: Conversation[] = [];
  let from: number | null = null;
  do {
    const page = source.conversations.listConversationPage({ from, limit: PAGE });
    conversations.push(...page.conversations);
    from = page.next;
    await new Promise((resolve) => setImmediate(resolve));
  } while (from !== null);
  return conversations;
}

/** The shown path, or null when the conversation was deleted after the list was read. */
async function readShownPathIfThere(source: ArchiveSource, id: string): Promise<Message[] | null> {
  try {
    return await readShownPath(source.conversations, id);
  } catch (error) {
    if (error instanceof AivoryError && error.code === 'not-found') return null;
    throw error;
  }
}

interface CopiedFile {
  reference: ArtifactReference;
  realPath: string;
  /** Its path in the conversation's folder: `files/<name>`. */
  entry: string;
}

/** The app's files the messages reference, each once, with unique names under `files/`. */
async function localFiles(
  source: ArchiveSource,
  messages: readonly Message[],
): Promise<{ files: CopiedFile[]; byPath: Map<string, string>; missing: number }> {
  const names = new UniqueNames();
  const files: CopiedFile[] = [];
  const byPath = new Map<string, string>();
  const missing = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      const reference = fileOf(part);
      if (reference === null || byPath.has(reference.path) || missing.has(reference.path)) continue;
      const realPath = await source.resolveFile(reference.path);
      if (realPath === null) {
        missing.add(reference.path);
        continue;
      }
      const entry = `files/${names.take(safeComponent(reference.name, 'file'))}`;
      byPath.set(reference.path, entry);
      files.push({ reference, realPath, entry });
    }
  }
  return { files, byPath, missing: missing.size };
}

function fileOf(part: MessagePart): ArtifactReference | null {
  if (part.kind === 'artifact') return part.artifact;
  if (part.kind === 'attachment') return part.attachment;
  return null;
}

/** The messages with their files' paths pointing into the conversation's folder. */
function withLinks(
  messages: readonly Message[],
  byPath: ReadonlyMap<string, string>,
): readonly Message[] {
  if (byPath.size === 0) return messages;
  return messages.map((message) =>
    message.parts.some((part) => fileOf(part) !== null)
      ? { ...message, parts: message.parts.map((part) => linked(part, byPath)) }
      : message,
  );
}

function linked(part: MessagePart, byPath: ReadonlyMap<string, string>): MessagePart {
  const entry = (reference: ArtifactReference) => byPath.get(reference.path) ?? reference.path;
  if (part.kind === 'artifact')
    return { ...part, artifact: { ...part.artifact, path: entry(part.artifact) } };
  if (part.kind === 'attachment')
    return { ...part, attachment: { ...part.attachment, path: entry(part.attachment) } };
  return part;
}

async function* encoded(
  pieces: AsyncIterable<string> | Iterable<string>,
): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  for await (const piece of pieces) yield encoder.encode(piece);
}

/** A file's bytes; one that cannot be read (deleted meanwhile) stops the export, saying which. */
async function* fileChunks(path: string, conversation: Conversation): AsyncGenerator<Uint8Array> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new AivoryError(
      'storage',
      `Cannot read ${path}, a file of the conversation "${conversation.title}" (${String(code)}); the export was not written.`,
      { cause: error },
    );
  }
  try {
    for (;;) {
      const buffer = new Uint8Array(CHUNK_BYTES);
      const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

/**
 * Names handed out once each, compared as the disks that ignore case and Unicode normalisation
 * would (`Notes` and `notes` are one folder on macOS and Windows): a taken name gets ` (2)`,
 * ` (3)`, … before its extension.
 */
class UniqueNames {
  private readonly taken = new Set<string>();

  take(name: string): string {
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let number = 1; ; number++) {
      const candidate = number === 1 ? name : `${stem} (${number})${extension}`;
      const key = candidate.normalize('NFC').toLowerCase();
      if (this.taken.has(key)) continue;
      this.taken.add(key);
      return candidate;
    }
  }
}

function indexEntry(
  conversation: Conversation,
  document: string,
  messages: number,
  folder: string,
  files: readonly CopiedFile[],
): IndexEntry {
  return {
    id: conversation.id,
    title: conversation.title,
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    document,
    messages,
    files: files.map(({ reference, entry }) => ({
      name: reference.name,
      path: `${folder}/${entry}`,
      mime: reference.mime,
      size: reference.size,
    })),
  };
}

/**
 * `JSON.stringify({ format, version, exportedAt, conversations }, null, 2)`, its entries
 * formatted a page at a time (10,000 at once held the thread ~30 ms).
 */
async function* indexJson(index: readonly IndexEntry[], now: number): AsyncGenerator<string> {
  const head = JSON.stringify(
    { format: 'aivory-conversations', version: 1, exportedAt: now },
    null,
    2,
  );
  yield `${head.slice(0, -2)},\n  "conversations": [`;
  for (let start = 0; start < index.length; start += PAGE) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const items = index
      .slice(start, start + PAGE)
      .map((entry) => `    ${JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ')}`);
    yield `${start === 0 ? '\n' : ',\n'}${items.join(',\n')}`;
  }
  yield index.length === 0 ? ']\n}\n' : '\n  ]\n}\n';
}

async function* indexMarkdown(index: readonly IndexEntry[], now: number): AsyncGenerator<string> {
  yield [
    '# Aivory conversations',
    '',
    `Exported from Aivory · ${new Date(now).toISOString()} · ${index.length} conversations`,
    '',
    '| Conversation | Created | Updated | Messages | Files |',
    '| --- | --- | --- | --- | --- |',
    '',
  ].join('\n');
  for (let start = 0; start < index.length; start += PAGE) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const rows = index
      .slice(start, start + PAGE)
      .map(
        (entry) =>
          `| [${cell(entry.title)}](${linkTarget(entry.document)}) | ${day(entry.createdAt)} | ${day(entry.updatedAt)} | ${entry.messages} | ${entry.files.length} |\n`,
      );
    yield rows.join('');
  }
}

/** A title inside a table cell's link text: shown as text, never as HTML or table syntax. */
function cell(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/[[\]\\|`*_]/g, '\\$&');
}

function day(time: number): string {
  return `${new Date(time).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}
