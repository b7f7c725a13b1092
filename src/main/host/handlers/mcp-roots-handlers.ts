/**
 * `mcpRoots.*`: the folders shared with an MCP service, over `McpServices` (which checks each
 * path: an existing directory, its real path, no duplicates, the cap) and the desktop's folder
 * picker. The browser host has no picker: the page asks for a typed path instead.
 */
import type { InvokeResponse } from '../../../shared/ipc-contract';
import type { McpRoot } from '../../../shared/mcp-roots';
import { MAX_MCP_ROOTS } from '../../../shared/mcp-roots';
import type { ApiHandlers } from '../dispatcher';
import { type HostContext, pickFolder } from '../host-context';

type RootsMethod = Extract<keyof ApiHandlers, `mcpRoots.${string}`>;
type RootsHandlers = Pick<ApiHandlers, RootsMethod>;

/** The MCP roots handlers over the host context. */
export function createMcpRootsHandlers(context: HostContext): RootsHandlers {
  const { mcp } = context.app;
  return {
    'mcpRoots.list': ({ id }) => rootsView(mcp.roots(id)),
    'mcpRoots.add': async ({ id, path, name }) => rootsView(await mcp.addRoot(id, path, name)),
    'mcpRoots.remove': async ({ id, path }) => rootsView(await mcp.removeRoot(id, path)),
    'mcpRoots.pickFolder': async () => {
      return { path: await pickFolder(context) };
    },
  };
}

/** The roots with exactly the contract's fields. */
function rootsView(roots: readonly McpRoot[]): InvokeResponse<'mcpRoots.list'> {
  return {
    roots: roots.map((root) =>
      root.name === undefined ? { path: root.path } : { path: root.path, name: root.name },
    ),
    max: MAX_MCP_ROOTS,
  };
}
