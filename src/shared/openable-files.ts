/**
 * Which files the desktop's "Open" hands to the system's default app. A tool's output (a model's
 * python_execute, an MCP result) is untrusted: a file named `run-me.bat`, `page.html` or
 * `notes.desktop` would run code on one click. Only documents, raster images and media whose
 * formats carry no script the opener runs are opened; everything else is shown in its folder.
 * Pure: the renderer hides "Open" with the same rule the host enforces.
 */

/** What kind of file an openable extension is. */
export type OpenableKind = 'document' | 'image' | 'media';

/**
 * Extensions (lower case, with the dot) that are opened, and how the first bytes must look: every
 * type is checked (one of the listed prefixes, or a check of its own), so HTML saved as
 * `clip.mp4` never reaches a browser through an opener that sniffs content. SVG, HTML, XML, scripts, macro-
 * enabled Office files, RTF (embedded objects), archives and anything unknown are not listed.
 */
interface OpenRule {
  kind: OpenableKind;
  /** The file must start with one of these byte sequences. */
  magic?: readonly number[][];
  /** Plain text: checked by `looksLikePlainText` (openers that sniff content would see HTML). */
  text?: true;
  /** A ZIP-based office document: checked by `looksLikeOfficeZip` (not a Java archive). */
  zip?: true;
  /** Checked by a function of the first bytes (formats without one fixed prefix). */
  check?: (head: Uint8Array) => boolean;
}

/** Little- and big-endian TIFF. */
const TIFF: OpenRule = {
  kind: 'image',
  magic: [
    [0x49, 0x49, 0x2a, 0x00],
    [0x4d, 0x4d, 0x00, 0x2a],
  ],
};

const OPENABLE: Readonly<Record<string, OpenRule>> = {
  '.png': { kind: 'image', magic: [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]] },
  '.jpg': { kind: 'image', magic: [[0xff, 0xd8, 0xff]] },
  '.jpeg': { kind: 'image', magic: [[0xff, 0xd8, 0xff]] },
  '.gif': { kind: 'image', magic: [[0x47, 0x49, 0x46, 0x38]] },
  '.webp': { kind: 'image', magic: [[0x52, 0x49, 0x46, 0x46]] },
  '.bmp': { kind: 'image', magic: [[0x42, 0x4d]] },
  '.tif': TIFF,
  '.tiff': TIFF,
  '.pdf': { kind: 'document', magic: [[0x25, 0x50, 0x44, 0x46]] },
  '.docx': { kind: 'document', zip: true },
  '.xlsx': { kind: 'document', zip: true },
  '.pptx': { kind: 'document', zip: true },
  '.odt': { kind: 'document', zip: true },
  '.ods': { kind: 'document', zip: true },
  '.odp': { kind: 'document', zip: true },
  '.txt': { kind: 'document', text: true },
  '.md': { kind: 'document', text: true },
  '.csv': { kind: 'document', text: true },
  '.tsv': { kind: 'document', text: true },
  '.log': { kind: 'document', text: true },
  '.json': { kind: 'document', text: true },
  '.mp3': { kind: 'media', check: (head) => looksLikeMp3(head) },
  '.wav': { kind: 'media', magic: [[0x52, 0x49, 0x46, 0x46]] },
  '.ogg': { kind: 'media', magic: [[0x4f, 0x67, 0x67, 0x53]] },
  '.flac': { kind: 'media', magic: [[0x66, 0x4c, 0x61, 0x43]] },
  '.m4a': { kind: 'media', check: (head) => looksLikeIsoMedia(head) },
  '.mp4': { kind: 'media', check: (head) => looksLikeIsoMedia(head) },
  '.webm': { kind: 'media', magic: [[0x1a, 0x45, 0xdf, 0xa3]] },
};

/** Bytes of a file's start that `openableFile` looks at. */
export const OPENABLE_SNIFF_BYTES = 4096;

/** Markup that content-sniffing openers (xdg-open → `file --mime-type`) would hand a browser. */
const MARKUP =
  /<\s*(?:!doctype|html|head|body|script|iframe|svg|object|embed|meta|style|xml|\?xml)\b/i;

/**
 * True when `head` reads as plain text that no opener takes for something else: no NUL bytes,
 * not starting with `<` (HTML/XML), `#!` (a script) or `MZ`/ELF (a program), no HTML tags.
 */
