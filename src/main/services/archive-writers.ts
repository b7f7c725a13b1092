/**
 * Where an export of every conversation is written: a ZIP file (what a person takes elsewhere) or
 * a plain folder tree. Either appears whole or not at all: it is written under a temporary name
 * beside its own and renamed once complete; a failure or a cancel removes what was written.
 * Entries are written a chunk at a time (at most `CHUNK_BYTES` compressed at once), awaiting the
 * disk between chunks, so that `aivory serve` keeps answering while a big archive is made.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { deflateSync, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { AivoryError } from '../../shared/errors';
import { writeFault } from './export-file';

/** Bytes handed to the compressor at once: a few milliseconds of the thread. */
export const CHUNK_BYTES = 256 * 1024;

/** The most a ZIP without ZIP64 holds (fflate writes none): 4 GiB of archive, 65,535 entries. */
const ZIP_MAX_BYTES = 0xffff_ffff;
const ZIP_MAX_ENTRIES = 0xffff;
/** Bytes of archive held before they are written. */
const WRITE_BYTES = 1024 * 1024;
const DEFLATE_LEVEL = 6;

/**
 * An entry whose bytes arrive in one piece, deflated in one go. fflate's streaming `ZipDeflate`
 * sets up ~2.5 MB of tables and buffers per entry whatever its size (2,000 conversations took
 * seconds, mostly collecting that garbage); `deflateSync` sizes them to the bytes. fflate's
 * documented way to compress otherwise: a `ZipPassThrough` whose `process` hands on compressed
 * bytes (the CRC and size are still taken from the bytes pushed).
 */
class WholeDeflate extends ZipPassThrough {
  constructor(name: string) {
    super(name);
    this.compression = 8;
  }

  protected override process(chunk: Uint8Array, final: boolean): void {
    this.ondata(null, deflateSync(chunk, { level: DEFLATE_LEVEL }), final);
  }
}

/**
 * The entry's first `CHUNK_BYTES` (more when one piece is bigger), and whether that is all of it.
 */
async function firstChunk(
  source: AsyncIterator<Uint8Array>,
): Promise<{ bytes: Uint8Array; whole: boolean }> {
  const pieces: Uint8Array[] = [];
  let size = 0;
  while (size < CHUNK_BYTES) {
    const next = await source.next();
    if (next.done === true) return { bytes: concat(pieces, size), whole: true };
    pieces.push(next.value);
    size += next.value.byteLength;
  }
  return { bytes: concat(pieces, size), whole: false };
}

/**
 * Writes all of `bytes`: a write may take only part (the disk filling up), so the rest is written
 * again, and a full disk then fails with ENOSPC instead of leaving a short file called whole.
 */
async function writeAll(file: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let offset = 0; offset < bytes.byteLength;)
    offset += (await file.write(bytes, offset)).bytesWritten;
}

function concat(pieces: readonly Uint8Array[], size: number): Uint8Array {
  if (pieces.length === 1 && pieces[0]) return pieces[0];
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const piece of pieces) {
    bytes.set(piece, offset);
    offset += piece.byteLength;
  }
  return bytes;
}

/** A ZIP's times run from 1980 to 2099 (fflate throws outside them): times beyond are clamped. */
const ZIP_FIRST_TIME = new Date(1980, 0, 1).getTime();
const ZIP_LAST_TIME = new Date(2099, 11, 31).getTime();
/** External attributes of a regular file, mode 0644, as Unix zip writes them. */
const UNIX_REGULAR_FILE = 0o100644 * 0x10000;

export interface ArchiveEntryOptions {
  /** The entry's modification time (ms). */
  mtime: number;
  /** False for bytes that are compressed already (images, PDFs, archives): stored as they are. */
  compress: boolean;
}

/** An archive being written. */
export interface ArchiveWriter {
  /** Adds `name` (a `/`-separated relative path) with its bytes as they come. */
  add(name: string, chunks: AsyncIterable<Uint8Array>, options: ArchiveEntryOptions): Promise<void>;
  /** Completes the archive and gives it its name; returns that path and its size in bytes. */
  finish(): Promise<{ path: string; bytes: number }>;
  /** Removes what was written (after a failure or a cancel). */
  abort(): Promise<void>;
}

