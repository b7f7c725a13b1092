/**
 * Workspace archives, keyed by conversation id, in a local directory. File names are a hash of
 * the id, so no id can name a path. Writes go to a temporary file, flushed to disk and renamed
 * into place: a crash mid-archive never replaces a good archive with half of one. The archive it
 * replaces is kept beside it as `<name>.prev` (one generation): a restore that finds the newest
 * archive damaged restores that one instead (workspace-archiver.ts) and the damaged archive is
 * kept aside as `<name>.damaged-<time>`, never deleted but by retention or the conversation's
 * deletion; a save that was complete but unwanted can still be undone by hand (see the README's
 * reliability section). When no save can be read, the user may choose to start empty: the damaged
 * ones are then kept aside the same way (`keepAsideDamaged`, damaged-saves.ts). An archive is a tar stream, zstd-
 * compressed, gzip-compressed (written before zstd) or plain (data that does not compress); the
 * reader tells them apart by their first bytes (workspace-archiver.ts). The names keep the
 * `.tar.gz` suffix whatever the content, so archives written by any version are found.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import {
  link,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Writable } from 'node:stream';
import type { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';

const DAY_MS = 24 * 60 * 60 * 1000;
const INDEX_FILE = 'sessions.json';
/** The suffix of the archive before the newest (see `put`). */
export const PREVIOUS_SUFFIX = '.prev';
/** The suffix of a newest archive that could not be read, kept aside (see `setAsideDamaged`). */
export const DAMAGED_SUFFIX = '.damaged-';
/**
 * Added after the time to the name of a damaged `.prev` kept aside with the newest one (see
 * `keepAsideDamaged`): both are kept, and the name says which was the older save.
 */
export const OLDER_SUFFIX = '-older';
/** Names of archives the stores own: both generations and damaged ones kept aside. */
export const ARCHIVE_NAME = /\.tar\.gz(\.prev|\.damaged-[\dTZ-]+(-older)?)?$/;

/** The newest archive of a conversation, or the one before it (`.prev`). */
export type Generation = 'current' | 'previous';

