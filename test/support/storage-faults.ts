/**
 * Real storage faults for the integration tests (root only): a small tmpfs as a data folder that
 * can be filled to the last page or remounted read-only, and a child process holding a lock on a
 * database (`sqlite-lock-child.ts`).
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openSync,
  rmSync,
  statfsSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LOCK_CHILD = fileURLToPath(new URL('./sqlite-lock-child.ts', import.meta.url));

/** A tmpfs mounted on a fresh folder. */
export interface SmallDisk {
  dir: string;
  /** Fills every free page with a file (`filler`); returns its path. */
  fill(): string;
  /** Deletes the filler: the disk has room again. */
  free(): void;
  /** Remounts the tmpfs read-only (`true`) or writable again. */
  setReadOnly(readOnly: boolean): void;
  /** Unmounts it and removes the folder. */
  remove(): void;
}

export function mountSmallDisk(bytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'aivory-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir]);
  const filler = join(dir, 'filler');
  return {
    dir,
    fill: () => {
      const descriptor = openSync(filler, 'a');
      try {
        // Large writes first, then page by page down to the last free page.
        for (const size of [1 << 16, 4096, 512, 1]) {
          const chunk = Buffer.alloc(size, 0x61);
          for (;;) {
            try {
              writeSync(descriptor, chunk);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        closeSync(descriptor);
      }
      if (statfsSync(dir).bavail !== 0) throw new Error(`${dir} still has free blocks`);
      return filler;
    },
    free: () => unlinkSync(filler),
    setReadOnly: (readOnly) =>
      execFileSync('mount', ['-o', `remount,${readOnly ? 'ro' : 'rw'}`, dir]),
    remove: () => {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A child holding a lock on a database until `release()`. */
export interface LockHolder {
  child: ChildProcess;
  /** Closes the child's stdin: it rolls back and exits; resolves once it has exited. */
  release(): Promise<void>;
}

/** Starts `sqlite-lock-child.ts` and resolves once it holds the lock (it printed `locked`). */
export async function holdLock(
  databasePath: string,
  mode: 'write' | 'exclusive',
): Promise<LockHolder> {
  const child = spawn(process.execPath, ['--import', 'tsx', LOCK_CHILD, databasePath, mode], {
    cwd: PROJECT_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    if (child.stdout === null) throw new Error('the lock child has no stdout');
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'locked') resolve();
    });
    child.once('exit', (code) => reject(new Error(`the lock child exited (${code}): ${stderr}`)));
  });
  return {
    child,
    release: async () => {
      child.stdin?.end();
      await exited;
    },
  };
}
