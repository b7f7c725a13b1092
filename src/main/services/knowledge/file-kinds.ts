/**
 * What a knowledge folder's file is read as, by its name, and how large it may be. The name only
 * proposes: the bytes decide whether a "text" file is text (`text-extraction.ts`).
 */
import { formatBytes } from '../../../shared/byte-size';

export type KnowledgeKind = 'markdown' | 'text' | 'code' | 'html' | 'csv' | 'pdf';

/** 20 MiB of a text-bearing file: a book is ~1 MiB; a bigger one is a log or a data dump. */
export const MAX_TEXT_FILE_BYTES = 20 * 1024 * 1024;
/** 64 MiB of PDF: scanned documents are large for little text, and pdf.js reads it in memory. */
export const MAX_PDF_FILE_BYTES = 64 * 1024 * 1024;

const MARKDOWN = ['md', 'markdown', 'mdx', 'mdown'];
const TEXT = ['txt', 'text', 'log', 'rst', 'org', 'adoc', 'asciidoc', 'tex', 'srt', 'vtt'];
const CODE = [
  ...['ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'py', 'pyi', 'rb', 'go', 'rs', 'java', 'kt', 'kts'],
  ...['c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'cs', 'fs', 'swift', 'm', 'mm', 'php', 'pl'],
  ...['sh', 'bash', 'zsh', 'fish', 'ps1', 'bat', 'sql', 'r', 'jl', 'lua', 'scala', 'clj', 'ex'],
  ...['exs', 'erl', 'hs', 'ml', 'dart', 'vue', 'svelte', 'css', 'scss', 'sass', 'less', 'json'],
  ...['jsonc', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'xml', 'gradle', 'cmake', 'proto'],
  ...['graphql', 'tf', 'nix', 'zig', 'ipynb', 'env'],
];
const HTML = ['html', 'htm', 'xhtml'];
const CSV = ['csv', 'tsv'];
/** Office documents: no parser for them runs in the app's main process yet. */
const OFFICE = ['docx', 'xlsx', 'pptx', 'doc', 'xls', 'ppt', 'odt', 'ods', 'odp', 'rtf'];
/** Names without an extension that are text by custom. */
const TEXT_NAMES = ['readme', 'license', 'licence', 'changelog', 'makefile', 'dockerfile', 'notes'];

const KINDS = new Map<string, KnowledgeKind>([
  ...MARKDOWN.map((extension) => [extension, 'markdown'] as const),
  ...TEXT.map((extension) => [extension, 'text'] as const),
  ...CODE.map((extension) => [extension, 'code'] as const),
  ...HTML.map((extension) => [extension, 'html'] as const),
  ...CSV.map((extension) => [extension, 'csv'] as const),
  ['pdf', 'pdf'],
]);

export type KindVerdict =
  { kind: KnowledgeKind; maxBytes: number } | { skip: string; kind: string | null };

/** What `relativePath` is read as, or why it is skipped without being opened. */
export function kindOf(relativePath: string): KindVerdict {
  const name = relativePath.slice(relativePath.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1) : '';
  if (extension === '') {
    if (TEXT_NAMES.includes(name)) return { kind: 'text', maxBytes: MAX_TEXT_FILE_BYTES };
    return { skip: 'no file extension: not a kind Aivory reads', kind: null };
  }
  const kind = KINDS.get(extension);
  if (kind !== undefined) {
    return { kind, maxBytes: kind === 'pdf' ? MAX_PDF_FILE_BYTES : MAX_TEXT_FILE_BYTES };
  }
  if (OFFICE.includes(extension)) {
    return {
      skip: `not read yet: .${extension} documents are not indexed in this version`,
      kind: 'office',
    };
  }
  return { skip: `not a kind Aivory reads (.${extension})`, kind: null };
}

/** "too large (2.0 GiB; the limit is 20 MiB)": the same words as a refused read. */
export function tooLarge(size: number, maxBytes: number): string {
  return `too large (${formatBytes(size)}; the limit is ${formatBytes(maxBytes)})`;
}
