/**
 * `aivory mcp roots N [--add DIR [--name NAME] | --remove DIR] [--json]`: the folders shared with
 * an MCP service (MCP roots). A relative DIR is taken from the current directory; the service
 * stores the real path and tells a live connection.
 */
import { resolve } from 'node:path';
import type { McpRoot } from '../../shared/mcp-roots';
import type { AppContext } from '../composition/app-context';
import { EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';

export const ROOTS_USAGE = 'Usage: aivory mcp roots N [--add DIR [--name NAME] | --remove DIR]';

export interface RootsFlags {
  add?: string | undefined;
  remove?: string | undefined;
  name?: string | undefined;
  json: boolean;
}

export async function mcpRootsCommand(
  context: AppContext,
  io: CliIo,
  serviceName: string | undefined,
  flags: RootsFlags,
): Promise<number> {
  if (!serviceName || (flags.add !== undefined && flags.remove !== undefined))
    throw usageError(ROOTS_USAGE);
  if (flags.name !== undefined && flags.add === undefined)
    throw usageError('--name labels a folder given with --add.');
  const print = (text: string) => io.stdout(`${text}\n`);
  const service = context.mcp.get(serviceName);
  let roots: McpRoot[];
  if (flags.add !== undefined) {
    roots = await context.mcp.addRoot(service.id, resolve(flags.add), flags.name);
    if (!flags.json) print(`Shared ${roots.at(-1)?.path ?? flags.add} with ${service.name}.`);
  } else if (flags.remove !== undefined) {
    const dir = resolve(flags.remove);
    roots = await context.mcp.removeRoot(service.id, dir);
    if (!flags.json) print(`${service.name} no longer sees ${dir}.`);
  } else {
    roots = context.mcp.roots(service.id);
  }
  if (flags.json) print(JSON.stringify(roots));
  else if (roots.length === 0) print(`No folders shared with ${service.name}.`);
  else if (flags.add === undefined && flags.remove === undefined)
    for (const root of roots)
      print(root.name === undefined ? root.path : `${root.path}\t${root.name}`);
  return EXIT_OK;
}
