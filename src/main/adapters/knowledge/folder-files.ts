/**
 * A knowledge folder on disk (`KnowledgeFiles`): a walk that never follows a symbolic link (a
 * link is listed as such and not read, so nothing outside the folder is ever reached through
 * one), leaves out hidden entries and `node_modules` (tools' caches and repositories' innards,
 * not the user's documents) and stops at an entry limit; bounded reads that refuse a link or a
 * special file swapped in after the walk (O_NOFOLLOW, O_NONBLOCK for a FIFO) and a file grown
 * past the limit.
 */
import { constants } from 'node:fs';
import type { Dirent } from 'node:fs';
import { lstat, open, opendir, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { formatBytes } from '../../../shared/byte-size';
import type { FileBytes, FolderEntry, FolderListing, KnowledgeFiles } from '../../core/ports';

/** Folders below this depth are not walked: no real document tree is this deep. */
const MAX_DEPTH = 64;

export function createFolderFiles(): KnowledgeFiles {
  return { checkFolder, list, read };
}

async function checkFolder(path: string): Promise<string | null> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? null : `${path} is not a folder.`;
  } catch (error) {
    return `${path} cannot be read (${errorCode(error)}).`;
  }
}

async function list(root: string, maxEntries: number): Promise<FolderListing> {
  const entries: FolderEntry[] = [];
  const pending: { path: string; depth: number }[] = [{ path: resolve(root), depth: 0 }];
  const base = resolve(root);
  while (pending.length > 0) {
    const folder = pending.pop() as { path: string; depth: number };
    let names: Dirent[];
    try {
      names = [];
      for await (const entry of await opendir(folder.path)) names.push(entry);
    } catch (error) {
      if (folder.depth === 0) throw error;
      entries.push(
        other(base, folder.path, `a folder that cannot be listed (${errorCode(error)})`),
      );
      continue;
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of names) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      if (entries.length >= maxEntries) return { entries, truncated: true };
      const path = join(folder.path, entry.name);
      if (entry.isDirectory()) {
        if (folder.depth + 1 < MAX_DEPTH) pending.push({ path, depth: folder.depth + 1 });
        else entries.push(other(base, path, `a folder nested deeper than ${MAX_DEPTH} levels`));
        continue;
      }
      let info;
      try {
        info = await lstat(path);
      } catch (error) {
        entries.push(other(base, path, `cannot be read (${errorCode(error)})`));
        continue;
      }
      const relativePath = toRelative(base, path);
      if (info.isFile()) {
        entries.push({ type: 'file', relativePath, size: info.size, mtimeMs: info.mtimeMs });
      } else {
        entries.push({
          type: 'other',
          relativePath,
          size: info.size,
          mtimeMs: info.mtimeMs,
          what: info.isSymbolicLink()
            ? 'a symbolic link (links are not followed)'
            : 'not a regular file (a FIFO, socket or device)',
        });
      }
    }
  }
  return { entries, truncated: false };
}

async function read(root: string, relativePath: string, maxBytes: number): Promise<FileBytes> {
  const base = resolve(root);
  const path = resolve(base, relativePath);
  if (!path.startsWith(base + sep)) return { ok: false, reason: 'outside the folder' };
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP') return { ok: false, reason: 'a symbolic link (links are not followed)' };
    return { ok: false, reason: `cannot be read (${code})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { ok: false, reason: 'not a regular file' };
    if (info.size > maxBytes) {
      return {
        ok: false,
        reason: `too large (${formatBytes(info.size)}; the limit is ${formatBytes(maxBytes)})`,
      };
    }
    const bytes = await handle.readFile();
    return { ok: true, bytes, size: info.size, mtimeMs: info.mtimeMs };
  } catch (error) {
    return { ok: false, reason: `cannot be read (${errorCode(error)})` };
  } finally {
    await handle.close();
  }
}

function other(base: string, path: string, what: string): FolderEntry {
  return { type: 'other', relativePath: toRelative(base, path), size: 0, mtimeMs: 0, what };
}

/** The path inside the folder, with "/" between names on every platform (it is a citation). */
function toRelative(base: string, path: string): string {
  return relative(base, path).split(sep).join('/');
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : String(error);
}
