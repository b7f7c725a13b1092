/**
 * The MCP import part of the IPC contract (Settings → MCP → Import): a pasted or dropped config
 * (Claude Desktop, .mcp.json, Cursor, VS Code) planned, then imported. Plans show what will run
 * in full — env and header values in clear unless they are secrets (those masked) — and call out
 * loader variables; answers to `${input:…}` go in, never come back.
 */
import { z } from 'zod';
import { formatBytes } from '../byte-size';
import { MAX_MCP_IMPORT_CHARS } from './limits';
import { mcpTransportSchema } from './mcp-methods';

const configText = z
  .string()
  .min(1, 'paste a config or choose a file')
  .max(MAX_MCP_IMPORT_CHARS, `at most ${formatBytes(MAX_MCP_IMPORT_CHARS)}`);
const inputAnswers = z
  .record(z.string().max(100), z.string().max(8192))
  .refine((record) => Object.keys(record).length <= 100, 'too many inputs')
  .optional();

/**
 * Loader variables (`loader-env.ts`) the user allows, by service name: the dialog's box per
 * service and variable. Any other loader variable is left out of the import.
 */
const loaderAllowances = z
  .record(z.string().max(100), z.array(z.string().max(100)).max(100))
  .refine((record) => Object.keys(record).length <= 100, 'too many services')
  .optional();

/**
 * An env or header value as the plan shows it: in clear, or masked when it is a secret; a
 * loader variable says what it does and whether the user allowed it for the service.
 */
const importValueSchema = z.object({
  name: z.string(),
  shown: z.string(),
  secret: z.boolean(),
  from: z.string(),
  loader: z.string().nullable(),
  allowed: z.boolean(),
});

/** What an import would add and leave out. */
export const mcpImportPlanSchema = z.object({
  shape: z.enum(['mcpServers', 'vscode']),
  entries: z.array(
    z.object({
      name: z.string(),
      transport: mcpTransportSchema,
      url: z.string().nullable(),
      command: z.string().nullable(),
      args: z.array(z.string()),
      env: z.array(importValueSchema),
      headers: z.array(importValueSchema),
      /** `${input:id}` still without an answer: the entry is left out until given. */
      missingInputs: z.array(z.string()),
      notes: z.array(z.string()),
    }),
  ),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
  /** The `${input:…}` the entries use, for the dialog's fields. */
  inputs: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      password: z.boolean(),
      default: z.string().nullable(),
      options: z.array(z.string()).nullable(),
    }),
  ),
});

/** The `mcp.importPlan` / `mcp.import` methods, spread into `invokeContract`. */
export const mcpImportMethods = {
  /** Reads the config into a plan; nothing is saved. Broken JSON is an error saying where. */
  'mcp.importPlan': {
    request: z
      .object({ text: configText, inputs: inputAnswers, allowLoaderEnv: loaderAllowances })
      .strict(),
    response: mcpImportPlanSchema,
  },
  /**
   * Adds each ready entry (secrets to the secret store), then tests and syncs it; its tools are
   * held for review. Command servers need `confirmCommands`: the user saw their command lines.
   */
  'mcp.import': {
    request: z
      .object({
        text: configText,
        inputs: inputAnswers,
        allowLoaderEnv: loaderAllowances,
        confirmCommands: z.literal(true).optional(),
      })
      .strict(),
    response: z.object({
      plan: mcpImportPlanSchema,
      results: z.array(
        z.object({
          name: z.string(),
          id: z.string().nullable(),
          ok: z.boolean(),
          toolCount: z.number(),
          message: z.string(),
        }),
      ),
    }),
  },
};
