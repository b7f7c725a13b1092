/**
 * Moves a container's /workspace to and from the archive store. Archive: `tar -c` in the
 * container, streamed out of `docker exec` in 1 MiB chunks, compressed with zstd only when a
 * sample of the stream compresses, straight into the store. Restore: the stored bytes, decoded by
 * their magic number (zstd, gzip — what older versions wrote — or plain tar), streamed into
 * `tar -x` in the new container. Nothing holds a whole archive in memory.
 */
import type { FileHandle } from 'node:fs/promises';
import { Socket } from 'node:net';
import { pipeline, Readable, Transform } from 'node:stream';
import type { TransformCallback, Writable } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import {
  constants as zlibConstants,
  createGunzip,
  createZstdCompress,
  createZstdDecompress,
  zstdCompressSync,
} from 'node:zlib';
import type { ArchiveStore } from './archive-store';
import { WORKSPACE } from './container-template';
import type { AttachedProcess, DockerRuntime } from './docker-runtime';
import { SandboxError } from './sandbox-service';

/** How an archive's bytes are encoded; told apart on restore by their first bytes. */
export type ArchiveFormat = 'zstd' | 'gzip' | 'tar';

/**
 * `docker exec` delivers tar's output in pieces of ≤ 32 KiB; compressing those one by one costs
 * a thread-pool round trip and an output buffer each (measured: 30× slower for text than 1 MiB
 * pieces), so they are gathered into pieces of this size first.
 */
const CHUNK_BYTES = 1024 * 1024;
/** The start of the tar stream that decides the format (zstd level 1 on it takes a few ms). */
const SAMPLE_BYTES = 1024 * 1024;
/**
 * A sample that zstd cannot shrink below this fraction is already compressed (images, archives,
 * random bytes): the archive is stored as plain tar and restoring it decodes nothing.
 */
const COMPRESSIBLE_BELOW = 0.9;
/**
 * zstd level 1 (Node's zlib): measured here 2.5× faster than gzip -1 on text and over 10× on
 * random bytes (it stores what it cannot shrink as raw blocks).
 */
const ZSTD_LEVEL = 1;
/** How long a warm container's extractor may take to start (measured: 100–150 ms idle). */
const EXTRACTOR_START_MS = 30_000;
/** Bytes of tar's stderr kept for an error message. */
const STDERR_BYTES = 4096;

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

const TAR_CREATE = ['tar', '-c', '-C', WORKSPACE, '.'];
const TAR_EXTRACT = ['tar', '-x', '-C', WORKSPACE, '--no-same-owner', '--no-same-permissions'];

export class WorkspaceArchiver {
  constructor(
    private readonly runtime: DockerRuntime,
    private readonly archives: ArchiveStore,
  ) {}

  /**
   * Archives the container's workspace under the conversation; returns the archive's size. The
   * stream handed to the store fails instead of ending when tar fails (non-zero exit, container
   * gone) or when `verify` throws (called once tar succeeded, before the store keeps anything),
   * so the store never puts a partial or unwanted archive in place of a good one.
   */
  async archive(
    containerId: string,
    conversationId: string,
    verify: () => Promise<void> = () => Promise.resolve(),
  ): Promise<number> {
    const tar = await this.runtime.attachBulk(containerId, TAR_CREATE);
    tar.stdin.end();
    const stderr = collectTail(tar.stderr);
    const body = new TarBody(async () => {
      const exitCode = await tar.exited;
      if (exitCode !== 0) throw new Error(`tar exited with ${exitCode}: ${await stderr}`);
      await verify();
    });
    tar.stdout.pipe(body);
    // A store that fails (disk full) stops reading: close the exec so tar does not block forever.
    body.once('error', () => tar.stdin.destroy());
    return this.archives.put(conversationId, encode(body, await body.format));
  }

