/**
 * Workspace archives, keyed by conversation id, in a local directory. File names are a hash of
 * the id, so no id can name a path. Writes go to a temporary file renamed into place: a crash
 * mid-archive never replaces a good archive with half of one. An archive is a tar stream, zstd-
 * compressed, gzip-compressed (written before zstd) or plain (data that does not compress); the
 * reader tells them apart by their first bytes (workspace-archiver.ts). The names keep the
 * `.tar.gz` suffix whatever the content, so archives written by any version are found.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const DAY_MS = 24 * 60 * 60 * 1000;
const INDEX_FILE = 'sessions.json';
/** Restores stream archives into `docker exec`; large reads mean fewer socket writes. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Where workspace archives live: a local directory (LocalArchiveStore) or an S3-compatible
 * bucket (S3ArchiveStore). SessionManager uses archives only through these methods.
 */
export interface ArchiveStore {
  /**
   * Stores `archive` (an encoded tar stream, see workspace-archiver.ts) for the conversation,
   * replacing an older one, and returns its size. A stream that fails leaves the older one.
   */
  put(conversationId: string, archive: Readable): Promise<number>;
  /** The archive for the conversation, or null when there is none. */
  get(conversationId: string): Promise<Readable | null>;
  /**
   * Stores that keep files: the archive opened for reading, or null. Restore reads it into
   * reused buffers instead of a stream's fresh ones (see `copyFileInto`, workspace-archiver.ts).
   */
  openFile?(conversationId: string): Promise<FileHandle | null>;
  has(conversationId: string): Promise<boolean>;
  delete(conversationId: string): Promise<void>;
  /** Deletes archives older than `retentionDays` (measured against `now`); returns how many. */
  prune(retentionDays: number, now?: number): Promise<number>;
  /** Saves the container → conversation index (see SessionManager.recoverLeftovers). */
  writeIndex(index: Record<string, string>): Promise<void>;
  /** The saved index; {} when there is none or it is unreadable. */
  readIndex(): Promise<Record<string, string>>;
}

export class LocalArchiveStore implements ArchiveStore {
  constructor(private readonly directory: string) {}

  private pathFor(conversationId: string): string {
    const digest = createHash('sha256').update(conversationId).digest('hex');
    return join(this.directory, `${digest}.tar.gz`);
  }

  /** Stores `archive` for the conversation, replacing an older one (never with a failed one). */
  async put(conversationId: string, archive: Readable): Promise<number> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const target = this.pathFor(conversationId);
    const temporary = `${target}.${randomUUID()}.partial`;
    try {
      await pipeline(archive, createWriteStream(temporary, { mode: 0o600 }));
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return (await stat(target)).size;
  }

  /** The archive for the conversation, or null when there is none. */
  async get(conversationId: string): Promise<Readable | null> {
    const path = this.pathFor(conversationId);
    try {
      await stat(path);
    } catch {
      return null;
    }
    return createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
  }

  async openFile(conversationId: string): Promise<FileHandle | null> {
    try {
      return await open(this.pathFor(conversationId), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async has(conversationId: string): Promise<boolean> {
    try {
      await stat(this.pathFor(conversationId));
      return true;
    } catch {
      return false;
    }
  }

  async delete(conversationId: string): Promise<void> {
    await rm(this.pathFor(conversationId), { force: true });
  }

  /** Deletes archives (and stray partial files) older than `retentionDays`; returns how many. */
  async prune(retentionDays: number, now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (!name.endsWith('.tar.gz') && !name.endsWith('.partial')) continue;
      const path = join(this.directory, name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > retentionDays * DAY_MS) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  /** Saves the container → conversation index (see SessionManager.recoverLeftovers). */
  async writeIndex(index: Record<string, string>): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const path = join(this.directory, INDEX_FILE);
    const temporary = `${path}.${randomUUID()}.partial`;
    await writeFile(temporary, JSON.stringify(index), { mode: 0o600 });
    await rename(temporary, path);
  }

  async readIndex(): Promise<Record<string, string>> {
    try {
      return parseSessionIndex(await readFile(join(this.directory, INDEX_FILE), 'utf8'));
    } catch {
      return {};
    }
  }
}

/** The container → conversation index from its JSON text; anything malformed reads as empty. */
export function parseSessionIndex(text: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
  } catch {
    return {};
  }
}
