/**
 * Reads a backup back as a stream and checks all of it: the format entry first (a foreign tar is
 * refused at once), only plain files under the known names (`isAllowedEntryName`, checked before a
 * byte is written), each entry's size and SHA-256 against the manifest, nothing missing or extra,
 * and the database copy opened, `integrity_check`ed and counted against the manifest. Used after
 * every backup is written (nothing is called good before it was read back) and before a restore
 * replaces anything (the restore extracts into its staging folder while it reads).
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { finished } from 'node:stream/promises';
import { extract as createExtract } from 'tar-stream';
import { AivoryError } from '../../../shared/errors';
import { diskFull } from '../../policy/storage-errors';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupHeader,
  backupHeaderSchema,
  type BackupManifest,
  backupManifestSchema,
  DATABASE_ENTRY,
  HEADER_ENTRY,
  isAllowedEntryName,
  MANIFEST_ENTRY,
  MAX_METADATA_BYTES,
  CHUNK_BYTES,
} from './backup-format';
import { checkDatabase, type DatabaseFacts } from './database-check';

export interface ReadBackupOptions {
  /** Extracts every entry into this folder (created; must be empty) while reading. */
  extractTo?: string;
  /** The newest schema version this build opens: a backup of a newer one is refused. */
  latestSchemaVersion: number;
  signal?: AbortSignal;
}

export interface CheckedBackup {
  header: BackupHeader;
  manifest: BackupManifest;
  /** The bytes of the files entries (the database and the files). */
  bytes: number;
}

