/**
 * The MCP roots part of the IPC contract: the folders shared with one MCP service (list, add,
 * remove) and the desktop's folder picker. Paths are checked again by the service (an existing
 * directory, stored by its real path, at most MAX_MCP_ROOTS); the browser host has no picker.
 */
import { z } from 'zod';
import { MAX_MCP_ROOT_NAME_CHARS, MAX_MCP_ROOT_PATH_CHARS, MAX_MCP_ROOTS } from '../mcp-roots';
import { idSchema } from './dto-schemas';

/** One shared folder as views show it. */
export const mcpRootSchema = z.object({
  path: z.string(),
  name: z.string().optional(),
});

const rootsView = z.object({
  roots: z.array(mcpRootSchema).max(MAX_MCP_ROOTS),
  /** The most a service may have. */
  max: z.number().int(),
});
const folderPath = z
  .string()
  .min(1, 'a folder path is required')
  .max(MAX_MCP_ROOT_PATH_CHARS, `at most ${MAX_MCP_ROOT_PATH_CHARS} characters`);

/** The `mcpRoots.*` methods, spread into `invokeContract`. */
export const mcpRootsMethods = {
  'mcpRoots.list': { request: z.object({ id: idSchema }).strict(), response: rootsView },
  /** Shares an existing folder (absolute path) with the service; tells its live connection. */
  'mcpRoots.add': {
    request: z
      .object({
        id: idSchema,
        path: folderPath,
        name: z
          .string()
          .max(MAX_MCP_ROOT_NAME_CHARS, `at most ${MAX_MCP_ROOT_NAME_CHARS} characters`)
          .optional(),
      })
      .strict(),
    response: rootsView,
  },
  'mcpRoots.remove': {
    request: z.object({ id: idSchema, path: folderPath }).strict(),
    response: rootsView,
  },
  /** The desktop's "choose a folder" dialog: the chosen folder, or null when canceled. */
  'mcpRoots.pickFolder': {
    request: z.object({}).strict().optional(),
    response: z.object({ path: z.string().nullable() }),
  },
};
