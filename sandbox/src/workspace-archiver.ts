/**
 * Moves a container's /workspace to and from the archive store. Archive: `tar -c` in the
 * container, streamed out through the container's save pipe (transfer-pipes.ts; `docker exec`'s
 * stdout where there is none) in 1 MiB chunks, compressed with zstd only when a sample of the
 * stream compresses, straight into the store. Restore: the stored bytes, decoded by their magic
 * number (zstd, gzip — what older versions wrote — or plain tar), streamed into `tar -x` in the
 * new container through its load pipe (or `docker exec`'s stdin). Nothing holds a whole archive in
 * memory. The tar processes are `docker exec`s either way: their exit code is the verdict.
 *
 * A restore that fails because the newest archive cannot be read (a truncated or corrupted file:
 * the decoder or the tar structure fails when it is read through on the host) empties the
 * workspace again and restores the previous generation instead; the store keeps the damaged one
 * aside (archive-store.ts). A restore that fails for another reason (the container died, its
 * tmpfs is full) is not mistaken for damage: the archive reads fine, and the error stands. When
 * no save can be read (no older one, or it is damaged too) the error's code is `damaged-save`:
 * the user's way out is to start empty (damaged-saves.ts).
 */
import {
  close as closeFd,
  constants as fsConstants,
  open as openFd,
  read as readFd,
} from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { pipeline, Readable, Transform, Writable } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import {
  constants as zlibConstants,
  createGunzip,
  createZstdCompress,
  createZstdDecompress,
  zstdCompressSync,
} from 'node:zlib';
import type { ArchiveStore, Generation } from './archive-store';
import { WORKSPACE } from './container-template';
import type { AttachedProcess, DockerRuntime } from './docker-runtime';
import { SandboxError } from './sandbox-service';
import { describeRestoreFailure, describeTarExit } from './tar-exit';
import { LOAD_PIPE, PROBE_PIPE, SAVE_PIPE, TRANSFER_MOUNT } from './transfer-pipes';

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
/** How long a waiting tar may take to start (measured: 100–150 ms idle). */
const TAR_START_MS = 30_000;
/** Bytes of tar's stderr kept for an error message. */
const STDERR_BYTES = 4096;

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

const TAR_CREATE = ['tar', '-c', '-C', WORKSPACE, '.'];
const TAR_EXTRACT = ['tar', '-x', '-C', WORKSPACE, '--no-same-owner', '--no-same-permissions'];
/**
 * tar -x from the load pipe. -B: a pipe delivers short reads, which tar -f takes for damage; -b
 * 2048: it reads 1 MiB at a time, not 10 KiB (each read woke the sidecar to refill the pipe:
 * 50 MiB took 190–730 ms that way, 90–130 ms so; measured with `cat` as the writer).
 */
const TAR_EXTRACT_PIPE = [
  ...TAR_EXTRACT,
  '-B',
  '-b',
  '2048',
  '-f',
  `${TRANSFER_MOUNT}/${LOAD_PIPE}`,
];
/**
 * tar -c into the save pipe; it waits in open() until the sidecar opens the read end. -b 2048:
 * 1 MiB writes, not 10 KiB (a 50 MiB save took a median 311 ms against 525 ms, interleaved runs
 * under load); the archive's end is padded to 1 MiB with zeros (tar's record), which zstd shrinks
 * to nothing and which costs a plain-tar archive (≥ 1 MiB of incompressible data) under 1 MiB.
 */
const TAR_CREATE_PIPE = [
  'tar',
  '-c',
  '-b',
  '2048',
  '-f',
  `${TRANSFER_MOUNT}/${SAVE_PIPE}`,
  '-C',
  WORKSPACE,
  '.',
];
/** Prints an empty line, then becomes the command: the line says the process runs. */
const ANNOUNCED = ['sh', '-c', 'echo; exec "$@"', 'sh'];
/**
 * Whether a container's pipes reach the sidecar: a write that needs a reader present (`dd
 * oflag=nonblock` fails at once without one) while the sidecar holds the read end. An engine in a
 * VM shows the container a FIFO of its own, which no reader holds: the probe fails, never hangs.
 */