/** The name a damaged archive is kept under: `<name>.damaged-<UTC time, no colons>`. */
export function damagedName(name: string, now: number): string {
  return `${name}${DAMAGED_SUFFIX}${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
}
/**
 * The name a generation set aside by the user's choice is kept under (`keepAsideDamaged`): the
 * newest as `<name>.damaged-<time>`, the one before it as `<name>.damaged-<time>-older`.
 */
export function keptDamagedName(name: string, generation: Generation, now: number): string {
  return damagedName(name, now) + (generation === 'previous' ? OLDER_SUFFIX : '');
}

/** Sorts the previous generation before the current one. */
export function olderFirst(left: Generation, right: Generation): number {
  return (left === 'previous' ? 0 : 1) - (right === 'previous' ? 0 : 1);
}
/** Restores stream archives into `docker exec`; large reads mean fewer socket writes. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * One line of the container → conversation index. `started_at` is the container's start time when
 * its workspace was set up: a container that started again since has lost its files, and is not
 * saved over the archive. Indexes written before it was kept hold only the conversation id.
 */
export interface IndexEntry {
  conversation: string;
  started_at: string | null;
  /**
   * Set for a kept container (its workspace could not be saved when its session ended; see
   * kept-containers.ts): since when it is kept, and why. `aivory doctor` lists these.
   */
  kept?: { since: string; error: string };
}

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
  /**
   * Stores that keep files: `put` for a writer that reuses its buffers. `write` writes the
   * archive into `sink` and ends it, reusing a chunk's buffer only once that write's callback
   * came (the bytes are then in the file); it throws to fail the put (the older archive stays).
   * A stream's fresh buffer per read cost a 50 MiB save ~200 ms of CPU (see `copyPipeInto`,
   * workspace-archiver.ts).
   */
  putWith?(conversationId: string, write: (sink: Writable) => Promise<void>): Promise<number>;
  /** The archive for the conversation (by default the newest), or null when there is none. */
  get(conversationId: string, generation?: Generation): Promise<Readable | null>;
  /**
   * Stores that keep files: the archive opened for reading, or null. Restore reads it into
   * reused buffers instead of a stream's fresh ones (see `copyFileInto`, workspace-archiver.ts).
   */
  openFile?(conversationId: string, generation?: Generation): Promise<FileHandle | null>;
  has(conversationId: string): Promise<boolean>;
  /** When the generation was saved (ms since the epoch), or null when there is none. */
  savedAt(conversationId: string, generation: Generation): Promise<number | null>;
  /**
   * The newest archive could not be read and the previous one was restored instead: keeps the
   * newest under a `.damaged-<time>` name (deleting nothing) and makes the previous generation
   * the newest, so the next restore finds what the workspace now holds. Returns the kept name.
   */
  setAsideDamaged(conversationId: string, now?: number): Promise<string>;
  /**
   * The user chose to start with an empty /workspace because no save of it can be read: moves
   * the given generations aside under `.damaged-<time>` names (the older one `…-older`), renamed,
   * never deleted, their retention counted from now. The conversation then has no archive, so its
   * next session starts empty. Returns where each is kept (see `location`), newest first. Whether
   * they are damaged is decided by the caller (SessionManager.resetDamagedWorkspace).
   */
  keepAsideDamaged(
    conversationId: string,
    generations: readonly Generation[],
    now?: number,
  ): Promise<string[]>;
  /** Where the conversation's newest archive is, in words a person can follow (path or URL). */
  location(conversationId: string): string;
  delete(conversationId: string): Promise<void>;
  /** Deletes archives older than `retentionDays` (measured against `now`); returns how many. */
  prune(retentionDays: number, now?: number): Promise<number>;
  /** Saves the container → conversation index (see SessionManager.recoverLeftovers). */
  writeIndex(index: Record<string, IndexEntry>): Promise<void>;
  /** The saved index; {} when there is none or it is unreadable. */
  readIndex(): Promise<Record<string, IndexEntry>>;
}

export class LocalArchiveStore implements ArchiveStore {
  constructor(private readonly directory: string) {}

  private pathFor(conversationId: string, generation: Generation = 'current'): string {
    const digest = createHash('sha256').update(conversationId).digest('hex');
    return join(
      this.directory,
      `${digest}.tar.gz${generation === 'previous' ? PREVIOUS_SUFFIX : ''}`,
    );
  }

  /** Stores `archive` for the conversation, replacing an older one (never with a failed one). */
  put(conversationId: string, archive: Readable): Promise<number> {
    return this.putWith(conversationId, (sink) => pipeline(archive, sink));
  }

  async putWith(conversationId: string, write: (sink: Writable) => Promise<void>): Promise<number> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const target = this.pathFor(conversationId);
    const temporary = `${target}.${randomUUID()}.partial`;
    try {
      // Flushed to disk before the rename, which so never exposes data still in the cache.
      await writeSynced(temporary, write);
      await keepAsPrevious(target);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return (await stat(target)).size;
  }

  /** The archive for the conversation, or null when there is none. */
  async get(conversationId: string, generation: Generation = 'current'): Promise<Readable | null> {
    const path = this.pathFor(conversationId, generation);
    try {
      await stat(path);
    } catch {
      return null;
    }
    return createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
  }

  async openFile(
    conversationId: string,
    generation: Generation = 'current',
  ): Promise<FileHandle | null> {
    try {
      return await open(this.pathFor(conversationId, generation), 'r');
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

  async savedAt(conversationId: string, generation: Generation): Promise<number | null> {
    try {
      return (await stat(this.pathFor(conversationId, generation))).mtimeMs;
    } catch {
      return null;
    }
  }

  /**
   * No data copied (a full disk does not stop it): the newest archive gets a second name
   * `.damaged-<time>` (a hard link), then the previous one is renamed over the newest (atomic: a
   * crash leaves either the damaged or the previous archive as the newest, never none).
   */
  async setAsideDamaged(conversationId: string, now = Date.now()): Promise<string> {
    const current = this.pathFor(conversationId);
    const previous = this.pathFor(conversationId, 'previous');
    await stat(previous);
    const kept = damagedName(current, now);
    await link(current, kept);
    await rename(previous, current);
    return basename(kept);
  }

  /**
   * A hard link under the kept name (it fails rather than replace a file of that name), dated
   * now so retention counts from today, then the archive's own name removed: no data is copied
   * or deleted. The older generation goes first: a crash between the two leaves the newest
   * (damaged) in place, and the action can be taken again.
   */
  async keepAsideDamaged(
    conversationId: string,
    generations: readonly Generation[],
    now = Date.now(),
  ): Promise<string[]> {
    const current = this.pathFor(conversationId);
    const kept: string[] = [];
    for (const generation of [...generations].sort(olderFirst)) {
      const path = this.pathFor(conversationId, generation);
      const target = keptDamagedName(current, generation, now);
      await link(path, target);
      const seconds = now / 1000;
      await utimes(target, seconds, seconds);
      await rm(path);
      kept.unshift(target);
    }
    return kept;
  }

  location(conversationId: string): string {
    return this.pathFor(conversationId);
  }

  /** Removes the conversation's archives: both generations and any kept aside as damaged. */
  async delete(conversationId: string): Promise<void> {
    const current = this.pathFor(conversationId);
    await rm(current, { force: true });
    await rm(current + PREVIOUS_SUFFIX, { force: true });
    const names = await readdir(this.directory).catch(() => []);
    const damaged = basename(current) + DAMAGED_SUFFIX;
    for (const name of names) {
      if (name.startsWith(damaged)) await rm(join(this.directory, name), { force: true });
    }
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
      if (!ARCHIVE_NAME.test(name) && !name.endsWith('.partial')) continue;
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
  async writeIndex(index: Record<string, IndexEntry>): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const path = join(this.directory, INDEX_FILE);
    const temporary = `${path}.${randomUUID()}.partial`;
    await writeFile(temporary, JSON.stringify(index), { mode: 0o600 });
    await rename(temporary, path);
  }

  async readIndex(): Promise<Record<string, IndexEntry>> {
    try {
      return parseSessionIndex(await readFile(join(this.directory, INDEX_FILE), 'utf8'));
    } catch {
      return {};
    }
  }
}

/** Bytes written between two flushes to disk while an archive is written (see `writeSynced`). */
const SYNC_EVERY_BYTES = 8 * 1024 * 1024;

/**
 * Creates the file at `path`, lets `write` fill it through a Writable (which it ends) and flushes
 * it to disk (fsync) before returning. It is also flushed every SYNC_EVERY_BYTES while it is
 * written (fdatasync, beside the writes), so the final fsync waits only for the tail: one fsync at
 * the end of a 50 MiB save took 35–40 ms here, most of which now overlaps the transfer.
 */
async function writeSynced(path: string, write: (sink: Writable) => Promise<void>): Promise<void> {
  const file = await open(path, 'wx', 0o600);
  try {
    let unsynced = 0;
    let syncing: Promise<unknown> = Promise.resolve();
    const sink = new Writable({
      highWaterMark: READ_CHUNK_BYTES,
      write(chunk: Buffer, _encoding, callback) {
        writeAll(file, chunk).then(() => {
          unsynced += chunk.length;
          if (unsynced >= SYNC_EVERY_BYTES) {
            unsynced = 0;
            // A failure is seen by the final fsync below, which waits for this one.
            syncing = syncing.then(() => file.datasync());
            syncing.catch(() => undefined);
          }
          callback();
        }, callback);
      },
      final(callback) {
        syncing.then(() => file.sync()).then(() => callback(), callback);
      },
    });
    const done = finished(sink);
    // The sink may fail (a full disk) while `write` still runs: awaited below, not unhandled.
    done.catch(() => undefined);
    try {
      await write(sink);
    } catch (error) {
      sink.destroy(error instanceof Error ? error : new Error(String(error)));
      await done.catch(() => undefined);
      throw error;
    }
    await done;
  } finally {
    await file.close();
  }
}

async function writeAll(file: FileHandle, chunk: Buffer): Promise<void> {
  for (let offset = 0; offset < chunk.length;) {
    const { bytesWritten } = await file.write(chunk, offset);
    offset += bytesWritten;
  }
}

/**
 * Makes the archive at `target` (if any) the previous generation, leaving `target` in place: a
 * hard link renamed over the old `.prev` (no data copied, so it works on a full disk too).
 */
async function keepAsPrevious(target: string): Promise<void> {
  const linked = `${target}.${randomUUID()}.partial`;
  try {
    await link(target, linked);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await rename(linked, target + PREVIOUS_SUFFIX);
  } finally {
    // rename() does nothing when both names are links to one file (the `.prev` of an archive
    // that was just made the newest by hand): the temporary link is left, so it goes here.
    await rm(linked, { force: true });
  }
}

/**
 * The container → conversation index from its JSON text (entries as written now, or the bare
 * conversation ids older versions wrote); anything malformed reads as empty or is left out.
 */
export function parseSessionIndex(text: string): Record<string, IndexEntry> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const index: Record<string, IndexEntry> = {};
    for (const [containerId, value] of Object.entries(parsed)) {
      const entry = indexEntry(value);
      if (entry) index[containerId] = entry;
    }
    return index;
  } catch {
    return {};
  }
}

function indexEntry(value: unknown): IndexEntry | null {
  if (typeof value === 'string') return { conversation: value, started_at: null };
  if (value === null || typeof value !== 'object') return null;
  const { conversation, started_at: startedAt, kept } = value as Record<string, unknown>;
  if (typeof conversation !== 'string') return null;
  const entry: IndexEntry = {
    conversation,
    started_at: typeof startedAt === 'string' ? startedAt : null,
  };
  if (kept !== null && typeof kept === 'object') {
    const { since, error } = kept as Record<string, unknown>;
    if (typeof since === 'string' && typeof error === 'string') entry.kept = { since, error };
  }
  return entry;
}
