/**
 * Writes a backup (see `backup-format.ts`) into a folder: the database copied with the online
 * backup API into a staging folder beside the target, the secrets sealed with the user's
 * passphrase (or left out), then one tar stream — each file hashed as it is packed, the manifest
 * last — written to a hidden `.partial` name, flushed to disk and renamed. A failure (a full disk,
 * a file that changed while it was read, a cancel) removes the partial file and the staging
 * folder: a backup either exists whole under its name or not at all. Verifying it is the caller's
 * next step (`verifyBackup`), so a backup is never called good before it was read back.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, readdir, rename, rm } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { finished } from 'node:stream/promises';
import { pack as createPack, type Pack } from 'tar-stream';
import { AivoryError } from '../../../shared/errors';
import type { SecretStore } from '../../core/ports';
import { diskFull } from '../../policy/storage-errors';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  backupFileName,
  DATABASE_ENTRY,
  FILE_FOLDERS,
  type BackupHeader,
  type BackupManifest,
  type FileFolder,
  HEADER_ENTRY,
  MANIFEST_ENTRY,
  type ManifestFile,
  SECRETS_ENTRY,
  CHUNK_BYTES,
} from './backup-format';
import type { DatabaseFacts } from './database-copy';
import { sealSecrets } from './secret-box';

/** Where the data a backup carries is. */
export interface BackupSources {
  /** Copies the live database to `target` (`copyDatabase` over the store's connection). */
  copyDatabase: (target: string, signal?: AbortSignal) => Promise<DatabaseFacts>;
  /** The folders of files, by their name in the archive; a missing folder is empty. */
  folders: Record<FileFolder, string>;
  secrets: SecretStore;
  /** Set when workspaces are kept in S3-compatible storage (named here), not on this disk. */
  workspacesElsewhere?: string;
}

export interface BackupProgress {
  phase: 'database' | 'files';
  done: number;
  total: number;
}

export interface WriteBackupOptions {
  /** The folder the backup is written to (created if missing). */
  destination: string;
  /** The passphrase sealing the secrets; null leaves them out. */
  passphrase: string | null;
  now: Date;
  signal?: AbortSignal;
  onProgress?: (progress: BackupProgress) => void;
}

export interface WrittenBackup {
  file: string;
  size: number;
  manifest: BackupManifest;
  schemaVersion: number;
}

interface PlannedFile {
  entry: string;
  source: string;
  size: number;
}

/** Writes a backup of `sources` into `options.destination` and returns its path and manifest. */
export async function writeBackup(
  sources: BackupSources,
  options: WriteBackupOptions,
): Promise<WrittenBackup> {
  const { destination } = options;
  await mkdir(destination, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
    throw writeFailure(destination, error);
  });
  const name = backupFileName(options.now);
  const file = join(destination, name);
  const partial = join(destination, `.${name}.partial`);
  let staging: string | null = null;
  try {
    staging = await mkdtemp(join(destination, '.aivory-backup-staging-'));
    options.onProgress?.({ phase: 'database', done: 0, total: 1 });
    const databaseCopy = join(staging, 'aivory.db');
    const facts = await sources.copyDatabase(databaseCopy, options.signal);
    const secrets = await sealedSecrets(sources.secrets, options.passphrase);
    const planned = await planFiles(sources.folders, options.signal);
    const databaseSize = (await lstat(databaseCopy)).size;
    planned.unshift({ entry: DATABASE_ENTRY, source: databaseCopy, size: databaseSize });
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      createdAt: options.now.toISOString(),
      schemaVersion: facts.schemaVersion,
    };
    const total = planned.reduce((sum, item) => sum + item.size, 0);
    const manifest = await writeArchive(partial, header, planned, secrets.sealed, {
      total,
      signal: options.signal,
      onProgress: options.onProgress,
      manifestFor: (files) => ({
        files,
        counts: facts.counts,
        secrets: secrets.state,
        roots: { ...sources.folders, sep },
        ...(sources.workspacesElsewhere === undefined
          ? {}
          : { workspacesElsewhere: sources.workspacesElsewhere }),
      }),
    });
    await rename(partial, file);
    await syncFolder(destination);
    return {
      file,
      size: (await lstat(file)).size,
      manifest,
      schemaVersion: facts.schemaVersion,
    };
  } catch (error) {
    await rm(partial, { force: true }).catch(() => undefined);
    throw options.signal?.aborted === true
      ? new AivoryError('canceled', 'The backup was canceled; nothing was kept.')
      : writeFailure(destination, error);
  } finally {
    if (staging !== null) await rm(staging, { recursive: true, force: true }).catch(() => {});
  }
}

/** The secrets as `secrets.enc` text, or why there is none. */
async function sealedSecrets(
  store: SecretStore,
  passphrase: string | null,
): Promise<{ sealed: string | null; state: BackupManifest['secrets'] }> {
  const refs = await store.refs();
  if (refs.length === 0) return { sealed: null, state: 'none' };
  if (passphrase === null) return { sealed: null, state: 'left-out' };
  const values: Record<string, string> = {};
  for (const ref of refs) {
    const value = await store.get(ref);
    if (value !== null) values[ref] = value;
  }
  return { sealed: await sealSecrets(values, passphrase), state: 'encrypted' };
}

