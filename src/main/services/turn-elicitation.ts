/**
 * A turn's elicitor: each tool of the turn runs with `ToolContext.elicit` set to the turn's
 * (the desktop's card, the CLI's prompt), so an MCP server that asks the user something during a
 * call reaches the person running the turn. Like progress, the orchestrator knows nothing of it,
 * and nothing the user types goes into the turn's events or messages: the answer goes to the
 * server only.
 */
import type { McpElicitor, Tool, ToolContext } from '../core/ports';

/** `tool` whose calls carry `elicit`; the tool itself unchanged when there is none. */
export function withElicitor(tool: Tool, elicit: McpElicitor | undefined): Tool {
  if (elicit === undefined) return tool;
  const execute = (args: unknown, context: ToolContext) =>
    tool.execute(args, { ...context, elicit });
  // defineProperty: a frozen tool's `execute` cannot be shadowed by assignment.
  return Object.defineProperty(Object.create(tool) as Tool, 'execute', { value: execute });
}
