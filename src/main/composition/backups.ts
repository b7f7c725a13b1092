/**
 * Backups, wired: which folders of this installation a backup carries (the overrides of
 * `AIVORY_ARTIFACTS_DIR` and `SANDBOX_ARCHIVE_DIR` honoured; workspaces in S3-compatible storage
 * are named, not copied), the default folder (`backups/` in the data folder), and the rule that a
 * backup is verified — read back whole — before it is reported written. A restore runs without
 * the app open (`restoreFromBackup`): it replaces the database the app would hold.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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
import { parseS3Location, S3BackupTarget } from '../adapters/backup/s3-backup-target';
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
  const verifyLocal = (file: string, signal?: AbortSignal): Promise<CheckedBackup> =>
    readBackup(file, { latestSchemaVersion: MIGRATIONS.length, signal });
  const sources = (): BackupSources => ({
    ...backupFolders(options.dataDir, options.env),
    copyDatabase: options.copyDatabase,
    secrets: options.secrets,
  });
  return {
    defaultFolder,
    verify: (file, signal) =>
      parseS3Location(file) === null
        ? verifyLocal(file, signal)
        : withDownload(options.dataDir, options.env, file, (local) => verifyLocal(local, signal)),
    create: async (create) => {
      const destination = create.destination ?? defaultFolder;
      const bucket = s3Target(destination, options.env);
      if (bucket === null) {
        return createVerified(sources(), { ...create, destination }, verifyLocal);
      }
      // Written and verified here first, then uploaded and read back from the bucket.
      const outgoing = join(options.dataDir, 'backups', '.outgoing');
      const local = await createVerified(
        sources(),
        { ...create, destination: outgoing },
        verifyLocal,
      );
      try {
        await bucket.target.upload(local.file, basename(local.file), create.signal);
      } finally {
        rmSync(local.file, { force: true });
      }
      return { ...local, file: bucket.target.location(basename(local.file)) };
    },
  };
}

/**
 * The S3 target `destination` names (`s3://bucket/prefix`), configured from the environment
 * (`AIVORY_BACKUP_S3_ENDPOINT`, `…_REGION`, `…_ACCESS_KEY_ID`, `…_SECRET_ACCESS_KEY`); null for a
 * folder. A bucket without its settings is a `config` error that names what is missing.
 */
export function s3Target(
  destination: string,
  env: Record<string, string | undefined>,
): { target: S3BackupTarget; key: (name: string) => string } | null {
  const location = parseS3Location(destination);
  if (location === null) {
    if (destination.startsWith('s3:')) {
      throw new AivoryError(
        'invalid-input',
        `"${destination}" is not an s3://BUCKET/PREFIX address.`,
      );
    }
    return null;
  }
  const required = [
    'AIVORY_BACKUP_S3_ENDPOINT',
    'AIVORY_BACKUP_S3_ACCESS_KEY_ID',
    'AIVORY_BACKUP_S3_SECRET_ACCESS_KEY',
  ] as const;
  const missing = required.filter((name) => (env[name] ?? '') === '');
  if (missing.length > 0) {
    throw new AivoryError(
      'config',
      `Backups to ${destination} need ${missing.join(', ')} (and AIVORY_BACKUP_S3_REGION unless us-east-1).`,
    );
  }
  const target = new S3BackupTarget({
    endpoint: env.AIVORY_BACKUP_S3_ENDPOINT ?? '',
    region: env.AIVORY_BACKUP_S3_REGION ?? 'us-east-1',
    bucket: location.bucket,
    prefix: location.prefix,
    accessKeyId: env.AIVORY_BACKUP_S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: env.AIVORY_BACKUP_S3_SECRET_ACCESS_KEY ?? '',
  });
  return { target, key: (name) => (location.prefix === '' ? name : `${location.prefix}/${name}`) };
}

/**
 * Runs `use` on a local copy of the backup at `s3://bucket/key`, downloaded into the data
 * folder (it may be large: not a tmpfs) and removed afterwards.
 */
async function withDownload<T>(
  dataDir: string,
  env: Record<string, string | undefined>,
  url: string,
  use: (file: string) => Promise<T>,
): Promise<T> {
  const location = parseS3Location(url);
  const name = location === null ? '' : basename(location.prefix);
  const parent = location === null ? '' : dirname(location.prefix);
  const bucket = s3Target(`s3://${location?.bucket ?? ''}/${parent === '.' ? '' : parent}`, env);
  if (bucket === null || name === '') {
    throw new AivoryError('invalid-input', `"${url}" names no backup in a bucket.`);
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const folder = mkdtempSync(join(dataDir, '.backup-download-'));
  try {
    const local = join(folder, name);
    await bucket.target.download(bucket.key(name), local);
    return await use(local);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
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
  if (parseS3Location(options.file) !== null) {
    return withDownload(dataDir, options.env, options.file, (file) =>
      restoreFromBackup({ ...options, file }),
    );
  }
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
