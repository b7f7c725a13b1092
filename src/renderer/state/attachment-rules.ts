/**
 * Pure rules of the composer's files: the caps the host enforces (checked here first so the user
 * gets a clear message before anything is sent), base64 for the contract, sizes as people read
 * them, and which files show inline as images.
 */
import {
  ATTACHMENT_NAME_FORBIDDEN,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENT_NAME_CHARS,
  MAX_ATTACHMENTS,
  MAX_ATTACHMENTS_TOTAL_BYTES,
} from '../../shared/ipc/limits';
import type { MessageKey } from '../i18n/i18n';
import { stripInvisibleCharacters } from '../../shared/untrusted-text';
import { formatBytes } from '../../shared/byte-size';

/** A file waiting in the composer. */
export interface PendingAttachment {
  /** Local key (chips and removal). */
  id: string;
  name: string;
  size: number;
  /** The browser's type for it; '' when unknown (the host then guesses). */
  mime: string;
  dataBase64: string;
  /** The MCP service it was read from (a resource attached from the composer's MCP list). */
  source?: string;
}

/** A file as a message shows it; `path` is null while the message is not stored yet. */
export interface ShownFile {
  name: string;
  size: number;
  mime: string;
  path: string | null;
}

/** Why files cannot be added, as an i18n key with its parameters. */
export interface AttachmentProblem {
  key: MessageKey;
  params: Record<string, string | number>;
}

const MIB = 1024 * 1024;

/** A file the composer did not take, and why. */
export interface RefusedAttachment {
  name: string;
  problem: AttachmentProblem;
}

/** Longest file name a message shows (the rest is cut in the middle, keeping the extension). */
export const SHOWN_NAME_CHARS = 60;
/** Longest extension kept when a shown name is cut. */
const SHOWN_EXTENSION_CHARS = 12;

/** Cuts `text` to at most `length` UTF-16 units without splitting a surrogate pair. */
function cutAt(text: string, length: number): string {
  const cut = text.slice(0, length);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/**
 * A file name as a message shows it: control characters replaced, at most `max` characters,
 * a long one cut in the middle so its start and its extension stay readable.
 */
export function shownFileName(name: string, max = SHOWN_NAME_CHARS): string {
  const plain = name.length > max * 4 ? cutAt(name, max * 2) + name.slice(-max) : name;
  // Controls show as a replacement mark; bidi overrides and zero-width characters are dropped, as
  // the host drops them from stored names (`invoice\u202Efdp.exe` must not read "invoiceexe.pdf").
  const visible = stripInvisibleCharacters(plain.replace(/\p{Cc}/gu, '\uFFFD'));
  if (name.length <= max) return visible;
  const dot = visible.lastIndexOf('.');
  const extension =
    dot > 0 && visible.length - dot <= SHOWN_EXTENSION_CHARS ? visible.slice(dot) : '';
  return `${cutAt(visible, max - extension.length - 1)}…${extension}`;
}

/**
 * Why the host would refuse a file of this name (the contract's rule: trimmed, 1 to
 * MAX_ATTACHMENT_NAME_CHARS characters, no path separator or control character), or null.
 */
export function attachmentNameProblem(name: string): AttachmentProblem | null {
  const trimmed = name.trim();
  if (trimmed === '') return { key: 'attach.nameEmpty', params: {} };
  if (trimmed.length > MAX_ATTACHMENT_NAME_CHARS) {
    return {
      key: 'attach.nameTooLong',
      params: {
        name: shownFileName(trimmed),
        length: trimmed.length,
        max: MAX_ATTACHMENT_NAME_CHARS,
      },
    };
  }
  if (ATTACHMENT_NAME_FORBIDDEN.test(trimmed)) {
    return { key: 'attach.nameInvalid', params: { name: shownFileName(trimmed) } };
  }
  return null;
}

/**
 * Splits `incoming` into the files the composer takes and the ones it refuses, in order, by the
 * host's rules: a valid name, each file within MAX_ATTACHMENT_BYTES, at most MAX_ATTACHMENTS
 * files and MAX_ATTACHMENTS_TOTAL_BYTES together with the `current` ones.
 */
export function sortIncoming<Incoming extends { name: string; size: number }>(
  current: readonly { size: number }[],
  incoming: readonly Incoming[],
): { accepted: Incoming[]; refused: RefusedAttachment[] } {
  const accepted: Incoming[] = [];
  const refused: RefusedAttachment[] = [];
  let count = current.length;
  let total = current.reduce((sum, file) => sum + file.size, 0);
  for (const file of incoming) {
    const problem = fileProblem(file, count, total);
    if (problem !== null) {
      refused.push({ name: file.name, problem });
      continue;
    }
    accepted.push(file);
    count += 1;
    total += file.size;
  }
  return { accepted, refused };
}

function fileProblem(
  file: { name: string; size: number },
  count: number,
  total: number,
): AttachmentProblem | null {
  const nameProblem = attachmentNameProblem(file.name);
  if (nameProblem !== null) return nameProblem;
  const name = shownFileName(file.name.trim());
  if (file.size > MAX_ATTACHMENT_BYTES) {
    return {
      key: 'attach.tooLarge',
      params: { name, size: formatBytes(file.size), max: MAX_ATTACHMENT_BYTES / MIB },
    };
  }
  if (count + 1 > MAX_ATTACHMENTS) {
    return { key: 'attach.tooMany', params: { name, max: MAX_ATTACHMENTS } };
  }
  if (total + file.size > MAX_ATTACHMENTS_TOTAL_BYTES) {
    return {
      key: 'attach.totalTooLarge',
      params: { name, max: MAX_ATTACHMENTS_TOTAL_BYTES / MIB },
    };
  }
  return null;
}

/** The first problem adding all of `incoming` to `current` would meet, or null (all or none). */
export function attachmentProblem(
  current: readonly { size: number }[],
  incoming: readonly { name: string; size: number }[],
): AttachmentProblem | null {
  return sortIncoming(current, incoming).refused[0]?.problem ?? null;
}

/** Bytes chunk per `String.fromCharCode` call (argument lists have a limit). */
const CHUNK = 0x8000;

/** Standard base64 (with padding) of `bytes`. */
export function bytesToBase64(bytes: Uint8Array): string {
  const pieces: string[] = [];
  for (let start = 0; start < bytes.length; start += CHUNK) {
    pieces.push(String.fromCharCode(...bytes.subarray(start, start + CHUNK)));
  }
  return btoa(pieces.join(''));
}

/** The base64 part of a `data:…;base64,…` URL ('' for an empty file's bare `data:`). */
export function base64OfDataUrl(url: string): string {
  const comma = url.indexOf(',');
  return comma === -1 ? '' : url.slice(comma + 1);
}

const INLINE_IMAGES: Readonly<Record<string, readonly string[]>> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
};

/** Raster images whose name agrees with their type show inline; SVG never does. */
export function isInlineImage(file: { name: string; mime: string }): boolean {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return INLINE_IMAGES[file.mime.toLowerCase()]?.includes(extension) ?? false;
}

/** The contract's form of the pending files. */
export function attachmentsPayload(
  files: readonly PendingAttachment[],
): { name: string; mime?: string; dataBase64: string }[] {
  return files.map((file) => ({
    name: file.name,
    ...(/^[\w.+-]{1,100}\/[\w.+-]{1,100}$/.test(file.mime) ? { mime: file.mime } : {}),
    dataBase64: file.dataBase64,
  }));
}
