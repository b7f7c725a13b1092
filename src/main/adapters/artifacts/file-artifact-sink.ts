/**
 * Writes files produced in the sandbox to the user's disk: `<root>/<conversation>/<name>`.
 * Names come from the sandbox, so they are reduced to a safe single path component; an existing
 * file with other content is never overwritten (the new one becomes `name-2.ext`), so an older
 * message's attachment keeps pointing at what it showed.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { stripInvisibleCharacters } from '../../../shared/untrusted-text';
import type { ArtifactReference } from '../../../shared/turn-events';
import type { ArtifactSink } from '../../core/ports';

/** Longest file name kept (bytes on most filesystems are limited to 255). */
const MAX_NAME_CHARS = 120;
/** Versions tried before giving up on a free name. */
const MAX_VERSIONS = 1000;

export class FileArtifactSink implements ArtifactSink {
  constructor(private readonly root: string) {}

  save(
    conversationId: string,
    name: string,
    data: Uint8Array,
    mime: string,
  ): Promise<ArtifactReference> {
    const directory = join(this.root, safeComponent(conversationId, 'conversation'));
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const safeName = safeComponent(name, 'file');
    const extension = extname(safeName);
    const stem = safeName.slice(0, safeName.length - extension.length);
    const digest = sha256(data);
    for (let version = 1; version <= MAX_VERSIONS; version++) {
      const candidate = version === 1 ? safeName : `${stem}-${version}${extension}`;
      const path = join(directory, candidate);
      if (existsSync(path)) {
        if (sha256(readFileSync(path)) !== digest) continue;
      } else {
        writeFileSync(path, data, { mode: 0o644 });
      }
      return Promise.resolve({ name: candidate, path, mime, size: data.byteLength });
    }
    return Promise.reject(new Error(`too many versions of ${safeName}`));
  }
}

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

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
