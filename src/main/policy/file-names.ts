/**
 * What a name from elsewhere (a sandbox, an MCP server, a conversation id) may become on the
 * user's disk: one safe path component. Used by the artifact sink and by MCP resource attachments.
 */
import { stripInvisibleCharacters } from '../../shared/untrusted-text';

/** Longest file name kept (bytes on most filesystems are limited to 255). */
const MAX_NAME_CHARS = 120;

/** Names Windows reserves in every folder, with any extension (`NUL.txt` is the device too). */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/**
 * One path component: no separators, no control characters, no bidi overrides, zero-width or
 * other invisible characters (`invoice\u202Efdp.exe` would show as "invoiceexe.pdf";
 * `stripInvisibleCharacters`), no leading dots or spaces, no
 * trailing dots or spaces (Windows drops them), never `.`/`..` or a reserved device name, bounded
 * length. Whatever the input, the result names a plain file inside its folder.
 */
export function safeComponent(text: string, fallback: string): string {
  // Controls become `_` first (`a\nb` stays two words); the other hidden characters go.
  let cleaned = stripInvisibleCharacters(
    [...text].map((character) => (isUnsafe(character) ? '_' : character)).join(''),
  )
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '');
  if (cleaned.length > MAX_NAME_CHARS) {
    cleaned = cleaned.slice(-MAX_NAME_CHARS).replace(/^[\s.]+/, '');
  }
  if (cleaned === '') return fallback;
  return RESERVED.test(cleaned) ? `_${cleaned}` : cleaned;
}

function isUnsafe(character: string): boolean {
  return /\p{Cc}/u.test(character) || '\\/:*?"<>|'.includes(character);
}