/** Every regular file under the folders (symbolic links and special files are not followed). */
async function planFiles(
  folders: Record<FileFolder, string>,
  signal?: AbortSignal,
): Promise<PlannedFile[]> {
  const planned: PlannedFile[] = [];
  const walk = async (directory: string, entryPrefix: string): Promise<void> => {
    signal?.throwIfAborted();
    let names: string[];
    try {
      names = (await readdir(directory)).sort();
    } catch (error) {
      if (isCode(error, 'ENOENT')) return;
      throw error;
    }
    for (const name of names) {
      const source = join(directory, name);
      const stats = await lstat(source);
      if (stats.isDirectory()) await walk(source, `${entryPrefix}/${name}`);
      else if (stats.isFile()) {
        planned.push({ entry: `${entryPrefix}/${name}`, source, size: stats.size });
      }
    }
  };
  for (const folder of FILE_FOLDERS) {
    const directory = folders[folder];
    if (directory !== undefined) await walk(directory, `files/${folder}`);
  }
  return planned;
}

interface ArchivePlan {
  total: number;
  signal?: AbortSignal;
  onProgress?: (progress: BackupProgress) => void;
  /** The manifest of the files packed, written as the last entry. */
  manifestFor: (files: ManifestFile[]) => BackupManifest;
}

/**
 * Packs the header, the secrets, the planned files (each hashed as it goes) and the manifest into
 * `partial` (a new file), then flushes it to disk. On a failure the streams are destroyed and the
 * error thrown; the caller removes the file.
 */
async function writeArchive(
  partial: string,
  header: BackupHeader,
  planned: readonly PlannedFile[],
  sealed: string | null,
  plan: ArchivePlan,
): Promise<BackupManifest> {
  const tar = createPack();
  const output = createWriteStream(partial, {
    flags: 'wx',
    mode: 0o600,
    highWaterMark: CHUNK_BYTES,
  });
  // A failure reaches the caller through `written` or the entry's callback; the pack's own
  // error event (when it is destroyed after one) must not be an uncaught exception.
  tar.on('error', () => undefined);
  tar.pipe(output);
  const written = finished(output);
  // Without a listener a rejection that lands before the await below would be unhandled.
  written.catch(() => undefined);
  try {
    await addBuffer(tar, HEADER_ENTRY, Buffer.from(JSON.stringify(header)));
    const files: ManifestFile[] = [];
    if (sealed !== null) {
      const bytes = Buffer.from(sealed);
      await addBuffer(tar, SECRETS_ENTRY, bytes);
      files.push({ path: SECRETS_ENTRY, size: bytes.length, sha256: sha256(bytes) });
    }
    let done = 0;
    for (const item of planned) {
      plan.signal?.throwIfAborted();
      files.push({ path: item.entry, size: item.size, sha256: await addFile(tar, item, written) });
      done += item.size;
      plan.onProgress?.({ phase: 'files', done, total: plan.total });
    }
    const manifest = plan.manifestFor(files);
    await addBuffer(tar, MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest)));
    tar.finalize();
    await written;
    await syncFile(partial);
    return manifest;
  } catch (error) {
    tar.destroy();
    output.destroy();
    throw error;
  }
}

/** Adds an entry holding `bytes`. */
function addBuffer(tar: Pack, name: string, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    tar.entry({ name, size: bytes.length, mode: 0o600, mtime: new Date() }, bytes, (error) =>
      error ? reject(error) : resolve(),
    );
  });
}

/**
 * Adds the file as an entry of its planned size, hashing what is read; returns the hash. A file
 * that shrank since it was listed fails the backup (tar-stream refuses a short entry); one that
 * grew is read only to its planned size (an artifact or upload is never rewritten in place, so
 * neither happens in use).
 */
async function addFile(tar: Pack, item: PlannedFile, written: Promise<void>): Promise<string> {
  const hash = createHash('sha256');
  let entryDone: () => void = () => {};
  let entryFailed: (error: Error) => void = () => {};
  const added = new Promise<void>((resolve, reject) => {
    entryDone = resolve;
    entryFailed = reject;
  });
  const entry = tar.entry(
    { name: item.entry, size: item.size, mode: 0o600, mtime: new Date() },
    (error) => (error ? entryFailed(error) : entryDone()),
  );
  entry.on('error', (error: Error) => entryFailed(error));
  // Awaited below in a race: a rejection after the race was decided is not unhandled.
  added.catch(() => undefined);
  // A file of 0 bytes: tar-stream ends its entry at once.
  if (item.size > 0) {
    const input = createReadStream(item.source, {
      start: 0,
      end: item.size - 1,
      highWaterMark: CHUNK_BYTES,
    });
    for await (const chunk of input as AsyncIterable<Buffer>) {
      hash.update(chunk);
      if (!entry.write(chunk)) await Promise.race([drained(entry), written]);
    }
  }
  entry.end(() => undefined);
  await Promise.race([added, written]);
  return hash.digest('hex');
}

function drained(entry: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => entry.once('drain', () => resolve()));
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename in `folder` durable (POSIX; Windows cannot open a folder and needs no call). */
async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  await syncFile(folder);
}

/** A failure to write the backup, as the user reads it. */
function writeFailure(destination: string, error: unknown): Error {
  if (error instanceof AivoryError) return error;
  if (isCode(error, 'ENOSPC') || isCode(error, 'SQLITE_FULL')) return diskFull(destination, error);
  if (isCode(error, 'EACCES') || isCode(error, 'EROFS') || isCode(error, 'EPERM')) {
    return new AivoryError(
      'config',
      `The backup could not be written to ${destination}: the folder cannot be written. Choose another folder.`,
      { cause: error },
    );
  }
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new AivoryError(
    'storage',
    `The backup could not be written to ${destination}: ${reason}`,
    {
      cause: error,
    },
  );
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
