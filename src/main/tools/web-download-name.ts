/**
 * The file name an image is saved under in /workspace/downloads/: the model's `filename` or the
 * URL's last path segment, reduced to one safe path component with the extension that matches
 * the bytes. Path separators, `..`, control and bidi-override characters, Windows device names
 * and over-long names cannot survive, so the name can only ever address a file in that folder.
 */
import { stripInvisibleCharacters } from '../../shared/untrusted-text';

/** Characters kept in the stem: a readable name, not a paragraph. */
export const MAX_STEM_CHARS = 80;
/** UTF-8 bytes kept in the stem: file systems (and the sandbox's upload route) allow 255. */
export const MAX_STEM_BYTES = 200;

const WINDOWS_DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** A safe `stem.extension` for the download. `extension` has no dot (e.g. `png`). */
export function downloadName(
  requested: string | null,
  sourceUrl: string,
  extension: string,
): string {
  const candidate = requested?.trim() ? requested : lastPathSegment(sourceUrl);
  const base = candidate.split(/[\\/]/).pop() ?? '';
  // Hidden characters out first: NUL, newlines, bidi overrides (x\u202Egnp.exe), zero-width.
  const cleaned = stripInvisibleCharacters(base.normalize('NFC'))
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/_+/g, '_')
    .replace(/^[._-]+|[._-]+$/g, '');
  const dot = cleaned.lastIndexOf('.');
  let stem =
    dot > 0 && /^[A-Za-z0-9]{1,5}$/.test(cleaned.slice(dot + 1)) ? cleaned.slice(0, dot) : cleaned;
  stem = limitBytes(Array.from(stem).slice(0, MAX_STEM_CHARS)).replace(/[._-]+$/, '');
  if (stem === '') stem = 'image';
  if (WINDOWS_DEVICE_NAMES.test(stem)) stem = `${stem}_`;
  return `${stem}.${extension}`;
}

/** Joins whole characters while they fit in MAX_STEM_BYTES of UTF-8. */
function limitBytes(characters: string[]): string {
  let result = '';
  let bytes = 0;
  for (const character of characters) {
    bytes += Buffer.byteLength(character, 'utf8');
    if (bytes > MAX_STEM_BYTES) break;
    result += character;
  }
  return result;
}

function lastPathSegment(url: string): string {
  try {
    const segment =
      new URL(url).pathname
        .split('/')
        .filter((part) => part !== '')
        .pop() ?? '';
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  } catch {
    return '';
  }
}
