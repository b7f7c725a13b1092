/**
 * MCP roots: the folders the user shares with one MCP service (the client side of the protocol's
 * `roots` capability). Plain data and limits, shared by the store, the services, the CLI and the
 * settings page; none by default.
 */

/** One shared folder: its absolute real path (symlinks resolved) and an optional label. */
export interface McpRoot {
  path: string;
  name?: string;
}

/** Most folders one service may be given. */
export const MAX_MCP_ROOTS = 32;
/** Longest stored path (characters). */
export const MAX_MCP_ROOT_PATH_CHARS = 4096;
/** Longest label (characters). */
export const MAX_MCP_ROOT_NAME_CHARS = 100;
