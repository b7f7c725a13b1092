/**
 * Which viewer shows a file, and the most of it a viewer takes (pure: unit-tested). Decided by the
 * extension (a tool names its files; the MIME type it reports is a guess from the name too). Past
 * its cap a file is not read at all: the panel says "too large to preview — open or download".
 */
import { fileExtension } from '../../../shared/openable-files';

/** The viewers. */
export type ViewerKind =
  | 'markdown'
  | 'json'
  | 'code'
  | 'text'
  | 'image'
  | 'csv'
  | 'xlsx'
  | 'html'
  | 'svg'
  | 'pdf'
  | 'docx'
  | 'pptx';

const MIB = 1024 * 1024;

/** The largest file each viewer reads (bytes). */
export const VIEWER_LIMITS: Readonly<Record<ViewerKind, number>> = {
  // Rendered Markdown costs far more than text per byte.
  markdown: 1 * MIB,
  json: 4 * MIB,
  code: 4 * MIB,
  text: 4 * MIB,
  // The browser decodes images itself, off the main thread.
  image: 40 * MIB,
  // Parsed in a worker; 100,000 rows × 50 columns of short cells is ~30 MB.
  csv: 100 * MIB,
  // Unzipped and read in a worker (`xlsx-read.ts`, which caps what it unzips too); a 100,000 × 50
  // sheet is ~25 MB zipped.
  xlsx: 60 * MIB,
  html: 4 * MIB,
  svg: 4 * MIB,
  // Parsed by pdf.js in its worker; pages are drawn only while on screen.
  pdf: 100 * MIB,
  // Converted whole to HTML (mammoth, in a worker); images become data: URLs in the page.
  docx: 20 * MIB,
  // Slide texts and images (the images are most of a deck's size).
  pptx: 100 * MIB,
};

/** Text above this many characters is shown without highlighting (highlighting runs on the main thread). */
export const HIGHLIGHT_LIMIT_CHARS = 256 * 1024;

const CODE_EXTENSIONS: ReadonlySet<string> = new Set([
  'py',
  'js',
  'mjs',
  'cjs',
  'ts',
  'tsx',
  'jsx',
  'sh',
  'bash',
  'zsh',
  'r',
  'rb',
  'go',
  'rs',
  'java',
  'kt',
  'c',
  'h',
  'cc',
  'cpp',
  'hpp',
  'cs',
  'swift',
  'php',
  'pl',
  'lua',
  'sql',
  'css',
  'scss',
  'yaml',
  'yml',
  'toml',
  'ini',
  'xml',
  'ipynb',
  'diff',
  'patch',
  'tex',
  'dockerfile',
  'makefile',
]);

const BY_EXTENSION: Readonly<Record<string, ViewerKind>> = {
  md: 'markdown',
  markdown: 'markdown',
  json: 'json',
  geojson: 'json',
  txt: 'text',
  log: 'text',
  text: 'text',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  csv: 'csv',
  tsv: 'csv',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  pdf: 'pdf',
  docx: 'docx',
  pptx: 'pptx',
  html: 'html',
  htm: 'html',
  svg: 'svg',
};

/** The viewer for a file name; null when there is none (the panel offers open / download). */
export function viewerKind(name: string): ViewerKind | null {
  const extension = fileExtension(name).slice(1);
  if (extension === '') return null;
  return BY_EXTENSION[extension] ?? (CODE_EXTENSIONS.has(extension) ? 'code' : null);
}

/** The highlighter's language for a code file (its extension; `ipynb` is JSON). */
export function codeLanguage(name: string): string {
  const extension = fileExtension(name).slice(1);
  if (extension === 'ipynb') return 'json';
  if (extension === 'yml') return 'yaml';
  return extension;
}

/** True when a file of `size` bytes is past its viewer's cap. */
export function tooLargeToView(kind: ViewerKind, size: number): boolean {
  return size > VIEWER_LIMITS[kind];
}
