/**
 * Named pipes through which a container's `tar` moves /workspace to and from the sidecar, so its
 * bytes skip `docker exec`'s stdio: that path (process → containerd-shim → dockerd → socket) moved
 * 50 MiB in 250–320 ms here, a pipe in 60–100 ms (measured, `npm run bench -- --only=sandbox`).
 *
 * Each session container gets a directory of its own, bind-mounted read-only at TRANSFER_MOUNT
 * (container-template.ts), holding FIFOs: `save` (tar -c writes, the sidecar reads), `load` (the
 * sidecar writes, tar -x reads) and `probe` (written once, to learn whether the pipes work). Read-only: the container can neither create, remove nor
 * change a file in it, nor write anything to the host's disk through it; opening a FIFO is all it
 * can do (the kernel allows that on a read-only mount), and only its own, since no other container
 * mounts this directory. Modes say who opens which end (save and probe 0622, load 0644) where the container's
 * user differs from the sidecar's; where they are the same uid (a desktop user 1000), code in the
 * container could open the other end of its own pipes too, which can spoil only its own save, as
 * deleting its files could: a save it spoils is found damaged at restore and the one before it
 * restored (workspace-archiver.ts). Bytes from a pipe reach the sidecar as they do from `docker
 * exec`: as a tar stream stored for that conversation, nothing else.
 *
 * The directories live under one private directory per sidecar (mkdtemp: new, 0700, this user's),
 * never under the data folder (a FIFO there would stall anything that copies the folder). Where
 * pipes cannot be made (no mkfifo) or do not reach the container (an engine in a VM), the archiver
 * falls back to `docker exec`'s stdio (WorkspaceArchiver's probe); gVisor containers get none
 * (DockerRuntime.startContainer).
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a session container sees its transfer directory. */
export const TRANSFER_MOUNT = '/run/aivory-transfer';
/** The FIFO `tar -c` writes a save into. */
export const SAVE_PIPE = 'save';
/** The FIFO `tar -x` reads a restore from. */
export const LOAD_PIPE = 'load';
/** The FIFO that tells whether the pipes reach the sidecar (WorkspaceArchiver's probe). */
export const PROBE_PIPE = 'probe';

export class TransferPipes {
  private root: Promise<string | null> | null = null;
  private rootPath: string | null = null;

  /**
   * Makes the transfer directory for a container about to be created under `name`; returns its
   * host path, or null when pipes cannot be made here (the container then goes without).
   */
  async prepare(name: string): Promise<string | null> {
    this.root ??= mkdtemp(join(tmpdir(), 'aivory-transfer-')).then(
      (path) => (this.rootPath = path),
      () => null,
    );
    const root = await this.root;
    if (root === null) return null;
    const directory = join(root, name);
    try {
      await mkdir(directory);
      // The container's user (not the owner) must reach the pipes; listing it needs nothing.
      await chmod(directory, 0o711);
      const [save, load, probe] = [SAVE_PIPE, LOAD_PIPE, PROBE_PIPE].map((pipe) =>
        join(directory, pipe),
      ) as [string, string, string];
      await mkfifo([save, load, probe]);
      await chmod(save, 0o622);
      await chmod(probe, 0o622);
      await chmod(load, 0o644);
      return directory;
    } catch {
      await rm(directory, { recursive: true, force: true });
      return null;
    }
  }

  /** Removes a container's transfer directory (its container is gone). */
  async remove(directory: string): Promise<void> {
    await rm(directory, { recursive: true, force: true });
  }

  /** Removes every transfer directory (the sidecar stops; its containers are gone or kept). */
  close(): void {
    if (this.rootPath !== null) rmSync(this.rootPath, { recursive: true, force: true });
    this.root = null;
    this.rootPath = null;
  }
}

function mkfifo(paths: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('mkfifo', ['-m', '0600', ...paths], (error) => (error ? reject(error) : resolve()));
  });
}