/** A ZIP archive at `path`, written beside it and renamed when complete (replacing a file there). */
export async function openZipWriter(path: string): Promise<ArchiveWriter> {
  const partial = `${path}.${randomUUID().slice(0, 8)}.partial`;
  const folder = dirname(path);
  let file: FileHandle;
  try {
    file = await open(partial, 'wx');
  } catch (error) {
    throw writeFault(error, folder);
  }
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else {
      pending.push(data);
      pendingBytes += data.byteLength;
    }
  });
  let written = 0;
  let entries = 0;
  /**
   * Writes what the compressor gave, once there is `WRITE_BYTES` of it (or `all`): one write per
   * small entry cost more than compressing it.
   */
  const flush = async (all: boolean): Promise<void> => {
    if (failure) throw failure;
    if (pendingBytes === 0 || (!all && pendingBytes < WRITE_BYTES)) return;
    const data = pending;
    written += pendingBytes;
    pending = [];
    pendingBytes = 0;
    if (written > ZIP_MAX_BYTES) throw tooLarge('larger than 4 GiB');
    await writeAll(
      file,
      concat(
        data,
        data.reduce((sum, piece) => sum + piece.byteLength, 0),
      ),
    );
  };
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await file.close();
  };
  return {
    async add(name, chunks, options) {
      try {
        if (++entries > ZIP_MAX_ENTRIES) throw tooLarge('more than 65,535 files');
        const source = chunks[Symbol.asyncIterator]();
        const head = await firstChunk(source);
        const entry = !options.compress
          ? new ZipPassThrough(name)
          : head.whole
            ? new WholeDeflate(name)
            : new ZipDeflate(name, { level: DEFLATE_LEVEL });
        entry.mtime = Math.min(Math.max(options.mtime, ZIP_FIRST_TIME), ZIP_LAST_TIME);
        // Made on Unix: Info-ZIP's unzip then honours the UTF-8 flag of non-ASCII names (with
        // MS-DOS as the origin it reads them in the DOS code page), and files come out 0644.
        entry.os = 3;
        entry.attrs = UNIX_REGULAR_FILE;
        zip.add(entry);
        if (head.whole) entry.push(head.bytes, true);
        else {
          entry.push(head.bytes);
          for (let next = await source.next(); next.done !== true; next = await source.next()) {
            for (let start = 0; start < next.value.byteLength; start += CHUNK_BYTES) {
              entry.push(next.value.subarray(start, start + CHUNK_BYTES));
              await flush(false);
              await new Promise((resolve) => setImmediate(resolve));
            }
          }
          entry.push(new Uint8Array(0), true);
        }
        await flush(false);
      } catch (error) {
        throw writeFault(error, folder);
      }
    },
    async finish() {
      try {
        zip.end();
        await flush(true);
        await close();
        await rename(partial, path);
      } catch (error) {
        throw writeFault(error, folder);
      }
      return { path, bytes: (await stat(path)).size };
    },
    async abort() {
      zip.terminate();
      await close().catch(() => undefined);
      await rm(partial, { force: true }).catch(() => undefined);
    },
  };
}

/**
 * A folder `<parent>/<name>` (numbered when taken: `name (2)`), written as a hidden folder beside
 * it and renamed when complete.
 */
export async function openFolderWriter(parent: string, name: string): Promise<ArchiveWriter> {
  const partial = join(parent, `.${name}.${randomUUID().slice(0, 8)}.partial`);
  try {
    await mkdir(partial, { mode: 0o700 });
  } catch (error) {
    throw writeFault(error, parent);
  }
  let written = 0;
  return {
    async add(entryName, chunks) {
      const path = join(partial, ...entryName.split('/'));
      try {
        await mkdir(dirname(path), { recursive: true });
        const file = await open(path, 'wx');
        try {
          for await (const chunk of chunks) {
            await writeAll(file, chunk);
            written += chunk.byteLength;
            // The next read or slice waits its turn behind whatever else is queued.
            await new Promise((resolve) => setImmediate(resolve));
          }
        } finally {
          await file.close();
        }
      } catch (error) {
        throw writeFault(error, parent);
      }
    },
    async finish() {
      for (let number = 1; ; number++) {
        const path = join(parent, number === 1 ? name : `${name} (${number})`);
        if (await exists(path)) continue;
        try {
          await rename(partial, path);
        } catch (error) {
          // Taken between the look and the rename (ENOTEMPTY, EEXIST): the next number.
          const code = (error as { code?: unknown }).code;
          if (code === 'ENOTEMPTY' || code === 'EEXIST') continue;
          throw writeFault(error, parent);
        }
        return { path, bytes: written };
      }
    },
    async abort() {
      await rm(partial, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function tooLarge(what: string): AivoryError {
  return new AivoryError(
    'invalid-input',
    `The archive would be ${what}, more than a ZIP file can hold. Export to a folder instead (aivory conversations export --all --output FOLDER/).`,
  );
}
