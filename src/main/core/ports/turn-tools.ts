/**
 * The tools a turn can be given. The chat service alone decides which names a turn offers (from
 * `candidates()`, the global switches, the turn's own selection or the model's defaults, and the
 * conversation's switches), then asks `build` for exactly those names. Nothing is registered or
 * shared between turns: each turn's tools are built for it from the current settings.
 */
import type { Tool } from './tool';

/** A tool a turn could offer: a built-in (its backend may be missing) or an MCP service's tool. */
export type ToolCandidate =
  | { name: string; source: 'built-in' }
  | { name: string; source: 'mcp'; serviceId: string; serviceName: string };

/** A picked tool that cannot run now, with the reason the user is shown. */
export interface MissingTool {
  name: string;
  reason: string;
}

/** `build`'s answer: the tools in the order asked, and the names that could not be built. */
export interface BuiltTools {
  tools: Tool[];
  missing: MissingTool[];
}

export interface TurnTools {
  /**
   * Every tool a turn could offer now, without building any: each built-in name (whether or not
   * its backend is there) and the MCP tools callable now, named around the built-ins.
   */
  candidates(): Promise<ToolCandidate[]>;
  /**
   * The named tools, built for one turn (a sandbox is found only when a picked tool needs it). A
   * name that is no candidate or whose backend is missing comes back in `missing`.
   */
  build(names: readonly string[]): Promise<BuiltTools>;
}