const PIPE_PROBE = [
  'sh',
  '-c',
  `echo ok | dd of=${TRANSFER_MOUNT}/${PROBE_PIPE} oflag=nonblock status=none`,
];
/** Empties the workspace a damaged archive was partly unpacked into. */
const CLEAR_WORKSPACE = ['find', WORKSPACE, '-mindepth', '1', '-delete'];
const TAR_BLOCK = 512;

/** What a restore found. */
export interface RestoreResult {
  /** False when the conversation has no archive (the workspace starts empty). */
  restored: boolean;
  /**
   * Set when the newest archive could not be read and the previous generation was restored:
   * when that one was saved, why the newest could not be read, and the name it is kept under
   * (null when keeping it aside failed: it then stays the newest).
   */
  olderSave?: { savedAt: number | null; damage: string; keptAs: string | null; keepError?: string };
}

export class WorkspaceArchiver {
  /** Whether transfer pipes reach this sidecar (see `pipeDir`); null until probed. */
  private pipesReach: Promise<boolean> | null = null;

  constructor(
    private readonly runtime: DockerRuntime,
    private readonly archives: ArchiveStore,
  ) {}

  /**
   * Archives the container's workspace under the conversation; returns the archive's size. The
   * stream handed to the store fails instead of ending when tar fails (non-zero exit, container
   * gone) or when `verify` throws (called once tar's output ended, so after it read the whole
   * workspace, while its exit is awaited; heeded only when tar succeeded; before the store keeps
   * anything), so the store never puts a partial or unwanted archive in place of a good one.
   */
  async archive(
    containerId: string,
    conversationId: string,
    verify: () => Promise<void> = () => Promise.resolve(),
    ready?: TarProcess,
  ): Promise<number> {
    const start = async (): Promise<TarProcess> =>
      (await this.startSaver(containerId)) ??
      (await this.startExec(containerId, TAR_CREATE, null, 'read'));
    let tar = ready?.ended === false ? ready : await start();
    let source = await outputOf(tar);
    // A waiting tar whose container was killed or restarted may not be known to have ended yet.
    if (source === null && tar === ready) source = await outputOf((tar = await start()));
    if (source === null) {
      const exitCode = await tar.process.exited;
      throw new Error(`tar ended before the save reached it (${describeTarExit(exitCode)})`);
    }
    const saver = tar;
    // Called once tar's output ended (it has read the whole workspace): `verify` runs while the
    // exec's exit is awaited (10–25 ms here), and counts only when tar exited 0.
    const check = async (): Promise<void> => {
      const verified = verify();
      verified.catch(() => undefined);
      const exitCode = await saver.process.exited;
      if (exitCode !== 0) {
        const said = (await saver.stderr).trim();
        throw new Error(`${describeTarExit(exitCode)}${said ? `: ${said}` : ''}`);
      }
      await verified;
    };
    if (typeof source === 'number' && this.archives.putWith) {
      const fd = source;
      return this.archives.putWith(conversationId, (sink) => copyPipeInto(fd, sink, check));
    }
    const output =
      typeof source === 'number'
        ? new Socket({ fd: source, readable: true, writable: false })
        : source;
    const body = new TarBody(check);
    output.pipe(body);
    // A store that fails (disk full) stops reading: close the exec so tar does not block forever.
    body.once('error', () => {
      output.destroy();
      saver.process.stdin.destroy();
    });
    return this.archives.put(conversationId, encode(body, await body.format));
  }

  /**
   * Starts a `tar -c` of the workspace that waits, blocked opening the container's save pipe,
   * until `archive` opens the other end: a save then does not wait the 85–150 ms `docker exec`
   * takes to start a process (measured). Null when the container has no pipes that work.
   */
  async startSaver(containerId: string): Promise<TarProcess | null> {
    const directory = await this.pipeDir(containerId);
    if (directory === null) return null;
    return this.startWaiting(
      containerId,
      [...ANNOUNCED, ...TAR_CREATE_PIPE],
      join(directory, SAVE_PIPE),
    );
  }

