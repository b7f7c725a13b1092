/**
 * The folders a user shares with an MCP service (MCP roots): none by default; each must be an
 * existing directory, stored as its absolute real path (symlinks resolved), once, at most
 * MAX_MCP_ROOTS per service. After a change the live connection is told
 * (`notifications/roots/list_changed`); one opened while the service shared nothing did not
 * announce roots, so it is closed and the next use reconnects announcing them.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, normalize } from 'node:path';
import { AivoryError } from '../../../shared/errors';
import type { McpService } from '../../../shared/mcp';
import {
  MAX_MCP_ROOT_NAME_CHARS,
  MAX_MCP_ROOT_PATH_CHARS,
  MAX_MCP_ROOTS,
} from '../../../shared/mcp-roots';
import type { McpRoot } from '../../../shared/mcp-roots';
import type { Logger, McpConnectOptions, McpSession, McpStore } from '../../core/ports';
import { hasInvisibleCharacters } from '../../../shared/untrusted-text';

export interface McpRootsDependencies {
  store: Pick<McpStore, 'listRoots' | 'setRoots'>;
  /** The service's live (or opening) connection, if any; never opens one. */
  live: (serviceId: string) => Promise<McpSession> | undefined;
  disconnect: (serviceId: string) => Promise<void>;
  logger: Logger;
}

/** The `roots` connect option: the stored folders, read at each roots/list; absent when none. */
export function rootsOption(
  store: Pick<McpStore, 'listRoots'>,
  serviceId: string,
): Pick<McpConnectOptions, 'roots'> {
  if (store.listRoots(serviceId).length === 0) return {};
  return { roots: () => Promise.resolve(store.listRoots(serviceId)) };
}

export class McpRoots {
  constructor(private readonly dependencies: McpRootsDependencies) {}

  list(service: McpService): McpRoot[] {
    return this.dependencies.store.listRoots(service.id);
  }

  /** Shares `dir` (absolute) with the service; returns the new list. */
  async add(service: McpService, dir: string, name?: string): Promise<McpRoot[]> {
    const label = checkedName(name);
    const path = await existingFolder(dir);
    const roots = this.list(service);
    if (roots.some((root) => root.path === path)) {
      throw new AivoryError('invalid-input', `${path} is already shared with "${service.name}".`);
    }
    if (roots.length >= MAX_MCP_ROOTS) {
      throw new AivoryError(
        'invalid-input',
        `"${service.name}" already has ${MAX_MCP_ROOTS} shared folders, the most it can have.`,
      );
    }
    const next = [...roots, label === undefined ? { path } : { path, name: label }];
    this.dependencies.store.setRoots(service.id, next);
    await this.changed(service);
    return next;
  }

  /** Stops sharing `dir` (as stored, or a path that resolves to it); returns the new list. */
  async remove(service: McpService, dir: string): Promise<McpRoot[]> {
    const given = checkedPath(dir);
    const resolved = await realpath(given).catch(() => given);
    const roots = this.list(service);
    const next = roots.filter((root) => root.path !== given && root.path !== resolved);
    if (next.length === roots.length) {
      throw new AivoryError('not-found', `${given} is not shared with "${service.name}".`);
    }
    this.dependencies.store.setRoots(service.id, next);
    await this.changed(service);
    return next;
  }

  /** Tells the live connection, if any, that the list changed (see the file's comment). */
  private async changed(service: McpService): Promise<void> {
    const { live, disconnect, logger } = this.dependencies;
    const opening = live(service.id);
    if (opening === undefined) return;
    let session: McpSession;
    try {
      session = await opening;
    } catch {
      return; // It never opened: the next connection reads the new list.
    }
    try {
      if (await session.rootsChanged()) return;
    } catch (error) {
      logger.warn('MCP roots/list_changed could not be sent', {
        service: service.name,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    await disconnect(service.id);
  }
}

/** A path as given: absolute, bounded, without control characters; normalised. */
function checkedPath(dir: string): string {
  if (dir.trim() === '') throw new AivoryError('invalid-input', 'A folder path is required.');
  if (dir.length > MAX_MCP_ROOT_PATH_CHARS || hasInvisibleCharacters(dir)) {
    throw new AivoryError('invalid-input', 'That folder path is not valid.');
  }
  if (!isAbsolute(dir)) {
    throw new AivoryError('invalid-input', `Give the folder's absolute path, not "${dir}".`);
  }
  return normalize(dir);
}

/** The real path of an existing directory (symlinks resolved). */
async function existingFolder(dir: string): Promise<string> {
  const given = checkedPath(dir);
  let path: string;
  try {
    path = await realpath(given);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AivoryError(
      'invalid-input',
      code === 'ENOENT' || code === 'ENOTDIR'
        ? `There is no folder at ${given}.`
        : `${given} cannot be read (${code ?? 'error'}).`,
    );
  }
  if (!(await stat(path)).isDirectory()) {
    throw new AivoryError('invalid-input', `${given} is a file, not a folder.`);
  }
  if (path.length > MAX_MCP_ROOT_PATH_CHARS || hasInvisibleCharacters(path)) {
    throw new AivoryError('invalid-input', 'That folder path is not valid.');
  }
  return path;
}

/** An optional label: trimmed, one line, bounded; empty means none. */
function checkedName(name: string | undefined): string | undefined {
  const trimmed = name?.trim() ?? '';
  if (trimmed === '') return undefined;
  if (trimmed.length > MAX_MCP_ROOT_NAME_CHARS || hasInvisibleCharacters(trimmed)) {
    throw new AivoryError(
      'invalid-input',
      `A folder's name is one line of at most ${MAX_MCP_ROOT_NAME_CHARS} characters.`,
    );
  }
  return trimmed;
}
