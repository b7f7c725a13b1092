/**
 * What an Aivory backup is: one tar file, written and read as a stream. Its first entry names the
 * format (so a foreign tar is refused before anything is read further), then the database (a
 * consistent copy), the encrypted secrets if the user chose a passphrase, the files (artifacts,
 * uploads, saved sandbox workspaces) and last the manifest, which holds every entry's size and
 * SHA-256 and the database's row counts, so a reader verifies the whole file against it.
 */
import { z } from 'zod';

/** The format marker (first entry) and its version; a newer version is refused by this build. */
export const BACKUP_FORMAT = 'aivory-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** Entry names inside the archive. */
export const HEADER_ENTRY = 'aivory-backup.json';
export const DATABASE_ENTRY = 'database/aivory.db';
export const SECRETS_ENTRY = 'secrets.enc';
export const MANIFEST_ENTRY = 'manifest.json';

/** The folders of the data directory a backup carries, by their name inside the archive. */
export const FILE_FOLDERS = ['artifacts', 'uploads', 'workspaces'] as const;
export type FileFolder = (typeof FILE_FOLDERS)[number];

/** The tables whose row counts a backup records and a verification compares. */
export const COUNTED_TABLES = [
  'conversations',
  'messages',
  'message_parts',
  'turn_records',
  'memories',
  'models',
  'settings',
  'mcp_services',
  'mcp_tools',
  'skills',
  'prompt_templates',
] as const;

/**
 * Files are read and written 1 MiB at a time: with Node's 64 KiB default, the per-chunk cost of
 * hashing and packing made a backup ~5× a plain `tar -cf` (bench/backup.ts).
 */
export const CHUNK_BYTES = 1024 * 1024;

/** The largest header or manifest entry read into memory (a manifest of 100,000 files fits). */
export const MAX_METADATA_BYTES = 64 * 1024 * 1024;

export const backupHeaderSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().positive(),
  createdAt: z.string(),
  schemaVersion: z.number().int().nonnegative(),
});
export type BackupHeader = z.infer<typeof backupHeaderSchema>;

const manifestFileSchema = z.object({
  path: z.string().min(1),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ManifestFile = z.infer<typeof manifestFileSchema>;

export const backupManifestSchema = z.object({
  files: z.array(manifestFileSchema),
  counts: z.record(z.string(), z.number().int().nonnegative()),
  /** `encrypted`: secrets.enc holds them; `left-out`: the user chose none; `none`: none stored. */
  secrets: z.enum(['encrypted', 'left-out', 'none']),
  /** Set when the workspaces live in S3-compatible storage, which a backup does not copy. */
  workspacesElsewhere: z.string().optional(),
  /**
   * Where the folders of files were on the machine backed up, and its path separator: messages
   * name their files by absolute path, so a restore elsewhere rewrites those paths.
   */
  roots: z
    .object({ artifacts: z.string(), uploads: z.string(), workspaces: z.string(), sep: z.string() })
    .optional(),
});
export type BackupManifest = z.infer<typeof backupManifestSchema>;

/**
 * Whether `name` may be an entry of a backup: the fixed entries, or a relative path under one of
 * the file folders with no empty, `.` or `..` part, no backslash and no control character. The
 * reader refuses any other name before it writes a byte, so a hostile archive cannot place a file
 * outside the staging folder.
 */
export function isAllowedEntryName(name: string): boolean {
  if (name === HEADER_ENTRY || name === DATABASE_ENTRY || name === SECRETS_ENTRY) return true;
  if (name === MANIFEST_ENTRY) return true;
  const parts = name.split('/');
  if (parts.length < 3 || parts[0] !== 'files') return false;
  if (!FILE_FOLDERS.some((folder) => folder === parts[1])) return false;
  return parts.every(
    (part) =>
      part.length > 0 &&
      part !== '.' &&
      part !== '..' &&
      !part.includes('\\') &&
      // eslint-disable-next-line no-control-regex -- control characters are what is refused
      !/[\u0000-\u001f\u007f]/.test(part),
  );
}

/** The file name of a backup written at `date`: `aivory-backup-20261208-091500.tar` (UTC). */
export function backupFileName(date: Date): string {
  const stamp = date.toISOString().replace(/[-:]/g, '').replace('T', '-').replace(/\..*$/, '');
  return `aivory-backup-${stamp}.tar`;
}
