/**
 * Converts what a server returns (untrusted JSON) into the port's plain results: tool results
 * to capped text plus a few decoded images, prompt messages and resource contents to text.
 * Nothing here trusts a field's type; anything unexpected becomes a short note.
 */
import type { McpCallResult, McpImage, McpResourceContents } from '../../core/ports';
import { oneLine } from '../../../shared/untrusted-text';
import { formatBytes } from '../../../shared/byte-size';

type Json = Record<string, unknown>;

/** Collects text up to a character cap, counting (not keeping) what is cut. */
export class CappedText {
  private readonly parts: string[] = [];
  private kept = 0;
  private total = 0;

  constructor(private readonly maxChars: number) {}

  /** Appends `text` as a new line (a separator is added between pieces). */
  add(text: string): void {
    const piece = this.total > 0 ? `\n${text}` : text;
    this.total += piece.length;
    const room = this.maxChars - this.kept;
    if (room <= 0) return;
    const slice = piece.length <= room ? piece : cutAt(piece, room);
    this.parts.push(slice);
    this.kept += slice.length;
  }

  get isEmpty(): boolean {
    return this.total === 0;
  }

  /** The text, with a marker saying how much was cut when over the cap. */
  finish(): { text: string; truncated: boolean } {
    const text = this.parts.join('');
    if (this.total <= this.maxChars) return { text, truncated: false };
    const cut = this.total - this.kept;
    const marker = `\n\n[… output truncated: ${cut.toLocaleString('en-US')} of ${this.total.toLocaleString('en-US')} characters cut (limit ${this.maxChars.toLocaleString('en-US')})]`;
    return { text: text + marker, truncated: true };
  }
}

/** `text` cut to at most `length` characters without splitting a surrogate pair. */
function cutAt(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return code >= 0xd800 && code <= 0xdbff ? text.slice(0, length - 1) : text.slice(0, length);
}

function asObject(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : null;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Decoded size of base64 text, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.replace(/\s/g, '').length * 3) / 4) - padding);
}

/** How many images a tool result may keep, and how big each may be. */
export interface ImageLimits {
  maxImages: number;
  maxImageBytes: number;
}

/** A short note for binary content: "[image: image/png, 1.2 KB]". */
function binaryNote(what: string, mime: string, bytes: number, suffix = ''): string {
  return `[${what}: ${oneLine(mime || 'unknown type', 80)}, ${formatBytes(bytes)}${suffix}]`;
}

function imageItem(item: Json, images: McpImage[], limits: ImageLimits): string {
  const data = str(item['data']);
  const mime = str(item['mimeType']);
  const bytes = base64Bytes(data);
  if (!mime.startsWith('image/')) return binaryNote('image', mime, bytes, ' — unsupported type');
  if (images.length >= limits.maxImages) {
    return binaryNote('image', mime, bytes, ` — not shown: at most ${limits.maxImages} images`);
  }
  if (bytes > limits.maxImageBytes) {
    return binaryNote(
      'image',
      mime,
      bytes,
      ` — not shown: over ${formatBytes(limits.maxImageBytes)}`,
    );
  }
  const decoded = Buffer.from(data, 'base64');
  images.push({ mime, data: new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.length) });
  return binaryNote('image', mime, decoded.length);
}

/** An embedded resource: its text, or a note for a blob. */
export function resourceText(resource: Json | null): string {
  if (resource === null) return '[resource: invalid]';
  const uri = oneLine(str(resource['uri']), 300);
  if (typeof resource['text'] === 'string') return `[resource: ${uri}]\n${resource['text']}`;
  const mime = str(resource['mimeType']);
  return binaryNote(`binary resource ${uri}`, mime, base64Bytes(str(resource['blob'])));
}

/** One content block as text; images go to `images` when given (tool results) or are noted. */
export function contentText(item: unknown, images: McpImage[] | null, limits: ImageLimits): string {
  const block = asObject(item);
  if (block === null) return '[invalid content]';
  switch (block['type']) {
    case 'text':
      return str(block['text']);
    case 'image':
      return images === null
        ? binaryNote('image', str(block['mimeType']), base64Bytes(str(block['data'])))
        : imageItem(block, images, limits);
    case 'audio':
      return binaryNote(
        'audio',
        str(block['mimeType']),
        base64Bytes(str(block['data'])),
        ' — not played',
      );
    case 'resource':
      return resourceText(asObject(block['resource']));
    case 'resource_link': {
      const name = oneLine(str(block['name']), 200);
      const uri = oneLine(str(block['uri']), 300);
      return name === '' ? `[resource link] ${uri}` : `[resource link] ${uri} (${name})`;
    }
    default:
      return `[unsupported content: ${oneLine(String(block['type']), 40)}]`;
  }
}

