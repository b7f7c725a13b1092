/**
 * Moves a container's /workspace to and from the archive store: `tar | gzip` out of the
 * container on archive, `gunzip | tar -x` into a new one on restore.
 */
import { PassThrough } from 'node:stream';
import { constants as zlibConstants, createGunzip, createGzip } from 'node:zlib';
import type { ArchiveStore } from './archive-store';
import { WORKSPACE } from './container-template';
import type { DockerRuntime } from './docker-runtime';
import { SandboxError } from './sandbox-service';

/**
 * Archives are gzip with Huffman-only coding: about twice as fast as level 1 on data that does not
 * compress (images, PDFs, random bytes), still ~50% on text; large chunks cut per-chunk overhead.
 */
const ARCHIVE_CHUNK_BYTES = 256 * 1024;

export class WorkspaceArchiver {
  constructor(
    private readonly runtime: DockerRuntime,
    private readonly archives: ArchiveStore,
  ) {}

  /** Archives the container's workspace under the conversation; returns the archive's size. */
  async archive(containerId: string, conversationId: string): Promise<number> {
    const process = await this.runtime.attach(containerId, ['tar', '-c', '-C', WORKSPACE, '.']);
    process.stdin.end();
    const size = await this.archives.put(
      conversationId,
      process.stdout.pipe(
        createGzip({
          level: 1,
          strategy: zlibConstants.Z_HUFFMAN_ONLY,
          chunkSize: ARCHIVE_CHUNK_BYTES,
        }),
      ),
    );
    const exitCode = await process.exited;
    if (exitCode !== 0) throw new Error(`tar exited with ${exitCode}`);
    return size;
  }

  /** Unpacks the conversation's archive into the container; false when there is none. */
  async restore(containerId: string, conversationId: string): Promise<boolean> {
    const archive = await this.archives.get(conversationId);
    if (!archive) return false;
    const input = new PassThrough();
    archive.pipe(createGunzip()).pipe(input);
    const result = await this.runtime.run(
      containerId,
      ['tar', '-x', '-C', WORKSPACE, '--no-same-owner', '--no-same-permissions'],
      { input },
    );
    if (result.exitCode !== 0) {
      throw new SandboxError(
        'unavailable',
        `Restoring the archived workspace failed: ${result.stderr.toString('utf8').slice(0, 300)}`,
      );
    }
    return true;
  }
}