export function looksLikePlainText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('<') || start.startsWith('#!') || start.startsWith('MZ')) return false;
  if (start.startsWith('\x7fELF')) return false;
  return !MARKUP.test(text);
}

/**
 * True for an MP3: an ID3v2 tag (`ID3`, a major version 2–4) or an MPEG audio frame header
 * (11 sync bits, then a version other than "reserved", layer II or III, and a bitrate and sample
 * rate that are not the reserved values). The header is checked this far because a bare sync
 * test would pass `FF FE`, the UTF-16 byte-order mark that an HTML page can start with.
 */
export function looksLikeMp3(head: Uint8Array): boolean {
  if (head[0] === 0x49 && head[1] === 0x44 && head[2] === 0x33) {
    const major = head[3] ?? 0;
    return major >= 2 && major <= 4;
  }
  const [first, second, third] = [head[0] ?? 0, head[1] ?? 0, head[2] ?? 0];
  if (first !== 0xff || (second & 0xe0) !== 0xe0) return false;
  const version = (second >> 3) & 0b11;
  const layer = (second >> 1) & 0b11;
  const bitrate = third >> 4;
  const sampleRate = (third >> 2) & 0b11;
  return (
    version !== 0b01 &&
    (layer === 0b01 || layer === 0b10) &&
    bitrate !== 0b1111 &&
    sampleRate !== 0b11
  );
}

/** Largest first box taken for an `ftyp` box (real ones hold a few brands: 20–40 bytes). */
const MAX_FTYP_BOX_BYTES = 1024;

/**
 * True for an ISO base media file (MP4, M4A): an `ftyp` box first, i.e. `ftyp` at offset 4
 * after a big-endian box size of 8 to `MAX_FTYP_BOX_BYTES` bytes. The size bound keeps a text
 * that merely has `ftyp` as its fifth to eighth characters (`<!--ftyp…`) out: its "size" would
 * be hundreds of megabytes.
 */
export function looksLikeIsoMedia(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  const size =
    (((head[0] ?? 0) << 24) | ((head[1] ?? 0) << 16) | ((head[2] ?? 0) << 8) | (head[3] ?? 0)) >>>
    0;
  const type = String.fromCharCode(head[4] ?? 0, head[5] ?? 0, head[6] ?? 0, head[7] ?? 0);
  return type === 'ftyp' && size >= 8 && size <= MAX_FTYP_BOX_BYTES;
}

/**
 * The extension of a file name as the opener sees it: lower case, with the dot; '' when there is
 * none. A trailing dot or space (which Windows strips) or a `:` (an NTFS stream) leaves no
 * extension, so `x.pdf.` and `x.pdf:run` are not openable.
 */
export function fileExtension(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  if (/[\s.:]$/.test(base) || base.includes(':')) return '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
}

/** The kind of an openable file name, by its extension alone; null when it is never opened. */
export function openableKindByName(name: string): OpenableKind | null {
  return OPENABLE[fileExtension(name)]?.kind ?? null;
}

/**
 * True for a ZIP whose first entry is not a Java archive's `META-INF/` (content-sniffing openers
 * would hand a JAR to Java). OOXML and ODF packages start with `[Content_Types].xml`, `mimetype`,
 * `_rels/` or `docProps/`.
 */
export function looksLikeOfficeZip(head: Uint8Array): boolean {
  if (!(head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04)) return false;
  if (head.length < 30) return false;
  const nameLength = (head[26] ?? 0) | ((head[27] ?? 0) << 8);
  const name = new TextDecoder().decode(head.subarray(30, 30 + nameLength));
  return !name.toUpperCase().startsWith('META-INF');
}

/**
 * The kind when `name` may be opened and its first bytes (`OPENABLE_SNIFF_BYTES` of them) agree
 * with its extension; null otherwise (a `.png` that is not a PNG, a `.docx` that is not a ZIP
 * container, a `.txt` holding HTML).
 */
export function openableFile(name: string, head: Uint8Array): OpenableKind | null {
  const rule = OPENABLE[fileExtension(name)];
  if (!rule) return null;
  if (rule.text) return looksLikePlainText(head) ? rule.kind : null;
  if (rule.zip) return looksLikeOfficeZip(head) ? rule.kind : null;
  if (rule.check) return rule.check(head) ? rule.kind : null;
  if (!rule.magic) return rule.kind;
  const matches = rule.magic.some((prefix) => prefix.every((byte, index) => head[index] === byte));
  return matches ? rule.kind : null;
}
