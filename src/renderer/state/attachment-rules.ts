/**
 * Pure rules of the composer's files: the caps the host enforces (checked here first so the user
 * gets a clear message before anything is sent), base64 for the contract, sizes as people read
 * them, and which files show inline as images.
 */
import {
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  MAX_ATTACHMENTS_TOTAL_BYTES,
} from '../../shared/ipc/limits';
import type { MessageKey } from '../i18n/i18n';

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

/** The first cap that adding `incoming` to `current` would break, or null. */
export function attachmentProblem(
  current: readonly { size: number }[],
  incoming: readonly { name: string; size: number }[],
): AttachmentProblem | null {
  if (current.length + incoming.length > MAX_ATTACHMENTS) {
    return { key: 'attach.tooMany', params: { max: MAX_ATTACHMENTS } };
  }
  const large = incoming.find((file) => file.size > MAX_ATTACHMENT_BYTES);
  if (large)
    return {
      key: 'attach.tooLarge',
      params: { name: large.name, max: MAX_ATTACHMENT_BYTES / MIB },
    };
  const total = [...current, ...incoming].reduce((sum, file) => sum + file.size, 0);
  if (total > MAX_ATTACHMENTS_TOTAL_BYTES) {
    return { key: 'attach.totalTooLarge', params: { max: MAX_ATTACHMENTS_TOTAL_BYTES / MIB } };
  }
  return null;
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

/** `512 B`, `1.5 KB`, `3.2 MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MIB) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / MIB).toFixed(1)} MB`;
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
