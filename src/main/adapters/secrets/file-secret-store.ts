/**
 * A `SecretStore` kept in one JSON file (`{ "ref": "value" }`) readable only by its owner, for the
 * CLI and for machines without an OS keychain. Writes go to a 0600 temp file in the same directory
 * that is then renamed over the original, so a crash leaves the old file or the new one, never a
 * torn one. Values never appear in errors or logs.
 */
import { chmod, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AivoryError } from '../../../shared/errors';
import type { SecretStore } from '../../core/ports';

/** Owner read/write only. */
const SECRET_FILE_MODE = 0o600;
/** Owner only, for a directory the store has to create. */
const SECRET_DIRECTORY_MODE = 0o700;
/**
 * Secrets in a JSON file at `filePath`. A missing file is an empty store; the file (and its
 * directory, 0700) is created on the first `set`. A file that group or others can read is fixed to
 * 0600 when read. Calls on one instance are serialized; the file is re-read on every call, so other
 * processes' writes are seen (two processes writing at the same instant can lose one update).
 */
export class FileSecretStore implements SecretStore {
  private readonly filePath: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(filePath: string) {
    this.filePath = filePath;
  }

  /** The value stored under `ref`, or null when there is none. */
  get(ref: string): Promise<string | null> {
    return this.serialize(async () => (await this.readAll()).get(ref) ?? null);
  }

  /** Stores `value` under `ref`, replacing any previous value. */
  set(ref: string, value: string): Promise<void> {
    if (ref.length === 0) {
      return Promise.reject(new AivoryError('invalid-input', 'A secret reference is empty.'));
    }
    return this.serialize(async () => {
      const secrets = await this.readAll();
      secrets.set(ref, value);
      await this.writeAll(secrets);
    });
  }

  /** Removes `ref`; does nothing when it is not stored. */
  delete(ref: string): Promise<void> {
    return this.serialize(async () => {
      const secrets = await this.readAll();
      if (!secrets.delete(ref)) return;
      await this.writeAll(secrets);
    });
  }

  /** Every stored reference, sorted. */
  refs(): Promise<string[]> {
    return this.serialize(async () => [...(await this.readAll()).keys()].sort());
  }

  /** Runs `task` after every earlier call of this instance has settled. */
  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async readAll(): Promise<Map<string, string>> {
    let text: string;
    try {
      await this.restrictMode();
      text = await readFile(this.filePath, 'utf8');
    } catch (error) {
      if (isNotFound(error)) return new Map();
      throw this.failure('could not be read', error);
    }
    // No `cause`: a JSON syntax error quotes the file's text, which holds the secrets.
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw this.failure('is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw this.failure('is not a JSON object');
    }
    const secrets = new Map<string, string>();
    for (const [ref, value] of Object.entries(parsed)) {
      if (typeof value !== 'string') throw this.failure(`holds a non-string value for "${ref}"`);
      secrets.set(ref, value);
    }
    return secrets;
  }

  /** Fixes a file that group or others may access to 0600 (POSIX only; Windows has no modes). */
  private async restrictMode(): Promise<void> {
    if (process.platform === 'win32') return;
    const { mode } = await stat(this.filePath);
    if ((mode & 0o077) !== 0) await chmod(this.filePath, SECRET_FILE_MODE);
  }

  private async writeAll(secrets: Map<string, string>): Promise<void> {
    const directory = dirname(this.filePath);
    await mkdir(directory, { recursive: true, mode: SECRET_DIRECTORY_MODE });
    // node:crypto at first use, not imported: loading it costs every start ~7 ms (issue 24).
    const { randomBytes } = process.getBuiltinModule('node:crypto');
    const suffix = `${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    const temporaryPath = join(directory, `.${basename(this.filePath)}.${suffix}`);
    const text = `${JSON.stringify(Object.fromEntries(secrets), null, 2)}\n`;
    try {
      const handle = await open(temporaryPath, 'wx', SECRET_FILE_MODE);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      // `open`'s mode is filtered by the umask; set it explicitly (a no-op on Windows).
      await chmod(temporaryPath, SECRET_FILE_MODE);
      await rename(temporaryPath, this.filePath);
    } catch (error) {
      await rm(temporaryPath, { force: true }).catch(() => undefined);
      throw this.failure('could not be written', error);
    }
  }

  /** `cause` may only be a file-system error: those name paths, never file contents. */
  private failure(problem: string, cause?: unknown): AivoryError {
    const message = `The secrets file ${this.filePath} ${problem}.`;
    return new AivoryError('config', message, cause === undefined ? undefined : { cause });
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}