/** Reads and checks the backup at `file`; throws an `invalid-input` error that says what is wrong. */
export async function readBackup(file: string, options: ReadBackupOptions): Promise<CheckedBackup> {
  const scratch =
    options.extractTo ?? (await mkdtemp(join(dirname(file), '.aivory-backup-check-')));
  try {
    const read = await readEntries(file, scratch, options);
    let facts: DatabaseFacts;
    try {
      facts = await checkDatabase(join(scratch, DATABASE_ENTRY), { standalone: false });
    } catch (error) {
      throw damaged(file, `its database does not open cleanly (${(error as Error).message})`);
    }
    if (facts.schemaVersion !== read.header.schemaVersion) {
      throw damaged(file, 'its database is not the one its header names');
    }
    for (const [table, count] of Object.entries(read.manifest.counts)) {
      if (facts.counts[table] !== count) {
        throw damaged(
          file,
          `its ${table} table has ${facts.counts[table] ?? 0} rows, not ${count}`,
        );
      }
    }
    return read;
  } finally {
    if (options.extractTo === undefined) await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Reads every entry, hashing each; writes the database (and, when extracting, every entry) under
 * `folder`. Without `extractTo` only the database is written (it must be opened to be checked).
 */
async function readEntries(
  file: string,
  folder: string,
  options: ReadBackupOptions,
): Promise<CheckedBackup> {
  const extractAll = options.extractTo !== undefined;
  const input = createReadStream(file, { highWaterMark: CHUNK_BYTES });
  const tar = createExtract();
  input.on('error', (error) => tar.destroy(error));
  input.pipe(tar);
  let header: BackupHeader | null = null;
  let manifest: BackupManifest | null = null;
  const seen = new Map<string, { size: number; sha256: string }>();
  let bytes = 0;
  try {
    for await (const entry of tar) {
      options.signal?.throwIfAborted();
      const { name, type, size = 0 } = entry.header;
      if (header === null && name !== HEADER_ENTRY) {
        throw new AivoryError('invalid-input', `${file} is not an Aivory backup.`);
      }
      if (manifest !== null) throw damaged(file, 'it has entries after its manifest');
      if (type !== 'file') throw damaged(file, `it holds a ${type ?? 'strange'} entry "${name}"`);
      if (!isAllowedEntryName(name)) throw damaged(file, `it holds an unexpected entry "${name}"`);
      if (seen.has(name) || (name === HEADER_ENTRY && header !== null)) {
        throw damaged(file, `it holds "${name}" twice`);
      }
      if (name === HEADER_ENTRY || name === MANIFEST_ENTRY) {
        if (size > MAX_METADATA_BYTES) throw damaged(file, `its ${name} is too large`);
        const text = await readAll(entry as unknown as AsyncIterable<Buffer>);
        if (name === HEADER_ENTRY) header = parseHeader(file, text, options.latestSchemaVersion);
        else manifest = parseManifest(file, text);
        continue;
      }
      const target = extractAll || name === DATABASE_ENTRY ? join(folder, name) : null;
      const sha256 = await consume(entry as unknown as AsyncIterable<Buffer>, target);
      seen.set(name, { size, sha256 });
      bytes += size;
    }
  } catch (error) {
    input.destroy();
    if (error instanceof AivoryError) throw error;
    if (isCode(error, 'ENOENT')) {
      throw new AivoryError('not-found', `There is no backup at ${file}.`);
    }
    throw damaged(file, 'it ends early or is not a tar file');
  }
  if (header === null) throw new AivoryError('invalid-input', `${file} is not an Aivory backup.`);
  if (manifest === null) throw damaged(file, 'it ends before its manifest');
  for (const listed of manifest.files) {
    const found = seen.get(listed.path);
    if (found === undefined) throw damaged(file, `"${listed.path}" is missing`);
    if (found.size !== listed.size || found.sha256 !== listed.sha256) {
      throw damaged(file, `"${listed.path}" is not what was written`);
    }
    seen.delete(listed.path);
  }
  const extra = seen.keys().next();
  if (extra.done !== true) throw damaged(file, `"${extra.value}" is not in its manifest`);
  if (!manifest.files.some((listed) => listed.path === DATABASE_ENTRY)) {
    throw damaged(file, 'it holds no database');
  }
  return { header, manifest, bytes };
}

function parseHeader(file: string, text: string, latestSchemaVersion: number): BackupHeader {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AivoryError('invalid-input', `${file} is not an Aivory backup.`);
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== BACKUP_FORMAT) {
    throw new AivoryError('invalid-input', `${file} is not an Aivory backup.`);
  }
  const parsed = backupHeaderSchema.safeParse(value);
  if (!parsed.success) throw damaged(file, 'its header is damaged');
  if (
    parsed.data.version > BACKUP_FORMAT_VERSION ||
    parsed.data.schemaVersion > latestSchemaVersion
  ) {
    throw new AivoryError(
      'invalid-input',
      `The backup ${file} was made by a newer version of Aivory. Update Aivory, then restore it.`,
    );
  }
  return parsed.data;
}

function parseManifest(file: string, text: string): BackupManifest {
  try {
    return backupManifestSchema.parse(JSON.parse(text));
  } catch {
    throw damaged(file, 'its manifest is damaged');
  }
}

async function readAll(entry: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of entry) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Hashes the entry's bytes, writing them to `target` (a new file) when one is given. */
async function consume(entry: AsyncIterable<Buffer>, target: string | null): Promise<string> {
  const hash = createHash('sha256');
  if (target === null) {
    for await (const chunk of entry) hash.update(chunk);
    return hash.digest('hex');
  }
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  const output = createWriteStream(target, {
    flags: 'wx',
    mode: 0o600,
    highWaterMark: CHUNK_BYTES,
  });
  let writeError: Error | null = null;
  output.on('error', (error) => (writeError = error));
  const written = finished(output);
  written.catch(() => undefined);
  try {
    for await (const chunk of entry) {
      hash.update(chunk);
      if (!output.write(chunk)) {
        await Promise.race([
          new Promise<void>((resolve) => output.once('drain', () => resolve())),
          written,
        ]);
      }
    }
    output.end();
    await written;
  } catch (error) {
    output.destroy();
    // A failure of the archive (cut short) is the caller's "damaged"; one of the disk is not.
    const failure = writeError as Error | null;
    if (failure === null) throw error;
    throw isCode(failure, 'ENOSPC')
      ? diskFull(dirname(target), failure)
      : new AivoryError('storage', `${target} could not be written: ${failure.message}`, {
          cause: failure,
        });
  }
  return hash.digest('hex');
}

function damaged(file: string, what: string): AivoryError {
  return new AivoryError(
    'invalid-input',
    `The backup ${file} is damaged: ${what}. Nothing was changed; use another backup.`,
  );
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