/** A tools/call result for the model. */
export function convertToolResult(
  raw: Json,
  maxOutputChars: number,
  limits: ImageLimits,
): McpCallResult {
  const content = Array.isArray(raw['content']) ? raw['content'] : [];
  const text = new CappedText(Math.max(0, maxOutputChars));
  const images: McpImage[] = [];
  let hasText = false;
  const blobs: McpResourceContents['blobs'] = [];
  for (const item of content) {
    hasText ||= asObject(item)?.['type'] === 'text';
    text.add(contentText(item, images, limits));
    const blob = embeddedBlob(item);
    if (blob !== null && blobs.length < MAX_RESOURCE_BLOBS) blobs.push(blob);
  }
  const structured = raw['structuredContent'];
  // Without text, the structured content is what the model reads (the spec's fallback).
  if (!hasText && structured !== undefined && structured !== null) {
    text.add(JSON.stringify(structured) ?? '');
  }
  const finished = text.finish();
  const object = asObject(structured);
  return {
    isError: raw['isError'] === true,
    text: finished.text,
    images,
    truncated: finished.truncated,
    ...(object === null ? {} : { structured: object }),
    ...(blobs.length > 0 ? { blobs } : {}),
  };
}

/** An embedded binary resource of a tool result (`{type: 'resource', resource: {blob}}`), decoded. */
function embeddedBlob(item: unknown): McpResourceContents['blobs'][number] | null {
  const block = asObject(item);
  if (block?.['type'] !== 'resource') return null;
  return decodedBlob(asObject(block['resource']));
}

/** A resource part's `blob`, decoded; null for a text part or invalid base64. */
function decodedBlob(part: Json | null): McpResourceContents['blobs'][number] | null {
  if (part === null || typeof part['blob'] !== 'string' || typeof part['text'] === 'string')
    return null;
  const blob = part['blob'];
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(blob.replace(/\s+/g, ''))) return null;
  return {
    uri: oneLine(str(part['uri']), 2000),
    mimeType: typeof part['mimeType'] === 'string' ? oneLine(part['mimeType'], 100) : null,
    data: new Uint8Array(Buffer.from(blob, 'base64')),
  };
}

/** A JSON-RPC error from the server for a tool call, as an error result the model can read. */
export function serverErrorResult(message: string, maxOutputChars: number): McpCallResult {
  const text = new CappedText(Math.max(0, maxOutputChars));
  text.add(`The MCP server returned an error: ${message}`);
  return { isError: true, images: [], ...text.finish() };
}

/** A call that needs the user to open a link first (-32042), as the model reads it. */
export function linkNeededResult(message: string, maxOutputChars: number): McpCallResult {
  const text = new CappedText(Math.max(0, maxOutputChars));
  text.add(message);
  return { isError: true, images: [], ...text.finish() };
}

/** prompts/get messages flattened for the composer; roles shown only when not all "user". */
export function promptText(raw: Json, maxChars: number, limits: ImageLimits): string {
  const messages = Array.isArray(raw['messages']) ? raw['messages'] : [];
  const objects = messages.map(asObject).filter((message) => message !== null);
  const labelled = objects.some((message) => message['role'] !== 'user');
  const text = new CappedText(maxChars);
  for (const message of objects) {
    const body = contentText(message['content'], null, limits);
    const role = message['role'] === 'assistant' ? 'Assistant' : 'User';
    const piece = labelled ? `${role}: ${body}` : body;
    text.add(text.isEmpty ? piece : `\n${piece}`);
  }
  return text.finish().text;
}

/** resources/read contents as text: text parts joined, binary parts described. */
/** Most binary parts of one resource read that are kept as files. */
const MAX_RESOURCE_BLOBS = 8;

/** The binary parts (`blob`) of a resources/read answer, decoded (invalid base64 skipped). */
export function resourceBlobs(raw: Json): McpResourceContents['blobs'] {
  const contents = Array.isArray(raw['contents']) ? raw['contents'] : [];
  const blobs: McpResourceContents['blobs'] = [];
  for (const item of contents) {
    const part = asObject(item);
    if (part === null || typeof part['blob'] !== 'string' || typeof part['text'] === 'string')
      continue;
    if (blobs.length >= MAX_RESOURCE_BLOBS) break;
    const blob = decodedBlob(part);
    if (blob !== null) blobs.push(blob);
  }
  return blobs;
}

/** The text parts of a resources/read answer, whole (the first MAX_RESOURCE_BLOBS of them). */
export function resourceTexts(raw: Json): McpResourceContents['texts'] {
  const contents = Array.isArray(raw['contents']) ? raw['contents'] : [];
  const texts: McpResourceContents['texts'] = [];
  for (const item of contents) {
    const part = asObject(item);
    if (part === null || typeof part['text'] !== 'string') continue;
    if (texts.length >= MAX_RESOURCE_BLOBS) break;
    texts.push({
      uri: oneLine(str(part['uri']), 2000),
      mimeType: typeof part['mimeType'] === 'string' ? oneLine(part['mimeType'], 100) : null,
      text: part['text'],
    });
  }
  return texts;
}

export function resourceContentsText(raw: Json, maxChars: number): string {
  const contents = Array.isArray(raw['contents']) ? raw['contents'] : [];
  const text = new CappedText(maxChars);
  for (const item of contents) {
    const part = asObject(item);
    if (part === null) continue;
    const body = typeof part['text'] === 'string' ? part['text'] : resourceText(part);
    text.add(text.isEmpty ? body : `\n${body}`);
  }
  return text.finish().text;
}