  /**
   * Starts `tar -x` in the container, waiting on its stdin for an archive that may come. Warm
   * containers get one while they wait for a conversation: `docker exec` takes 100–150 ms to
   * start a process (measured), which a restore then does not wait for.
   */
  async startExtractor(
    containerId: string,
    options: { running?: boolean } = {},
  ): Promise<Extractor> {
    const process = await this.runtime.attachBulk(
      containerId,
      options.running === true
        ? ['sh', '-c', 'echo; exec "$@"', 'sh', ...TAR_EXTRACT]
        : TAR_EXTRACT,
    );
    const extractor: Extractor = {
      process,
      stderr: collectTail(process.stderr),
      ended: false,
    };
    void process.exited.then(() => {
      extractor.ended = true;
    });
    // The exec call returns once the connection is upgraded, before the process runs; with
    // `running` it returns once the shell's first line arrived (and tar is taking its place).
    if (options.running === true) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const started = await new Promise<boolean>((resolve) => {
        process.stdout.once('data', () => resolve(true));
        process.stdout.once('end', () => resolve(true));
        // A warm container waiting on this forever would also hold up shutdown's drain.
        timer = setTimeout(() => resolve(false), EXTRACTOR_START_MS);
      });
      clearTimeout(timer);
      if (!started) {
        process.stdin.destroy();
        throw new Error(`tar -x did not start within ${EXTRACTOR_START_MS / 1000} s`);
      }
    }
    process.stdout.resume();
    return extractor;
  }

  /**
   * Unpacks the conversation's archive into the container; false when there is none. `ready` is
   * an extractor started earlier for this container: used if it is still waiting, else ended.
   */
  async restore(containerId: string, conversationId: string, ready?: Extractor): Promise<boolean> {
    let archive: OpenedArchive | null;
    try {
      archive = await this.open(conversationId);
    } catch (error) {
      if (ready) discard(ready);
      throw error;
    }
    if (!archive) {
      if (ready) discard(ready);
      return false;
    }
    const opened = archive;
    const tar =
      ready?.ended === false
        ? ready
        : await this.startExtractor(containerId).catch((error: unknown) => {
            opened.close();
            throw error;
          });
    const fed = opened.feed(tar.process.stdin).then(
      () => null,
      (error: unknown) => error,
    );
    // tar stops reading at the end-of-archive blocks and may exit before the last padding is
    // sent; the feed then fails with a closed connection, which is no failure. Its exit code is
    // the verdict: a feed that broke off early (store read error) leaves tar a truncated archive.
    const [exitCode, feedError] = await Promise.all([tar.process.exited, fed]);
    if (exitCode !== 0) {
      const reason = (await tar.stderr) || `tar exited with ${exitCode}`;
      throw restoreFailed(feedError === null ? reason : `${reason} (${String(feedError)})`);
    }
    return true;
  }

  /** The stored archive, its first bytes read (they tell the format); null when there is none. */
  private async open(conversationId: string): Promise<OpenedArchive | null> {
    if (this.archives.openFile) {
      const file = await this.archives.openFile(conversationId);
      return file && openedFile(file);
    }
    const stream = await this.archives.get(conversationId);
    return stream && openedStream(stream);
  }
}

/** A stored archive ready to be fed into `tar -x`. */
interface OpenedArchive {
  /** Writes the tar stream (decoded if need be) into `sink` and ends it. */
  feed(sink: Writable): Promise<void>;
  /** Gives the archive up unread. */
  close(): void;
}

async function openedStream(archive: Readable): Promise<OpenedArchive> {
  let head: Buffer;
  try {
    head = await readHead(archive, ZSTD_MAGIC.length);
  } catch (error) {
    archive.destroy();
    throw restoreFailed(String(error));
  }
  // A stream that already ended cannot take its bytes back; one that is this short is all head.
  const source = archive.readableEnded ? Readable.from([head]) : archive;
  if (source === archive) archive.unshift(head);
  const decoder = decoderFor(formatOf(head));
  return {
    feed: (sink) => pipelineAsync(decoder ? [source, decoder, sink] : [source, sink]),
    close: () => archive.destroy(),
  };
}

async function openedFile(file: FileHandle): Promise<OpenedArchive> {
  let head: Buffer;
  try {
    const probe = Buffer.alloc(ZSTD_MAGIC.length);
    const { bytesRead } = await file.read(probe, 0, probe.length, 0);
    head = probe.subarray(0, bytesRead);
  } catch (error) {
    await file.close().catch(() => undefined);
    throw restoreFailed(String(error));
  }
  const decoder = decoderFor(formatOf(head));
  return {
    feed: async (sink) => {
      if (decoder === null && sink instanceof Socket) {
        try {
          await copyFileInto(file, sink);
        } finally {
          await file.close().catch(() => undefined);
        }
        return;
      }
      const source = file.createReadStream({ start: 0, highWaterMark: CHUNK_BYTES });
      await pipelineAsync(decoder ? [source, decoder, sink] : [source, sink]);
    },
    close: () => void file.close().catch(() => undefined),
  };
}

/**
 * Copies a file into a socket through two buffers used again and again, then ends the socket.
 * A stream would allocate a fresh buffer per read: measured here, writing 50 MiB into `docker
 * exec` that way spent 250–350 ms of CPU, mostly faulting in new pages and collecting them, and
 * took 400–490 ms; with the two buffers 70 ms of CPU and 215–255 ms. A buffer is filled again
 * only after the socket reported it written (libuv holds it until then).
 */
async function copyFileInto(file: FileHandle, sink: Socket): Promise<void> {
  const buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)];
  const written: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
  for (let index = 0; ; index ^= 1) {
    await written[index];
    const buffer = buffers[index] as Buffer;
    const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    written[index] = new Promise((resolve, reject) =>
      sink.write(chunk, (error) => (error ? reject(error) : resolve())),
    );
    // A failed write is seen when its buffer comes round again (or below); not unhandled here.
    written[index]?.catch(() => undefined);
  }
  await Promise.all(written);
  await new Promise<void>((resolve) => sink.end(resolve));
}

/** A `tar -x` into the workspace, started and waiting for an archive on its stdin. */
export interface Extractor {
  process: AttachedProcess;
  /** The end of tar's stderr, once it exited. */
  stderr: Promise<string>;
  /** Set once the process exited (or its connection broke): it can no longer be fed. */
  ended: boolean;
}