  /**
   * Starts `tar -x` in the container, waiting on its load pipe (or its stdin) for an archive that
   * may come. Warm containers get one while they wait for a conversation: `docker exec` takes
   * 100–150 ms to start a process (measured), which a restore then does not wait for.
   */
  async startExtractor(
    containerId: string,
    options: { running?: boolean } = {},
  ): Promise<TarProcess> {
    const directory = await this.pipeDir(containerId);
    const pipe = directory === null ? null : join(directory, LOAD_PIPE);
    const command = pipe === null ? TAR_EXTRACT : TAR_EXTRACT_PIPE;
    return options.running === true
      ? this.startWaiting(containerId, [...ANNOUNCED, ...command], pipe)
      : this.startExec(containerId, command, pipe);
  }

  /** A tar (or the shell that becomes it) started in the container with `docker exec`. */
  private async startExec(
    containerId: string,
    command: string[],
    pipe: string | null = null,
    stdout: 'read' | 'drop' = 'drop',
  ): Promise<TarProcess> {
    const process = await this.runtime.attachBulk(containerId, command);
    const tar: TarProcess = { process, stderr: collectTail(process.stderr), ended: false, pipe };
    void process.exited.then(() => {
      tar.ended = true;
    });
    if (stdout === 'drop') process.stdout.resume();
    return tar;
  }

  /**
   * Like `startExec`, for a shell that prints an empty line and then becomes tar: returns once
   * that line arrived. The exec call returns once the connection is upgraded, before the process
   * runs; a tar waiting for its pipe to open, or on stdin, is then ready.
   */
  private async startWaiting(
    containerId: string,
    command: string[],
    pipe: string | null,
  ): Promise<TarProcess> {
    const tar = await this.startExec(containerId, command, pipe, 'read');
    const { process } = tar;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = await new Promise<boolean>((resolve) => {
      process.stdout.once('data', () => resolve(true));
      process.stdout.once('end', () => resolve(true));
      // A warm container waiting on this forever would also hold up shutdown's drain.
      timer = setTimeout(() => resolve(false), TAR_START_MS);
    });
    clearTimeout(timer);
    if (!started) {
      process.stdin.destroy();
      throw new Error(`tar did not start within ${TAR_START_MS / 1000} s`);
    }
    process.stdout.resume();
    return tar;
  }

  /**
   * The host directory of the container's transfer pipes, or null when it has none or they do
   * not reach this sidecar (probed once, in the first container that has them).
   */
  private async pipeDir(containerId: string): Promise<string | null> {
    const directory = this.runtime.transferDir(containerId);
    if (directory === null) return null;
    this.pipesReach ??= probePipes(this.runtime, containerId, directory).catch(() => {
      // The container went away mid-probe: that says nothing about the pipes; ask again later.
      this.pipesReach = null;
      return false;
    });
    return (await this.pipesReach) ? directory : null;
  }

  /**
   * Unpacks the conversation's archive into the container (restored: false when there is none).
   * `ready` is an extractor started earlier for this container: used if it is still waiting, else
   * ended. When the newest archive is damaged, the previous generation is restored (see the
   * header); when that fails too, or there is none, the error says so and no archive is touched.
   */
  async restore(
    containerId: string,
    conversationId: string,
    ready?: TarProcess,
    now: () => number = Date.now,
  ): Promise<RestoreResult> {
    try {
      return {
        restored: await this.restoreGeneration(containerId, conversationId, 'current', ready),
      };
    } catch (error) {
      const damage = await this.damageOf(conversationId, 'current').catch(() => null);
      if (damage === null) throw error;
      return this.restorePrevious(containerId, conversationId, damage, now);
    }
  }

