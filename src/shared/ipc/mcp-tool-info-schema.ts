/**
 * The zod schema of one MCP tool as its server listed it, apart from the contract's MCP methods:
 * the SQLite adapter checks stored tools against it, and every `aivory` start opens the store, so
 * this module stays small (issue 24). `mcp-methods.ts` re-exports it.
 */
import { z } from 'zod';

/** One tool as a server listed it. */
export const mcpToolInfoSchema = z.lazy(() =>
  z.object({
    name: z.string(),
    description: z.string(),
    inputSchema: z.record(z.string(), z.unknown()),
    annotations: z
      .object({
        title: z.string().optional(),
        readOnlyHint: z.boolean().optional(),
        destructiveHint: z.boolean().optional(),
        idempotentHint: z.boolean().optional(),
        openWorldHint: z.boolean().optional(),
      })
      .nullable(),
    outputSchema: z.record(z.string(), z.unknown()).optional(),
  }),
);
