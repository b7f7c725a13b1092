/**
 * Restores a backup into a data folder: an empty one (a new computer) or the one in use, which is
 * backed up first. Nothing is replaced before the whole backup was read, checked and extracted
 * into a staging folder inside the data folder, and its secrets opened with the passphrase. The
 * swap is renames only: each current item (the database and its WAL, the folders of files) moves
 * to an aside folder and the restored one takes its place; a failure moves everything back. A
 * marker file (`RESTORE_MARKER`) exists while the swap runs: the app refuses to start under it,
 * and the next restore first puts back what an interrupted one had moved aside.
 */
import Database from 'better-sqlite3';
import { access, cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AivoryError } from '../../../shared/errors';
import type { SecretStore } from '../../core/ports';
import {
  type BackupManifest,
  DATABASE_ENTRY,
  FILE_FOLDERS,
  type FileFolder,
  SECRETS_ENTRY,
} from './backup-format';
import { readBackup } from './backup-reader';
import { rebaseFilePaths } from './file-paths';
import { recoverInterruptedRestore, RESTORE_MARKER, type SwapStep, undo } from './restore-marker';
import { openSecrets } from './secret-box';

const DATABASE_FILES = ['aivory.db', 'aivory.db-wal', 'aivory.db-shm'] as const;

export interface RestoreTarget {
  dataDir: string;
  /** Where each folder of files lives in this installation (overrides honoured). */
  folders: Record<FileFolder, string>;
  secrets: SecretStore;
  latestSchemaVersion: number;
}

export interface RestoreOptions {
  /**
   * Asked once the backup has been checked and only when it holds sealed secrets: the passphrase
   * that opens them, or null to restore without them.
   */
  passphrase: () => Promise<string | null>;
  /**
   * Backs up the current data before anything is replaced, given the connection that holds the
   * database exclusively and the passphrase the user gave for the backup (null: none); returns
   * the backup's path. Called only when there is a database.
   */
  backupCurrent: (database: Database.Database, passphrase: string | null) => Promise<string>;
  signal?: AbortSignal;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** The backup of the data that was replaced, or null for an empty folder. */
  previous: string | null;
  /**
   * Where files the folder held without a database (so without a backup of them) were moved,
   * or null: nothing is deleted that was not backed up first.
   */
  kept: string | null;
  secretsRestored: number;
}

/** Restores `file` into `target`; see the module comment for the order of things. */
export async function restoreBackup(
  file: string,
  target: RestoreTarget,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const { dataDir } = target;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  recoverInterruptedRestore(dataDir);
  const staging = await mkdtemp(join(dataDir, '.restore-staging-'));
  let holder: Database.Database | null = null;
  try {
    const checked = await readBackup(file, {
      extractTo: staging,
      latestSchemaVersion: target.latestSchemaVersion,
      signal: options.signal,
    });
    const secrets = await secretsOf(staging, checked.manifest, options.passphrase);
    if (checked.manifest.roots !== undefined) {
      rebaseFilePaths(join(staging, DATABASE_ENTRY), checked.manifest.roots, target.folders);
    }
    holder = holdDatabase(join(dataDir, 'aivory.db'));
    const previous =
      holder === null ? null : await options.backupCurrent(holder, secrets?.passphrase ?? null);
    if (holder !== null) {
      holder.pragma('wal_checkpoint(TRUNCATE)');
      holder.close();
      holder = null;
    }
    // Without a database there was no backup of what the folder held: it is kept, not deleted.
    const kept = await swapIn(staging, target, previous === null);
    const values = Object.entries(secrets?.values ?? {});
    for (const [ref, value] of values) await target.secrets.set(ref, value);
    return { manifest: checked.manifest, previous, kept, secretsRestored: values.length };
  } finally {
    holder?.close();
    await rm(staging, { recursive: true, force: true });
  }
}

/** The backup's secrets opened with the passphrase; null when there are none or none wanted. */
async function secretsOf(
  staging: string,
  manifest: BackupManifest,
  passphrase: () => Promise<string | null>,
): Promise<{ values: Record<string, string>; passphrase: string } | null> {
  if (manifest.secrets !== 'encrypted') return null;
  const given = await passphrase();
  if (given === null) return null;
  const values = await openSecrets(await readFile(join(staging, SECRETS_ENTRY), 'utf8'), given);
  return { values, passphrase: given };
}

/**
 * Opens the current database and takes it exclusively (locking mode EXCLUSIVE and a write
 * transaction): it fails at once when another process has it open, and keeps any from opening it
 * until the connection closes. Null when there is no database.
 */
function holdDatabase(path: string): Database.Database | null {
  let database: Database.Database;
  try {
    database = new Database(path, { fileMustExist: true, timeout: 0 });
  } catch {
    return null;
  }
  try {
    database.pragma('locking_mode = EXCLUSIVE');
    database.exec('BEGIN EXCLUSIVE; COMMIT');
    return database;
  } catch (error) {
    database.close();
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      throw new AivoryError(
        'busy',
        'Aivory is open in another window or process (the desktop app, aivory serve or a chat). Close it, then restore again; nothing was changed.',
      );
    }
    throw error;
  }
}

/**
 * Moves the current items aside and the staged ones in, under the marker; undoes it on failure.
 * What was moved aside is deleted (a backup of it was made), or kept when `keep` (none was):
 * then its folder, renamed `restore-previous-<time>`, is returned.
 */
async function swapIn(
  staging: string,
  target: RestoreTarget,
  keep: boolean,
): Promise<string | null> {
  const { dataDir } = target;
  const aside = await mkdtemp(join(dataDir, '.restore-previous-'));
  const marker = join(dataDir, RESTORE_MARKER);
  const steps: SwapStep[] = [];
  const record = (): Promise<void> =>
    writeFile(marker, JSON.stringify({ pid: process.pid, aside, steps }), { mode: 0o600 });
  const current: { from: string; name: string }[] = [
    ...DATABASE_FILES.map((name) => ({ from: join(dataDir, name), name })),
    ...FILE_FOLDERS.map((folder) => ({ from: target.folders[folder], name: folder })),
  ];
  const staged: { from: string; to: string }[] = [
    { from: join(staging, DATABASE_ENTRY), to: join(dataDir, 'aivory.db') },
    ...FILE_FOLDERS.map((folder) => ({
      from: join(staging, 'files', folder),
      to: target.folders[folder],
    })),
  ];
  await record();
  try {
    for (const item of current) {
      if (!(await exists(item.from))) continue;
      await moveTo(item.from, join(aside, item.name));
      steps.push({ aside: join(aside, item.name), from: item.from });
      await record();
    }
    for (const item of staged) {
      if (!(await exists(item.from))) continue;
      // Recorded first: a kill between the two leaves at most a step with nothing to undo.
      steps.push({ placed: item.to });
      await record();
      await moveTo(item.from, item.to);
    }
  } catch (error) {
    undo(steps);
    await rm(marker, { force: true });
    await rm(aside, { recursive: true, force: true });
    throw error;
  }
  await rm(marker, { force: true });
  if (keep && steps.some((step) => 'aside' in step)) {
    const kept = join(
      dataDir,
      `restore-previous-${new Date().toISOString().replace(/[:.]/g, '-')}`,
    );
    await rename(aside, kept);
    return kept;
  }
  await rm(aside, { recursive: true, force: true });
  return null;
}

/** A rename, or a copy and delete when the two paths are on different disks. */
async function moveTo(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EXDEV') throw error;
    await cp(from, to, { recursive: true, errorOnExist: true, force: false });
    await rm(from, { recursive: true, force: true });
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
