/**
 * Backups, wired: which folders of this installation a backup carries (the overrides of
 * `AIVORY_ARTIFACTS_DIR` and `SANDBOX_ARCHIVE_DIR` honoured; workspaces in S3-compatible storage
 * are named, not copied), the default folder (`backups/` in the data folder), and the rule that a
 * backup is verified — read back whole — before it is reported written. A restore runs without
 * the app open (`restoreFromBackup`): it replaces the database the app would hold.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { AivoryError } from '../../shared/errors';
import type { SecretStore } from '../core/ports';
import { type BackupManifest, type FileFolder } from '../adapters/backup/backup-format';
import { type CheckedBackup, readBackup } from '../adapters/backup/backup-reader';
import { type RestoreResult, restoreBackup } from '../adapters/backup/backup-restore';
import {
  type BackupProgress,
  type BackupSources,
  writeBackup,
} from '../adapters/backup/backup-writer';
import { copyDatabase, type DatabaseFacts } from '../adapters/backup/database-copy';
import { resolveDataDir } from '../adapters/data-dir';
import { FileSecretStore } from '../adapters/secrets/file-secret-store';
import { MIGRATIONS } from '../adapters/sqlite/migrations';

export type { BackupProgress, CheckedBackup, RestoreResult };

export interface CreateBackupOptions {
  /** The folder to write to; the data folder's `backups/` when absent. */
  destination?: string;
  /** Seals the secrets; null leaves them out. */
  passphrase: string | null;
  signal?: AbortSignal;
  onProgress?: (progress: BackupProgress) => void;
}

export interface CreatedBackup {
  file: string;
  size: number;
  manifest: BackupManifest;
  schemaVersion: number;
}

export interface BackupService {
  /** `backups/` in the data folder: where a backup goes when no folder is named. */
  readonly defaultFolder: string;
  /** Writes a backup and reads it back; a backup that does not verify is removed and thrown. */
  create(options: CreateBackupOptions): Promise<CreatedBackup>;
  /** Reads `file` back whole and checks it (see `backup-reader.ts`). */
  verify(file: string, signal?: AbortSignal): Promise<CheckedBackup>;
}

/** The folders of files of the installation at `dataDir`, and where workspaces are if not here. */
export function backupFolders(
  dataDir: string,
  env: NodeJS.ProcessEnv,
): { folders: Record<FileFolder, string>; workspacesElsewhere?: string } {
  const folders: Record<FileFolder, string> = {
    artifacts: env.AIVORY_ARTIFACTS_DIR ?? join(dataDir, 'artifacts'),
    uploads: join(dataDir, 'uploads'),
    workspaces: env.SANDBOX_ARCHIVE_DIR ?? join(dataDir, 'sandbox', 'archives'),
  };
  const endpoint = env.SANDBOX_ARCHIVE_S3_ENDPOINT;
  const bucket = env.SANDBOX_ARCHIVE_S3_BUCKET;
  if (endpoint !== undefined && bucket !== undefined && endpoint !== '' && bucket !== '') {
    return { folders, workspacesElsewhere: `S3 bucket ${bucket} at ${endpoint}` };
  }
  return { folders };
}

export function createBackupService(options: {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  copyDatabase: BackupSources['copyDatabase'];
  secrets: SecretStore;
}): BackupService {
  const defaultFolder = join(options.dataDir, 'backups');
  const verify = (file: string, signal?: AbortSignal): Promise<CheckedBackup> =>
    readBackup(file, { latestSchemaVersion: MIGRATIONS.length, signal });
  return {
    defaultFolder,
    verify,
    create: (create) =>
      createVerified(
        {
          ...backupFolders(options.dataDir, options.env),
          copyDatabase: options.copyDatabase,
          secrets: options.secrets,
        },
        { ...create, destination: create.destination ?? defaultFolder },
        verify,
      ),
  };
}

async function createVerified(
  sources: BackupSources,
  options: CreateBackupOptions & { destination: string },
  verify: (file: string, signal?: AbortSignal) => Promise<CheckedBackup>,
): Promise<CreatedBackup> {
  const written = await writeBackup(sources, { ...options, now: new Date() });
  try {
    await verify(written.file, options.signal);
  } catch (error) {
    rmSync(written.file, { force: true });
    if (error instanceof AivoryError && error.code === 'canceled') throw error;
    throw new AivoryError(
      'storage',
      `The backup written to ${written.file} did not read back as written, so it was removed: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return written;
}

/**
 * Restores `file` into the data folder of `env` (see `backup-restore.ts`). The current data, if
 * any, is first backed up into its `backups/` folder (its secrets sealed with the same
 * passphrase, or left out without one; the current secrets file is kept either way).
 */
export async function restoreFromBackup(options: {
  env: NodeJS.ProcessEnv;
  file: string;
  /** Asked only when the backup holds sealed secrets; null restores without them. */
  passphrase: () => Promise<string | null>;
  secrets?: SecretStore;
  signal?: AbortSignal;
}): Promise<RestoreResult> {
  const dataDir = resolveDataDir(options.env);
  const secrets = options.secrets ?? new FileSecretStore(join(dataDir, 'secrets.json'));
  const { folders, workspacesElsewhere } = backupFolders(dataDir, options.env);
  return restoreBackup(
    options.file,
    { dataDir, folders, secrets, latestSchemaVersion: MIGRATIONS.length },
    {
      passphrase: options.passphrase,
      signal: options.signal,
      backupCurrent: async (database, passphrase) => {
        const copy = (target: string, signal?: AbortSignal): Promise<DatabaseFacts> =>
          copyDatabase(database, target, signal);
        const created = await createVerified(
          {
            folders,
            ...(workspacesElsewhere === undefined ? {} : { workspacesElsewhere }),
            copyDatabase: copy,
            secrets,
          },
          {
            destination: join(dataDir, 'backups'),
            passphrase,
            signal: options.signal,
          },
          (file, signal) => readBackup(file, { latestSchemaVersion: MIGRATIONS.length, signal }),
        );
        return created.file;
      },
    },
  );
}