  /** The newest archive is damaged (`damage` says how): the previous one, into an empty workspace. */
  private async restorePrevious(
    containerId: string,
    conversationId: string,
    damage: string,
    now: () => number,
  ): Promise<RestoreResult> {
    const unreadable = `the last save of /workspace could not be read (${damage})`;
    const where = this.archives.location(conversationId);
    const savedAt = await this.archives.savedAt(conversationId, 'previous');
    let restored: boolean;
    try {
      const cleared = await this.runtime.run(containerId, CLEAR_WORKSPACE);
      if (cleared.exitCode !== 0) {
        throw new Error(`emptying /workspace failed: ${cleared.stderr.toString('utf8').trim()}`);
      }
      restored = await this.restoreGeneration(containerId, conversationId, 'previous');
    } catch (error) {
      // Only when the older save is damaged too is starting empty the way out; an older save
      // that reads fine but did not restore (a full tmpfs) is tried again, so the code stays.
      const olderDamaged = await this.damageOf(conversationId, 'previous').catch(() => null);
      throw restoreFailed(
        `${unreadable}, and restoring the older save failed too (${describeError(error)}); both saves are kept as they are (${where})`,
        olderDamaged === null ? 'unavailable' : 'damaged-save',
      );
    }
    if (!restored) {
      throw restoreFailed(
        `${unreadable} and there is no older save; the damaged save is kept (${where})`,
        'damaged-save',
      );
    }
    try {
      const keptAs = await this.archives.setAsideDamaged(conversationId, now());
      return { restored: true, olderSave: { savedAt, damage, keptAs } };
    } catch (error) {
      return {
        restored: true,
        olderSave: { savedAt, damage, keptAs: null, keepError: describeError(error) },
      };
    }
  }

  /** Unpacks one generation into the container; false when there is none. */
  private async restoreGeneration(
    containerId: string,
    conversationId: string,
    generation: Generation,
    ready?: TarProcess,
  ): Promise<boolean> {
    let archive: OpenedArchive | null;
    try {
      archive = await this.open(conversationId, generation);
    } catch (error) {
      if (ready) discard(ready);
      throw error;
    }
    if (!archive) {
      if (ready) discard(ready);
      return false;
    }
    const opened = archive;
    const start = (): Promise<TarProcess> =>
      this.startExtractor(containerId).catch((error: unknown) => {
        opened.close();
        throw error;
      });
    let tar = ready?.ended === false ? ready : await start();
    let sink = await inputOf(tar);
    // A waiting tar whose container was killed may not be known to have ended yet.
    if (sink === null && tar === ready) sink = await inputOf((tar = await start()));
    if (sink === null) {
      opened.close();
      const exitCode = await tar.process.exited;
      throw restoreFailed(`tar ended before the archive reached it (${describeTarExit(exitCode)})`);
    }
    const fed = opened.feed(sink).then(
      () => null,
      (error: unknown) => error,
    );
    // tar stops reading at the end-of-archive blocks and may exit before the last padding is
    // sent; the feed then fails with a closed connection, which is no failure. Its exit code is
    // the verdict: a feed that broke off early (store read error) leaves tar a truncated archive.
    const [exitCode, feedError] = await Promise.all([tar.process.exited, fed]);
    if (exitCode !== 0) {
      throw restoreFailed(
        describeRestoreFailure(
          exitCode,
          await tar.stderr,
          feedError === null ? null : describeError(feedError),
        ),
      );
    }
    return true;
  }

  /**
   * Why the stored generation cannot be read, or null when it can (or is missing): it is read
   * through on the host, decoded, and its tar headers walked (checksums, sizes, the end).
   * A store that cannot be reached throws: that is no proof of damage.
   */
  async damageOf(conversationId: string, generation: Generation): Promise<string | null> {
    const archive = await this.open(conversationId, generation);
    if (!archive) return null;
    const check = new TarCheck();
    try {
      await archive.feed(check);
    } catch (error) {
      return describeError(error);
    }
    return check.problem();
  }

