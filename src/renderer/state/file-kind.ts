/**
 * What kind of file an attachment is, for its icon and whether it gets a thumbnail: by MIME type
 * first, then by extension (a browser gives an empty type for many files: `.py`, `.md`, `.toml`).
 */

export type FileKind =
  'text' | 'code' | 'sheet' | 'archive' | 'image' | 'audio' | 'video' | 'other';

/** Raster images every Chromium draws from a blob: URL (SVG stays an icon: it is a document). */
const THUMBNAIL_MIMES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
]);

const BY_EXTENSION: Readonly<Record<string, FileKind>> = {
  txt: 'text',
  md: 'text',
  log: 'text',
  pdf: 'text',
  doc: 'text',
  docx: 'text',
  rtf: 'text',
  csv: 'sheet',
  tsv: 'sheet',
  xls: 'sheet',
  xlsx: 'sheet',
  ods: 'sheet',
  zip: 'archive',
  gz: 'archive',
  tgz: 'archive',
  tar: 'archive',
  '7z': 'archive',
  rar: 'archive',
  py: 'code',
  js: 'code',
  ts: 'code',
  tsx: 'code',
  jsx: 'code',
  json: 'code',
  yaml: 'code',
  yml: 'code',
  toml: 'code',
  html: 'code',
  css: 'code',
  sh: 'code',
  sql: 'code',
  c: 'code',
  cpp: 'code',
  h: 'code',
  rs: 'code',
  go: 'code',
  java: 'code',
  svg: 'image',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  mp3: 'audio',
  wav: 'audio',
  flac: 'audio',
  ogg: 'audio',
  m4a: 'audio',
  mp4: 'video',
  mov: 'video',
  webm: 'video',
  mkv: 'video',
};

/** The kind of a file named `name` with type `mime` (either may be empty). */
export function fileKind(name: string, mime: string): FileKind {
  const type = mime.toLowerCase();
  if (type === 'text/csv' || type.includes('spreadsheet') || type.includes('excel')) return 'sheet';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  if (/zip|gzip|x-tar|x-7z|rar/u.test(type)) return 'archive';
  const dot = name.lastIndexOf('.');
  const extension = dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
  const known = BY_EXTENSION[extension];
  if (known !== undefined) return known;
  if (type === 'application/json' || type.includes('javascript')) return 'code';
  if (type.startsWith('text/')) return 'text';
  return 'other';
}

/** True when a file of type `mime` gets a thumbnail in the composer. */
export function hasThumbnail(mime: string): boolean {
  return THUMBNAIL_MIMES.has(mime.toLowerCase());
}