/** Ends an unused extractor: tar reads an empty archive and exits (its complaint is dropped). */
export function discard(extractor: Extractor): void {
  extractor.process.stdin.end();
}

/** The format for a tar stream whose first chunk is `sample`: zstd if it compresses, else none. */
export function chooseFormat(sample: Buffer): ArchiveFormat {
  const head = sample.subarray(0, SAMPLE_BYTES);
  if (head.length === 0) return 'tar';
  const compressed = zstdCompressSync(head, {
    params: { [zlibConstants.ZSTD_c_compressionLevel]: ZSTD_LEVEL },
  });
  return compressed.length < head.length * COMPRESSIBLE_BELOW ? 'zstd' : 'tar';
}

/**
 * What the first bytes of a stored archive say it is (archives from before zstd are gzip). Plain
 * tar from `tar -c .` starts with the entry name `./`, so it cannot be mistaken for either.
 */
export function formatOf(head: Buffer): ArchiveFormat {
  if (head.subarray(0, ZSTD_MAGIC.length).equals(ZSTD_MAGIC)) return 'zstd';
  if (head.subarray(0, GZIP_MAGIC.length).equals(GZIP_MAGIC)) return 'gzip';
  return 'tar';
}

function encode(body: Readable, format: ArchiveFormat): Readable {
  if (format !== 'zstd') return body;
  const compressor = createZstdCompress({
    params: { [zlibConstants.ZSTD_c_compressionLevel]: ZSTD_LEVEL },
    chunkSize: CHUNK_BYTES,
  });
  // A failing body destroys the compressor with the same error, which fails the store's write.
  return pipeline(body, compressor, () => undefined);
}

function decoderFor(format: ArchiveFormat): NodeJS.ReadWriteStream | null {
  if (format === 'zstd') return createZstdDecompress({ chunkSize: CHUNK_BYTES });
  if (format === 'gzip') return createGunzip({ chunkSize: CHUNK_BYTES });
  return null;
}

function restoreFailed(reason: string): SandboxError {
  return new SandboxError(
    'unavailable',
    `Restoring the archived workspace failed: ${reason.slice(0, 300)}`,
  );
}

/**
 * tar's output on its way to the store: gathered into pieces of CHUNK_BYTES, the first of which
 * decides `format`; it ends only once `verify` (tar's exit code) passed, and fails otherwise. It
 * is fed with `pipe` (flowing mode hands chunks over as they are; async iteration would read()
 * and concatenate whatever is buffered: a second copy of every byte, measured).
 */
class TarBody extends Transform {
  /** Settles with the first piece (or the end, or a failure), before anything is read. */
  readonly format: Promise<ArchiveFormat>;
  private decide: (format: ArchiveFormat) => void = () => undefined;
  private decided = false;
  private pending: Buffer[] = [];
  private length = 0;

  constructor(private readonly verify: () => Promise<void>) {
    super({ readableHighWaterMark: CHUNK_BYTES, writableHighWaterMark: CHUNK_BYTES });
    this.format = new Promise((resolve) => {
      this.decide = resolve;
    });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.pending.push(chunk);
    this.length += chunk.length;
    if (this.length >= CHUNK_BYTES) this.pushPending();
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.length > 0) this.pushPending();
    this.decide('tar');
    this.verify().then(
      () => callback(),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.decide('tar');
    callback(error);
  }

  private pushPending(): void {
    const piece =
      this.pending.length === 1 && this.pending[0] !== undefined
        ? this.pending[0]
        : Buffer.concat(this.pending, this.length);
    this.pending = [];
    this.length = 0;
    if (!this.decided) this.decide(chooseFormat(piece));
    this.decided = true;
    this.push(piece);
  }
}

/**
 * Reads until at least `bytes` bytes (or the end) have arrived, without consuming them for good:
 * the caller puts them back with `unshift`.
 */
function readHead(stream: Readable, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let length = 0;
    const done = (error: Error | null): void => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', done);
      if (error) reject(error);
      else resolve(Buffer.concat(parts, length));
    };
    const onEnd = (): void => done(null);
    const onReadable = (): void => {
      let chunk: Buffer | null;
      while (length < bytes && (chunk = stream.read() as Buffer | null) !== null) {
        parts.push(chunk);
        length += chunk.length;
      }
      if (length >= bytes) done(null);
    };
    stream.on('readable', onReadable);
    stream.once('end', onEnd);
    stream.once('error', done);
  });
}

/** The last bytes a stream wrote, as text, once it ends. */
function collectTail(stream: Readable): Promise<string> {
  return new Promise((resolve) => {
    let kept = Buffer.alloc(0);
    stream.on('data', (chunk: Buffer) => {
      kept = Buffer.concat([kept, chunk]);
      if (kept.length > STDERR_BYTES) kept = kept.subarray(kept.length - STDERR_BYTES);
    });
    const finish = (): void => resolve(kept.toString('utf8').trim());
    stream.once('end', finish);
    stream.once('error', finish);
  });
}