  /** The stored archive, its first bytes read (they tell the format); null when there is none. */
  private async open(
    conversationId: string,
    generation: Generation = 'current',
  ): Promise<OpenedArchive | null> {
    if (this.archives.openFile) {
      const file = await this.archives.openFile(conversationId, generation);
      return file && openedFile(file);
    }
    const stream = await this.archives.get(conversationId, generation);
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

/**
 * A tar in the container (`docker exec`): a `tar -x` waiting for an archive (an extractor), or a
 * `tar -c` waiting to write one (a saver).
 */
export interface TarProcess {
  process: AttachedProcess;
  /** The end of tar's stderr, once it exited. */
  stderr: Promise<string>;
  /** Set once the process exited (or its connection broke): it can no longer be used. */
  ended: boolean;
  /** The host end of the transfer pipe it reads or writes; null: its stdin or stdout. */
  pipe: string | null;
}

/**
 * Ends an unused extractor: tar reads an empty archive and exits (its complaint is dropped). Its
 * pipe is opened for writing and closed at once; the open waits for tar to open its end, which it
 * may not have reached yet (a non-blocking open would then miss it and leave tar waiting).
 */
export function discard(extractor: TarProcess): void {
  extractor.process.stdin.end();
  if (extractor.pipe === null) return;
  void openPipe(extractor.pipe, 'write', extractor.process.exited).then(
    (fd) => fd !== null && closeFd(fd, () => undefined),
    () => undefined,
  );
}

/**
 * Where a saver's tar stream comes out: its stdout, or the descriptor of its pipe's read end; null
 * when it ended before its pipe opened.
 */
async function outputOf(tar: TarProcess): Promise<Readable | number | null> {
  tar.process.stdin.end();
  if (tar.pipe === null) return tar.process.stdout;
  return openPipe(tar.pipe, 'read', tar.process.exited);
}

/** Where an extractor takes its archive; null when it ended before its pipe opened. */
async function inputOf(tar: TarProcess): Promise<Writable | null> {
  if (tar.pipe === null) return tar.process.stdin;
  tar.process.stdin.end();
  const fd = await openPipe(tar.pipe, 'write', tar.process.exited);
  return fd === null ? null : new Socket({ fd, readable: false, writable: true });
}

/**
 * Copies a save from its pipe into the store's sink through two buffers used again and again
 * (compressed on the way when its first 1 MiB compresses), then waits for `check` (tar's exit
 * code, the caller's verify) before it ends the sink: a failed check leaves the sink unended and
 * the put fails. A stream would allocate a fresh buffer per read: measured here, reading 50 MiB
 * from the pipe that way cost 180–310 ms of CPU, with reused buffers 50–100 ms. The pipe is read
 * by the event loop (a socket with its own buffers, `onread`), each read appending to the buffer
 * being filled; a full buffer goes to the sink, and one is filled again only after the sink (or
 * the compressor) called back for it (its bytes are written, or consumed): until then reading
 * pauses. The pipe is closed whatever happens, so a tar still writing fails.
 */
async function copyPipeInto(fd: number, sink: Writable, check: () => Promise<void>): Promise<void> {
  const buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)];
  const written: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
  let index = 0;
  let filled = 0;
  let output: Writable | null = null;
  let compressed: Promise<void> | null = null;
  /** Hands the bytes gathered in the current buffer on and switches to the other buffer. */
  const handOn = (): void => {
    const chunk = (buffers[index] as Buffer).subarray(0, filled);
    if (output === null) {
      output = sink;
      if (chooseFormat(chunk) === 'zstd') {
        const compressor = zstdCompressor();
        compressed = pipelineAsync(compressor, sink);
        // Its failure is seen below (the writes fail too), not as an unhandled rejection.
        compressed.catch(() => undefined);
        output = compressor;
      }
    }
    const target = output;
    written[index] = new Promise((resolve, reject) =>
      target.write(chunk, (error) => (error ? reject(error) : resolve())),
    );
    // A failed write is seen when its buffer comes round again (or at the end).
    written[index]?.catch(() => undefined);
    index ^= 1;
    filled = 0;
  };
  const pipe = new Socket({
    fd,
    readable: true,
    writable: false,
    onread: {
      buffer: () => (buffers[index] as Buffer).subarray(filled),
      callback: (bytes) => {
        filled += bytes;
        if (filled < CHUNK_BYTES) return true;
        handOn();
        // The buffer to fill next is still being written: wait for it.
        void written[index]?.then(
          () => pipe.resume(),
          (error: unknown) =>
            pipe.destroy(error instanceof Error ? error : new Error(String(error))),
        );
        return false;
      },
    },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      pipe.once('end', resolve);
      pipe.once('error', reject);
      pipe.resume();
    });
    if (filled > 0 || output === null) handOn();
    await Promise.all(written);
  } catch (error) {
    // A compressor whose sink failed (a full disk) refuses later writes as "destroyed": the
    // sink's own error says what happened.
    throw (await failureOf(compressed)) ?? error;
  } finally {
    pipe.destroy();
  }
  await check();
  (output as Writable | null)?.end();
  if (compressed) await compressed;
}

