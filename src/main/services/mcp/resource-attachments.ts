/**
 * An MCP resource the user picked in the composer, as files to attach to the message: each text
 * part a text file, each binary part (`blob`) a file of its own, so they travel like uploads
 * (stored under the conversation, staged into /workspace/uploads, images to a vision model).
 * Names come from the URI, reduced to a safe file name with an extension that matches the type;
 * a binary part's type comes from its bytes when they say (PNG, JPEG, GIF, WebP, PDF), else from
 * the server, but a server never makes unrecognised bytes an image. The upload caps apply.
 */
import { AivoryError } from '../../../shared/errors';
import { safeComponent } from '../../policy/file-names';
import type { McpResourceContents } from '../../core/ports';
import type { AttachmentInput } from '../attachments';
import { checkAttachments } from '../attachments';
import { mimeTypeForFileName, sniffMimeType } from '../mime-types';

/** A file to attach, with the type it will be stored as. */
export interface ResourceFile extends AttachmentInput {
  mime: string;
}

/** Characters kept of the name taken from a URI (before the extension). */
const MAX_STEM_CHARS = 80;
const MIME = /^[\w.+-]{1,100}\/[\w.+-]{1,100}$/;
const OCTET = 'application/octet-stream';

/** Extensions for the types a resource part commonly has. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'text/html': 'html',
  'text/css': 'css',
  'text/javascript': 'js',
  'text/x-python': 'py',
  'text/tab-separated-values': 'tsv',
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/yaml': 'yaml',
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/zip': 'zip',
  'application/gzip': 'gz',
  [OCTET]: 'bin',
};

/** The files of a resource read (`uri` names them when a part carries no URI of its own). */
export function resourceFiles(contents: McpResourceContents, uri: string): ResourceFile[] {
  const files: ResourceFile[] = [];
  const taken = new Set<string>();
  const add = (partUri: string, mime: string, data: Uint8Array): void => {
    files.push({ name: uniqueName(fileName(partUri || uri, mime), taken), mime, data });
  };
  for (const part of contents.texts) {
    add(part.uri, textMime(part.mimeType), new TextEncoder().encode(part.text));
  }
  for (const part of contents.blobs) add(part.uri, blobMime(part.mimeType, part.data), part.data);
  if (files.length === 0) {
    throw new AivoryError('invalid-input', 'The resource has no content to attach.');
  }
  checkAttachments(files);
  return files;
}

/** A text part's type: the server's when it is a text type, else text/plain. */
function textMime(declared: string | null): string {
  const mime = declared?.toLowerCase().split(';')[0]?.trim() ?? '';
  if (!MIME.test(mime)) return 'text/plain';
  const textual =
    mime.startsWith('text/') ||
    ['application/json', 'application/xml', 'application/yaml'].includes(mime);
  return textual ? mime : 'text/plain';
}

/** A binary part's type: its bytes' when recognised; the server's unless it claims an image. */
export function blobMime(declared: string | null, data: Uint8Array): string {
  const sniffed = sniffMimeType('', data);
  if (sniffed !== OCTET) return sniffed;
  const mime = declared?.toLowerCase().split(';')[0]?.trim() ?? '';
  return MIME.test(mime) && !mime.startsWith('image/') ? mime : OCTET;
}

/**
 * The URI's last path segment (or its host, or "resource"), decoded and made a safe file name,
 * with the type's extension added when the name's own does not match it (`x.bat` as a PNG is
 * `x.bat.png`).
 */
export function fileName(uri: string, mime: string): string {
  const stem = safeComponent(lastSegment(uri), 'resource').slice(0, MAX_STEM_CHARS);
  const extension = EXTENSIONS[mime] ?? 'bin';
  // An extension the name already has counts only when it means this very type.
  const matches =
    stem.toLowerCase().endsWith(`.${extension}`) ||
    (mime !== OCTET && mimeTypeForFileName(stem) === mime);
  return safeComponent(matches ? stem : `${stem}.${extension}`, `resource.${extension}`);
}

function lastSegment(uri: string): string {
  const withoutQuery = uri.split(/[?#]/)[0] ?? '';
  const segments = withoutQuery
    .replace(/^[a-z][\w+.-]*:\/*/i, '')
    .split('/')
    .filter((segment) => segment !== '');
  const last = segments.at(-1) ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function uniqueName(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot) : '';
  let candidate = name;
  for (let version = 2; taken.has(candidate.toLowerCase()); version += 1) {
    candidate = `${stem}-${version}${extension}`;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}
