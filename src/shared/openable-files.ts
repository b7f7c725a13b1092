/**
 * Which files the desktop's "Open" hands to the system's default app. A tool's output (a model's
 * python_execute, an MCP result) is untrusted: a file named `run-me.bat`, `page.html` or
 * `notes.desktop` would run code on one click. Only documents, raster images and media whose
 * formats carry no script the opener runs are opened; everything else is shown in its folder.
 * Pure: the renderer hides "Open" with the same rule the host enforces.
 */
import { fileFormatOf } from './file-signature';

/** What kind of file an openable extension is. */
export type OpenableKind = 'document' | 'image' | 'media';

/**
 * Extensions (lower case, with the dot) that are opened, and how the first bytes must look: every
 * type is checked (its format by `fileFormatOf`, or a check of its own), so HTML saved as
 * `clip.mp4` never reaches a browser through an opener that sniffs content. SVG, HTML, XML,
 * scripts, macro-enabled Office files, RTF (embedded objects), archives and anything unknown are
 * not listed.
 */
interface OpenRule {
  kind: OpenableKind;
  /** The format the first bytes must have (see src/shared/file-signature.ts). */
  format?: FileFormat;
  /** Plain text: checked by `looksLikePlainText` (openers that sniff content would see HTML). */
  text?: true;
  /** A ZIP-based office document: checked by `looksLikeOfficeZip` (not a Java archive). */
  zip?: true;
}

type FileFormat = NonNullable<ReturnType<typeof fileFormatOf>>;

const image = (format: FileFormat): OpenRule => ({ kind: 'image', format });
const media = (format: FileFormat): OpenRule => ({ kind: 'media', format });
const office: OpenRule = { kind: 'document', zip: true };
const text: OpenRule = { kind: 'document', text: true };

const OPENABLE: Readonly<Record<string, OpenRule>> = {
  '.png': image('png'),
  '.jpg': image('jpeg'),
  '.jpeg': image('jpeg'),
  '.gif': image('gif'),
  '.webp': image('webp'),
  '.bmp': image('bmp'),
  '.tif': image('tiff'),
  '.tiff': image('tiff'),
  '.pdf': { kind: 'document', format: 'pdf' },
  '.docx': office,
  '.xlsx': office,
  '.pptx': office,
  '.odt': office,
  '.ods': office,
  '.odp': office,
  '.txt': text,
  '.md': text,
  '.csv': text,
  '.tsv': text,
  '.log': text,
  '.json': text,
  '.mp3': media('mp3'),
  '.wav': media('wav'),
  '.ogg': media('ogg'),
  '.flac': media('flac'),
  '.m4a': media('iso-media'),
  '.mp4': media('iso-media'),
  '.webm': media('webm'),
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
  if (fileFormatOf(head) !== 'zip' || head.length < 30) return false;
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
  return fileFormatOf(head) === rule.format ? rule.kind : null;
}