/** Why `work` failed if it has by the next turn of the event loop, else null. */
async function failureOf(work: Promise<void> | null): Promise<unknown> {
  if (work === null) return null;
  return Promise.race([
    work.then(
      () => null,
      (error: unknown) => error,
    ),
    new Promise<null>((resolve) => setImmediate(() => resolve(null))),
  ]);
}

/**
 * Opens the host end of a transfer pipe (its descriptor), waiting (in libuv's thread pool) until the tar in the
 * container has opened the other end. Null when that tar ended before it could use the pipe: the
 * wait is then ended too (`releasePipe`). A `tar -c` that ended well had opened it (its whole
 * output then waits in the pipe); a `tar -x` that ended before the archive came cannot have
 * unpacked it, however it ended.
 */
async function openPipe(
  path: string,
  end: 'read' | 'write',
  exited: Promise<number | null>,
): Promise<number | null> {
  let opened = false;
  let released = false;
  void exited.then(() => {
    if (opened) return;
    released = true;
    void releasePipe(path);
  });
  const fd = await new Promise<number>((resolve, reject) =>
    openFd(path, end === 'read' ? fsConstants.O_RDONLY : fsConstants.O_WRONLY, (error, fd) =>
      error ? reject(error) : resolve(fd),
    ),
  );
  opened = true;
  if (released && (end === 'write' || (await exited) !== 0)) {
    closeFd(fd, () => undefined);
    return null;
  }
  return fd;
}

/**
 * Ends whatever waits to open the pipe, on either side: an open of each end that never waits
 * (a write end opens only while a reader waits, hence after the read end), closed at once.
 */
async function releasePipe(path: string): Promise<void> {
  for (const flags of [fsConstants.O_RDONLY, fsConstants.O_WRONLY]) {
    const fd = await new Promise<number | null>((resolve) =>
      openFd(path, flags | fsConstants.O_NONBLOCK, (error, fd) => resolve(error ? null : fd)),
    );
    if (fd !== null) closeFd(fd, () => undefined);
  }
}

/** Whether the container's pipes reach this sidecar (see PIPE_PROBE). */
async function probePipes(
  runtime: DockerRuntime,
  containerId: string,
  directory: string,
): Promise<boolean> {
  const fd = await new Promise<number>((resolve, reject) =>
    openFd(
      join(directory, PROBE_PIPE),
      fsConstants.O_RDONLY | fsConstants.O_NONBLOCK,
      (error, fd) => (error ? reject(error) : resolve(fd)),
    ),
  );
  try {
    const probe = await runtime.run(containerId, PIPE_PROBE);
    if (probe.exitCode !== 0) return false;
    const buffer = Buffer.alloc(16);
    const bytesRead = await new Promise<number>((resolve) =>
      readFd(fd, buffer, 0, buffer.length, null, (error, bytes) => resolve(error ? 0 : bytes)),
    );
    return buffer.subarray(0, bytesRead).toString('utf8') === 'ok\n';
  } finally {
    closeFd(fd, () => undefined);
  }
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
  // A failing body destroys the compressor with the same error, which fails the store's write.
  return pipeline(body, zstdCompressor(), () => undefined);
}

function zstdCompressor(): Transform {
  return createZstdCompress({
    params: { [zlibConstants.ZSTD_c_compressionLevel]: ZSTD_LEVEL },
    chunkSize: CHUNK_BYTES,
  });
}

function decoderFor(format: ArchiveFormat): NodeJS.ReadWriteStream | null {
  if (format === 'zstd') return createZstdDecompress({ chunkSize: CHUNK_BYTES });
  if (format === 'gzip') return createGunzip({ chunkSize: CHUNK_BYTES });
  return null;
}

function restoreFailed(
  reason: string,
  code: 'unavailable' | 'damaged-save' = 'unavailable',
): SandboxError {
  return new SandboxError(code, `Restoring the archived workspace failed: ${reason.slice(0, 700)}`);
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/**
 * A sink that walks a tar stream's structure without keeping it: each header's checksum, the
 * data its size announces, and the end. Not a parser of contents: enough to tell a damaged
 * archive (cut short, or overwritten) from a good one, as GNU tar -x would judge it.
 */
class TarCheck extends Writable {
  private pending = Buffer.alloc(0);
  /** Bytes of entry data (and padding) still to skip before the next header. */
  private skip = 0;
  private ended = false;
  private damage: string | null = null;
  private offset = 0;

  constructor() {
    super({ highWaterMark: CHUNK_BYTES });
  }

  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    if (this.ended || this.damage !== null) {
      callback();
      return;
    }
    let data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    while (data.length > 0 && !this.ended && this.damage === null) {
      if (this.skip > 0) {
        const skipped = Math.min(this.skip, data.length);
        this.skip -= skipped;
        this.offset += skipped;
        data = data.subarray(skipped);
        continue;
      }
      if (data.length < TAR_BLOCK) break;
      this.header(data.subarray(0, TAR_BLOCK));
      this.offset += TAR_BLOCK;
      data = data.subarray(TAR_BLOCK);
    }
    this.pending = Buffer.from(data);
    callback();
  }

  /** Null when the stream held a whole archive; else what is wrong with it. */
  problem(): string | null {
    if (this.damage !== null) return this.damage;
    if (this.ended) return null;
    if (this.skip > 0 || this.pending.length > 0) {
      return `the archive ends in the middle of an entry, after ${this.offset + this.pending.length} bytes`;
    }
    return this.offset === 0 ? 'the archive is empty' : null;
  }

  private header(block: Buffer): void {
    if (block.every((byte) => byte === 0)) {
      this.ended = true;
      return;
    }
    let sum = 0;
    for (let index = 0; index < TAR_BLOCK; index++) {
      sum += index >= 148 && index < 156 ? 0x20 : (block[index] as number);
    }
    const stored = parseInt(
      block.subarray(148, 156).toString('latin1').replace(/\0.*$/s, '').trim(),
      8,
    );
    if (stored !== sum) {
      this.damage = `a tar header at byte ${this.offset} is corrupted (checksum)`;
      return;
    }
    const size = tarSize(block.subarray(124, 136));
    if (size === null) {
      this.damage = `a tar header at byte ${this.offset} has an unreadable size`;
      return;
    }
    this.skip = Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
  }
}

/** A tar header's size field: octal text, or GNU's base-256 for sizes of 8 GiB and more. */
function tarSize(field: Buffer): number | null {
  if (((field[0] as number) & 0x80) !== 0) {
    let size = 0;
    for (let index = 1; index < field.length; index++) size = size * 256 + (field[index] as number);
    return size;
  }
  const text = field.toString('latin1').replace(/\0.*$/s, '').trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) return null;
  return parseInt(text, 8);
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
